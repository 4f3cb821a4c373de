// riglens-cli inspect PATH [--json]
#include <nlohmann/json.hpp>

#include "cli_common.h"

namespace riglens::cli {

namespace {

std::string rangeText(const core::Joint& j) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "[%g, %g] rest %g", j.min, j.max, j.rest);
  return buf;
}

nlohmann::json toJson(const core::LoadedRun& run) {
  using nlohmann::json;
  const core::Rig& rig = run.rig;
  json out = {{"source", run.source.string()}, {"kind", core::runKindName(run.kind)}};
  json parts = json::array();
  for (std::size_t i = 0; i < rig.parts().size(); ++i) {
    const auto& p = rig.parts()[i];
    json jp = {{"name", p.name}, {"parent", p.parent == core::kNoIndex ? json(nullptr) : json(rig.parts()[p.parent].name)},
               {"pivot", p.pivot}};
    if (run.kind != core::RunKind::SkinnedMesh && i < run.meshes.size()) {
      jp["vertices"] = run.meshes[i].vertexCount();
      jp["triangles"] = run.meshes[i].triangleCount();
      jp["socket"] = run.meshes[i].empty();
      jp["mesh"] = run.meshPaths[i];
    }
    parts.push_back(jp);
  }
  out["parts"] = parts;
  json joints = json::array();
  for (const auto& j : rig.joints())
    joints.push_back({{"name", j.name}, {"part", j.part == core::kNoIndex ? json(nullptr) : json(rig.parts()[j.part].name)},
                      {"kind", core::jointKindName(j.kind)}, {"axis", core::axisName(j.axis)},
                      {"drive", core::driveName(j.drive)}, {"min", j.min}, {"max", j.max}, {"rest", j.rest}});
  out["joints"] = joints;
  json anims = json::array();
  for (const auto& a : rig.animations()) {
    json tracks = json::array();
    for (const auto& t : a.tracks) tracks.push_back({{"joint", rig.joints()[t.joint].name}, {"keys", t.keyframes.size()}});
    anims.push_back({{"name", a.name}, {"periodMs", a.periodMs}, {"looping", a.looping}, {"autoPlay", a.autoPlay},
                     {"tracks", tracks}});
  }
  out["animations"] = anims;
  if (run.kind == core::RunKind::SkinnedMesh && !run.meshes.empty())
    out["skinnedMesh"] = {{"vertices", run.meshes[0].vertexCount()}, {"triangles", run.meshes[0].triangleCount()},
                          {"bones", run.skin ? run.skin->boneNames : std::vector<std::string>{}}};
  json warnings = json::array();
  for (const auto& w : run.warnings) warnings.push_back(w.describe());
  out["warnings"] = warnings;
  out["cpuBytes"] = run.cpuBytes();
  return out;
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
      if (m.empty()) std::printf(" socket");
      else std::printf(" %zu vertices, %zu triangles", m.vertexCount(), m.triangleCount());
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
  std::printf("warnings (%zu):\n", run.warnings.size());
  for (const auto& w : run.warnings) std::printf("  %s\n", w.describe().c_str());
}

}  // namespace

int runInspect(const QStringList& args) {
  QCommandLineParser parser;
  const QCommandLineOption json("json", "Print JSON instead of text.");
  parser.addOption(json);
  if (auto done = parseCommand(parser, args, "inspect",
                               "List a run's parts, joints, animations and every warning.", "PATH"))
    return *done;
  int code = kExitOk;
  auto run = loadRunArgument(parser, "inspect", &code);
  if (!run) return code;
  if (parser.isSet(json)) std::printf("%s\n", toJson(*run).dump(2).c_str());
  else printText(*run);
  return kExitOk;
}

}  // namespace riglens::cli
