// riglens-cli pose PATH [--set NAME=VALUE]... [--play NAME] [--time-ms T] [--json]
#include <nlohmann/json.hpp>

#include "cli_common.h"
#include "riglens/core/rig/rig_controller.h"

namespace riglens::cli {

int runPose(const QStringList& args) {
  QCommandLineParser parser;
  PoseOptions pose;
  pose.addTo(parser);
  const QCommandLineOption json("json",
                                "Print JSON: {parts: [{name, world[16] column-major}], joints: {name: value}}.");
  parser.addOption(json);
  if (auto done = parseCommand(parser, args, "pose",
                               "Print each part's world matrix for caller values and an animation time.", "PATH"))
    return *done;
  if (auto problem = pose.read(parser)) return usageError("pose", *problem);

  int code = kExitOk;
  auto run = loadRunArgument(parser, "pose", &code);
  if (!run) return code;
  core::RigController controller(run->rig);
  if (auto posed = pose.apply(parser, controller); !posed) return inputError(posed.error().message);
  const auto& worlds = controller.partWorlds();
  const auto& values = controller.jointValues();

  if (parser.isSet(json)) {
    nlohmann::json out;
    out["parts"] = nlohmann::json::array();
    for (std::size_t i = 0; i < worlds.size(); ++i) {
      std::vector<float> m(&worlds[i][0][0], &worlds[i][0][0] + 16);
      out["parts"].push_back({{"name", run->rig.parts()[i].name}, {"world", m}});
    }
    out["joints"] = nlohmann::json::object();
    for (std::size_t j = 0; j < values.size(); ++j) out["joints"][run->rig.joints()[j].name] = values[j];
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    for (std::size_t j = 0; j < values.size(); ++j)
      std::printf("%-16s = %g\n", run->rig.joints()[j].name.c_str(), values[j]);
    for (std::size_t i = 0; i < worlds.size(); ++i) {
      std::printf("%s\n", run->rig.parts()[i].name.c_str());
      for (int r = 0; r < 4; ++r)
        std::printf("  [% 10.5f % 10.5f % 10.5f % 10.5f]\n", worlds[i][0][r], worlds[i][1][r], worlds[i][2][r],
                    worlds[i][3][r]);
    }
  }
  return kExitOk;
}

}  // namespace riglens::cli
