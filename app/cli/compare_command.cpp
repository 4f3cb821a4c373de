// riglens-cli compare A B: two versions of a run or model, posed alike, and
// what differs between them (core/rig/run_compare.h). Exit 0 when they are
// the same within --tolerance, 1 when they differ (or one cannot be read),
// 2 on a usage error: a CI pipeline gates on it.
#include <QtCore/QCommandLineParser>
#include <cstdio>

#include "cli_commands.h"
#include "cli_common.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/run_compare.h"

namespace riglens::cli {

namespace {

// Poses one side: the --set joints it has (a joint only one side has is
// listed among the differences instead), the clip if it has it, the clock.
core::Expected<void> poseSide(const PoseOptions& pose, const QCommandLineParser& parser,
                              core::RigController& controller) {
  for (const auto& [joint, value] : pose.callers)
    if (controller.rig().findJoint(joint) != core::kNoIndex)
      if (auto ok = controller.setCaller(joint, value); !ok) return ok;
  for (const auto& [expression, weight] : pose.expressions)
    (void)controller.setExpression(expression, weight);  // a VRM expression only one side has: as a joint above
  if (parser.isSet(pose.play))
    if (controller.play(parser.value(pose.play).toStdString())) controller.seekPlayable(pose.timeMs);
  controller.setClockMs(pose.timeMs);
  controller.evaluate();
  return {};
}

void printText(const nlohmann::json& facts, const QStringList& paths) {
  std::printf("a: %s\nb: %s\n", qPrintable(paths[0]), qPrintable(paths[1]));
  for (const auto& part : facts["distances"]) {
    if (part.contains("topology"))
      std::printf("  %-16s topology differs\n", part["part"].get<std::string>().c_str());
    else
      std::printf("  %-16s %7zu vertices  max %-12g mean %g\n", part["part"].get<std::string>().c_str(),
                  part["vertices"].get<std::size_t>(), part["max"].get<double>(), part["mean"].get<double>());
  }
  for (const auto& difference : facts["differences"])
    std::printf("differs: %s\n", difference.get<std::string>().c_str());
  std::printf("%s\n", facts["differs"].get<bool>() ? "they differ" : "the same within the tolerance");
}

}  // namespace

int runCompare(const QStringList& args) {
  QCommandLineParser parser;
  PoseOptions pose;
  pose.addTo(parser);
  const QCommandLineOption json("json", "Print the facts as JSON.");
  const QCommandLineOption tolerance("tolerance",
                                     "The vertex distance (the runs' length unit) above which a part differs "
                                     "(default 1e-5).",
                                     "D", "1e-5");
  parser.addOptions({json, tolerance});
  if (auto done = parseCommand(parser, args, "compare",
                               "Compare two versions of a run or model posed alike: parts, joints, clips, "
                               "triangles, bounds, and each part's vertex distances. Exit 1 when they differ.",
                               "A B"))
    return *done;
  if (auto problem = pose.read(parser)) return usageError("compare", *problem);
  bool ok = false;
  const double limit = parser.value(tolerance).toDouble(&ok);
  if (!ok || !(limit >= 0)) return usageError("compare", "--tolerance must be a number >= 0");
  const QStringList paths = parser.positionalArguments();
  if (paths.size() != 2) return usageError("compare", "expected two paths, A and B");
  auto a = core::loadRun(paths[0].toStdString());
  if (!a) return inputError(a.error().message);
  auto b = core::loadRun(paths[1].toStdString());
  if (!b) return inputError(b.error().message);
  core::RigController ca(a->rig, a->modelFile ? &a->gltf : nullptr), cb(b->rig, b->modelFile ? &b->gltf : nullptr);
  for (core::RigController* controller : {&ca, &cb})
    if (auto posed = poseSide(pose, parser, *controller); !posed) return inputError(posed.error().message);
  nlohmann::json facts = core::compareRuns(core::PosedRun{*a, ca}, core::PosedRun{*b, cb}, limit);
  if (parser.isSet(json)) {
    facts["a"] = paths[0].toStdString();
    facts["b"] = paths[1].toStdString();
    facts["timeMs"] = pose.timeMs;
    std::printf("%s\n", facts.dump(2).c_str());
  } else {
    printText(facts, paths);
  }
  return facts["differs"].get<bool>() ? kExitBadInput : kExitOk;
}

}  // namespace riglens::cli
