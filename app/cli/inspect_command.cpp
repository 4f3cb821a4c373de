// riglens-cli inspect PATH [--json]: anything the viewer opens, with every problem its loader
// found.
#include <nlohmann/json.hpp>

#include "cli_common.h"
#include "inspect_summary.h"

namespace riglens::cli {

namespace {

std::string rangeText(const core::Joint& j) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "[%g, %g] rest %g", j.min, j.max, j.rest);
  return buf;
}

void printText(const core::LoadedRun& run) {
  const core::Rig& rig = run.rig;
  std::printf("%s (%s)\n", run.source.string().c_str(), core::runKindName(run.kind));
  std::printf("parts (%zu):\n", rig.parts().size());
  for (std::size_t i = 0; i < rig.parts().size(); ++i) {
    const auto& p = rig.parts()[i];
    const std::string parent = p.parent == core::kNoIndex ? "(root)" : rig.parts()[p.parent].name;
    std::printf("  %-16s parent %-14s", p.name.c_str(), parent.c_str());
    if (run.kind != core::RunKind::SkinnedMesh && i < run.meshes.size()) {
      const auto& m = run.meshes[i];
      if (m.empty())
        std::printf(" socket");
      else
        std::printf(" %zu vertices, %zu triangles", m.vertexCount(), m.triangleCount());
    }
    std::printf("\n");
  }
  if (run.kind == core::RunKind::SkinnedMesh && !run.meshes.empty())
    std::printf("skinned mesh: %zu vertices, %zu triangles, %zu bones\n", run.meshes[0].vertexCount(),
                run.meshes[0].triangleCount(), run.skin ? run.skin->boneNames.size() : 0);
  std::printf("joints (%zu):\n", rig.joints().size());
  for (const auto& j : rig.joints())
    std::printf("  %-16s %-11s %s  %-6s on %-14s %s\n", j.name.c_str(), core::jointKindName(j.kind),
                core::axisName(j.axis), core::driveName(j.drive),
                j.part == core::kNoIndex ? "(none)" : rig.parts()[j.part].name.c_str(), rangeText(j).c_str());
  std::printf("animations (%zu):\n", rig.animations().size());
  for (const auto& a : rig.animations()) {
    std::string tracks;
    for (const auto& t : a.tracks) tracks += (tracks.empty() ? "" : ", ") + rig.joints()[t.joint].name;
    std::printf("  %-16s %6g ms  %-8s %-9s tracks: %s\n", a.name.c_str(), a.periodMs, a.looping ? "looping" : "once",
                a.autoPlay ? "autoPlay" : "playable", tracks.c_str());
  }
  std::printf("problems (%zu):\n", run.warnings.size());
  for (const auto& w : run.warnings) std::printf("  %-7s %s\n", core::severityName(w.severity), w.describe().c_str());
}

}  // namespace

int runInspect(const QStringList& args) {
  QCommandLineParser parser;
  const QCommandLineOption json("json", "Print JSON instead of text (a failed load prints its problem too).");
  parser.addOption(json);
  if (auto done = parseCommand(parser, args, "inspect",
                               "Describe anything the viewer opens (a run, rig.json, run record, "
                               ".glb/.gltf, a character bundle, "
                               ".aosrig or ORL pack, a 3DGS .ply) with every problem its loader found.",
                               "PATH"))
    return *done;
  const QStringList positional = parser.positionalArguments();
  if (positional.size() != 1)
    return usageError("inspect", positional.isEmpty() ? "missing PATH" : "expected exactly one PATH");
  const std::string path = positional.first().toStdString();
  const auto refuse = [&](const core::Error& error) {
    if (parser.isSet(json))
      std::printf("%s\n",
                  nlohmann::json{{"source", path}, {"loaded", false}, {"problems", {failedLoadJson(error, path)}}}
                      .dump(2)
                      .c_str());
    return inputError(error.message);
  };
  if (isScenePath(path)) {
    auto summary = summarizeScene(path);
    if (!summary) return refuse(summary.error());
    if (parser.isSet(json))
      std::printf("%s\n", summary->dump(2).c_str());
    else
      printSummary(*summary);
    return kExitOk;
  }
  auto run = core::loadRun(path);
  if (!run) return refuse(run.error());
  if (parser.isSet(json))
    std::printf("%s\n", runSummary(*run).dump(2).c_str());
  else
    printText(*run);
  return kExitOk;
}

}  // namespace riglens::cli
