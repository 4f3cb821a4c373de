// riglens-cli inspect PATH [--json]: anything the viewer opens, with every problem its loader
// found.
#include <nlohmann/json.hpp>

#include "cli_common.h"
#include "inspect_summary.h"
#include "riglens/core/gltf/gltf_scene.h"
#include "riglens/core/open/asset_readers.h"

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

// A VRM avatar's expressions and humanoid bones (posed by `pose --expression`).
nlohmann::json vrmSummary(const core::GltfScene& scene) {
  const core::VrmAvatar& vrm = *scene.vrm;
  nlohmann::json expressions = nlohmann::json::array(), humanoid = nlohmann::json::object();
  for (const core::VrmExpression& e : vrm.expressions)
    expressions.push_back({{"name", e.name}, {"preset", e.preset}, {"binary", e.binary}, {"binds", e.binds.size()}});
  for (const core::VrmHumanBone& bone : vrm.humanoid) humanoid[bone.bone] = scene.nodes[std::size_t(bone.node)].name;
  return {{"version", vrm.majorVersion == 0 ? "0.x" : "1.0"},
          {"title", vrm.title},
          {"expressions", expressions},
          {"humanoid", humanoid},
          {"mtoonMaterials", vrm.mtoonMaterials.size()}};
}

// A glTF file's own scene: its nodes, skins and clips (posed by `pose --play`).
nlohmann::json gltfSceneSummary(const core::GltfScene& scene) {
  nlohmann::json anims = nlohmann::json::array();
  for (const auto& a : scene.animations)
    anims.push_back({{"name", a.name}, {"durationMs", a.durationSeconds * 1000.0}, {"channels", a.channels.size()}});
  nlohmann::json nodes = nlohmann::json::array();
  for (int i : scene.drawOrder) {
    const auto& n = scene.nodes[std::size_t(i)];
    nodes.push_back({{"name", n.name},
                     {"parent", n.parent == core::kGltfNone ? nlohmann::json(nullptr)
                                                            : nlohmann::json(scene.nodes[std::size_t(n.parent)].name)},
                     {"mesh", n.mesh != core::kGltfNone},
                     {"skinned", n.skin != core::kGltfNone}});
  }
  const auto nodeName = [&](int node) { return scene.nodes[std::size_t(node)].name; };
  nlohmann::json cameras = nlohmann::json::array(), lights = nlohmann::json::array();
  for (const core::GltfCamera& c : scene.cameras) {
    nlohmann::json camera{{"name", c.name}, {"node", nodeName(c.node)}, {"znear", c.znear}, {"zfar", c.zfar}};
    camera["type"] = c.perspective ? "perspective" : "orthographic";
    if (c.perspective)
      camera["yfov"] = c.yfov, camera["aspectRatio"] = c.aspectRatio;
    else
      camera["xmag"] = c.xmag, camera["ymag"] = c.ymag;
    cameras.push_back(std::move(camera));
  }
  static constexpr const char* kLightTypes[] = {"directional", "point", "spot"};
  for (const core::GltfLight& l : scene.lights)
    lights.push_back({{"name", l.name},
                      {"node", nodeName(l.node)},
                      {"type", kLightTypes[int(l.type)]},
                      {"color", {l.color.r, l.color.g, l.color.b}},
                      {"intensity", l.intensity},
                      {"range", l.range},
                      {"innerConeAngle", l.innerConeAngle},
                      {"outerConeAngle", l.outerConeAngle}});
  nlohmann::json out{{"nodes", nodes},
                     {"meshes", scene.meshes.size()},
                     {"skins", scene.skins.size()},
                     {"animations", anims},
                     {"cameras", cameras},
                     {"lights", lights}};
  if (scene.vrm) out["vrm"] = vrmSummary(scene);
  return out;
}

void printGltfScene(const nlohmann::json& summary) {
  std::printf("glTF scene: %zu nodes, %zu meshes, %zu skins\n", summary["nodes"].size(),
              summary["meshes"].get<std::size_t>(), summary["skins"].get<std::size_t>());
  std::printf("glTF animations (%zu):\n", summary["animations"].size());
  for (const auto& a : summary["animations"])
    std::printf("  %-16s %8g ms  %zu channels\n", a["name"].get<std::string>().c_str(), a["durationMs"].get<double>(),
                a["channels"].get<std::size_t>());
  std::printf("glTF cameras (%zu):\n", summary["cameras"].size());
  for (const auto& c : summary["cameras"])
    std::printf("  %-16s %s on node '%s'\n", c["name"].get<std::string>().c_str(), c["type"].get<std::string>().c_str(),
                c["node"].get<std::string>().c_str());
  std::printf("glTF lights (%zu):\n", summary["lights"].size());
  for (const auto& l : summary["lights"])
    std::printf("  %-16s %s, intensity %g, on node '%s'\n", l["name"].get<std::string>().c_str(),
                l["type"].get<std::string>().c_str(), l["intensity"].get<double>(),
                l["node"].get<std::string>().c_str());
  if (!summary.contains("vrm")) return;
  const nlohmann::json& vrm = summary["vrm"];
  std::printf("VRM %s avatar '%s': %zu humanoid bones, %zu MToon materials\n",
              vrm["version"].get<std::string>().c_str(), vrm["title"].get<std::string>().c_str(),
              vrm["humanoid"].size(), vrm["mtoonMaterials"].get<std::size_t>());
  std::printf("VRM expressions (%zu):\n", vrm["expressions"].size());
  for (const auto& e : vrm["expressions"])
    std::printf("  %-16s %zu binds%s%s\n", e["name"].get<std::string>().c_str(), e["binds"].get<std::size_t>(),
                e["preset"].get<bool>() ? ", preset" : "", e["binary"].get<bool>() ? ", binary" : "");
}

}  // namespace

int runInspect(const QStringList& args) {
  QCommandLineParser parser;
  const QCommandLineOption jsonOption("json", "Print JSON instead of text (a failed load prints its problem too).");
  parser.addOption(jsonOption);
  if (auto done = parseCommand(parser, args, "inspect",
                               "Describe anything the viewer opens (a run, rig.json, run record, "
                               "a model (.glb/.gltf, or .obj/.fbx/.dae/.stl/mesh .ply through Assimp), "
                               "a character bundle, "
                               ".aosrig or ORL pack, a 3DGS .ply) with every problem its loader found.",
                               "PATH"))
    return *done;
  const QStringList positional = parser.positionalArguments();
  if (positional.size() != 1)
    return usageError("inspect", positional.isEmpty() ? "missing PATH" : "expected exactly one PATH");
  const std::string path = positional.first().toStdString();
  const auto refuse = [&](const core::Error& error) {
    if (parser.isSet(jsonOption))
      std::printf("%s\n",
                  nlohmann::json{{"source", path}, {"loaded", false}, {"problems", {failedLoadJson(error, path)}}}
                      .dump(2)
                      .c_str());
    return inputError(error.message);
  };
  if (isScenePath(path)) {
    auto summary = summarizeScene(path);
    if (!summary) return refuse(summary.error());
    if (parser.isSet(jsonOption))
      std::printf("%s\n", summary->dump(2).c_str());
    else
      printSummary(*summary);
    return kExitOk;
  }
  auto run = core::loadRun(path);
  if (!run) return refuse(run.error());
  std::optional<nlohmann::json> gltf;
  if (run->modelFile) gltf = gltfSceneSummary(run->gltf);
  if (parser.isSet(jsonOption)) {
    auto summary = runSummary(*run);
    if (gltf) summary["gltf"] = *gltf;
    std::printf("%s\n", summary.dump(2).c_str());
  } else {
    printText(*run);
    if (gltf) printGltfScene(*gltf);
  }
  return kExitOk;
}

}  // namespace riglens::cli
