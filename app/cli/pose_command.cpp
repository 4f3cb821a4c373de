// riglens-cli pose PATH [--set NAME=VALUE]... [--expression NAME=WEIGHT]... [--play NAME] [--time-ms T] [--json]
// [--vertices FILE]
#include <QtCore/QFile>
#include <nlohmann/json.hpp>
#include <span>

#include "cli_common.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/gltf/glb_reader.h"
#include "riglens/core/gltf/gltf_scene.h"
#include "riglens/core/rig/posed_meshes.h"
#include "riglens/core/rig/rig_controller.h"

namespace riglens::cli {

namespace {

// Every part's mesh placed by its world (a skinned mesh.glb skinned by its
// bones), xyz per vertex in part order: the rig's posed vertices.
std::vector<float> rigPosedVertices(const core::LoadedRun& run, const std::vector<glm::mat4>& worlds) {
  std::vector<float> out;
  for (const core::PartMesh& mesh : core::posedPartMeshes(run, worlds))
    out.insert(out.end(), mesh.positions.begin(), mesh.positions.end());
  return out;
}

// Little-endian f32, as every supported host stores them.
core::Expected<void> writeFloats(const QString& path, const std::vector<float>& values) {
  return core::writeFileAtomically(
      QFile::encodeName(path).toStdString(),
      std::span(reinterpret_cast<const std::uint8_t*>(values.data()), values.size() * sizeof(float)));
}

}  // namespace

int runPose(const QStringList& args) {
  QCommandLineParser parser;
  PoseOptions pose;
  pose.addTo(parser);
  const QCommandLineOption jsonOption("json",
                                      "Print JSON: {parts: [{name, world[16] column-major}], joints: {name: value}}; "
                                      "a glTF file adds nodes: [{name, world[16]}] and its animations.");
  const QCommandLineOption vertices("vertices",
                                    "Write the posed vertices of every mesh (glTF: morphed and skinned, every "
                                    "drawn primitive in scene order; a rig: every part) as little-endian f32 xyz.",
                                    "FILE");
  parser.addOption(jsonOption);
  parser.addOption(vertices);
  if (auto done = parseCommand(parser, args, "pose",
                               "Print each part's world matrix for caller values and an animation time.", "PATH"))
    return *done;
  if (auto problem = pose.read(parser)) return usageError("pose", *problem);

  int code = kExitOk;
  auto run = loadRunArgument(parser, "pose", &code);
  if (!run) return code;
  // A glTF file is also posed as its scene: its own node hierarchy and
  // clips, played by the controller as the viewer plays them (from the
  // tree the loader already read; the geometry is decoded again only for
  // --vertices, which morphs and skins every primitive).
  const core::GltfScene* tree = run->modelFile ? &run->gltf : nullptr;
  core::RigController controller(run->rig, tree);
  if (auto applied = pose.apply(parser, controller); !applied) return inputError(applied.error().message);
  const auto& worlds = controller.partWorlds();
  const auto& values = controller.jointValues();
  const core::GltfPose* gltfPose = controller.gltfPose();
  if (!gltfPose) tree = nullptr;  // no node tree to report
  if (parser.isSet(vertices)) {
    std::vector<float> posed;
    if (tree) {
      auto scene = core::readGltfScene(run->source);
      if (!scene) return inputError(scene.error().message);
      posed = core::gltfPosedVertices(*scene, *gltfPose);
    } else {
      posed = rigPosedVertices(*run, worlds);
    }
    if (auto written = writeFloats(parser.value(vertices), posed); !written) return inputError(written.error().message);
  }

  if (parser.isSet(jsonOption)) {
    nlohmann::json out;
    out["parts"] = nlohmann::json::array();
    for (std::size_t i = 0; i < worlds.size(); ++i) {
      std::vector<float> m(&worlds[i][0][0], &worlds[i][0][0] + 16);
      out["parts"].push_back({{"name", run->rig.parts()[i].name}, {"world", m}});
    }
    out["joints"] = nlohmann::json::object();
    for (std::size_t j = 0; j < values.size(); ++j) out["joints"][run->rig.joints()[j].name] = values[j];
    if (tree) {
      out["nodes"] = nlohmann::json::array();
      for (int i : tree->drawOrder) {
        const glm::mat4 m(gltfPose->worlds[std::size_t(i)]);
        out["nodes"].push_back(
            {{"name", tree->nodes[std::size_t(i)].name}, {"world", std::vector<float>(&m[0][0], &m[0][0] + 16)}});
      }
      out["animations"] = nlohmann::json::array();
      for (const auto& a : tree->animations)
        out["animations"].push_back({{"name", a.name}, {"durationMs", a.durationSeconds * 1000.0}});
      const std::vector<std::string> expressions = controller.expressionNames();
      if (!expressions.empty()) {  // a VRM avatar: its expressions' weights as set
        out["expressions"] = nlohmann::json::object();
        for (std::size_t e = 0; e < expressions.size(); ++e)
          out["expressions"][expressions[e]] = controller.expressionValues()[e];
      }
    }
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
