// riglens-cli pose PATH [--set NAME=VALUE]... [--play NAME] [--time-ms T] [--json]
#include <cmath>

#include <nlohmann/json.hpp>

#include "cli_common.h"
#include "riglens/core/rig_controller.h"

namespace riglens::cli {

int runPose(const QStringList& args) {
  QCommandLineParser parser;
  const QCommandLineOption set("set", "Set a caller joint (repeatable), e.g. --set turret_yaw=0.64.", "NAME=VALUE");
  const QCommandLineOption play("play", "Play this animation from 0 ms.", "NAME");
  const QCommandLineOption time("time-ms", "The clock in ms (autoPlay animations and the played one).", "T", "0");
  const QCommandLineOption json("json", "Print JSON: {parts: [{name, world[16] column-major}], joints: {name: value}}.");
  parser.addOptions({set, play, time, json});
  if (auto done = parseCommand(parser, args, "pose",
                               "Print each part's world matrix for caller values and an animation time.", "PATH"))
    return *done;

  bool ok = false;
  const double timeMs = parser.value(time).toDouble(&ok);
  if (!ok || !std::isfinite(timeMs)) return usageError("pose", "--time-ms needs a number, got '" + parser.value(time) + "'");
  std::vector<std::pair<std::string, double>> callers;
  for (const QString& assignment : parser.values(set)) {
    const int eq = assignment.indexOf('=');
    const double value = eq > 0 ? assignment.mid(eq + 1).toDouble(&ok) : 0.0;
    if (eq <= 0 || !ok) return usageError("pose", "--set needs NAME=VALUE, got '" + assignment + "'");
    callers.emplace_back(assignment.left(eq).toStdString(), value);
  }

  int code = kExitOk;
  auto run = loadRunArgument(parser, "pose", &code);
  if (!run) return code;
  core::RigController controller(run->rig);
  for (const auto& [name, value] : callers)
    if (auto set_ = controller.setCaller(name, value); !set_) return inputError(set_.error().message);
  if (parser.isSet(play)) {
    if (auto started = controller.play(parser.value(play).toStdString()); !started)
      return inputError(started.error().message);
    controller.seekPlayable(timeMs);
  }
  controller.setClockMs(timeMs);
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
        std::printf("  [% 10.5f % 10.5f % 10.5f % 10.5f]\n", worlds[i][0][r], worlds[i][1][r], worlds[i][2][r], worlds[i][3][r]);
    }
  }
  return kExitOk;
}

}  // namespace riglens::cli
