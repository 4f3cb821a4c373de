// Voxel runs and glTF: rig.json, run records, part .glb, mesh.glb, .gltf.
#include <string>

#include "fixtures.h"
#include "riglens/core/base/json_file.h"
#include "riglens/core/gltf/closed_surface.h"
#include "riglens/core/gltf/flat_faces.h"
#include "riglens/core/gltf/glb_reader.h"
#include "riglens/core/gltf/gltf_scene.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/rig.h"
#include "riglens/core/rig/rig_json.h"
#include "riglens/core/rig/skinning.h"

namespace riglens::fuzz {
namespace {

// A run folder with the tank's part meshes (written once per folder name).
std::filesystem::path runFolder(const std::string& name) {
  const std::filesystem::path folder = scratch() / name;
  if (!std::filesystem::exists(folder / "meshes"))
    for (const auto& [part, glb] : tankPartGlbs()) put(name + "/meshes/" + part + ".glb", glb);
  return folder;
}

}  // namespace

Outcome rigJson(std::span<const std::uint8_t> input) {
  // In memory, as loadRun parses a rig.json, without reading part meshes:
  // parse, build, then pose, play and plan the export of what was built.
  auto doc = core::parseJson(asText(input), "rig.json");
  if (!doc) return {false, doc.error().message};
  auto raw = core::parseRigSpec(*doc, "rig.json");
  if (!raw) return {false, raw.error().message};
  auto built = core::buildRig(*raw, "rig.json");
  if (!built) return {false, built.error().message};
  core::LoadedRun run;
  run.source = "rig.json";
  run.rig = std::move(built->rig);
  run.meshes.resize(run.rig.parts().size());
  run.meshPaths.resize(run.rig.parts().size());
  exerciseRun(run);
  return {true, {}};
}

std::filesystem::path stageRigJson(std::span<const std::uint8_t> input) {
  runFolder("rig");
  return put("rig/rig.json", input);
}

std::filesystem::path stageRunRecord(std::span<const std::uint8_t> input) {
  runFolder("run");
  return put("run/run.json", input);
}

std::filesystem::path stagePartGlb(std::span<const std::uint8_t> input) {
  return put("part/part.glb", input);
}

std::filesystem::path stageMeshGlb(std::span<const std::uint8_t> input) {
  static const bool ready = (put("skinned/rig.json", tankRigJson()), true);
  (void)ready;
  put("skinned/mesh.glb", input);
  return scratch() / "skinned";
}

std::filesystem::path stageGltf(std::span<const std::uint8_t> input) {
  static const bool ready = (put("gltf/buffer.bin", std::vector<std::uint8_t>(4096, 0x3f)), true);
  (void)ready;
  return put("gltf/model.gltf", input);
}

// Every clip at its start, middle and end (and past it), every vertex posed.
void exerciseGltfScene(const core::GltfScene& scene) {
  (void)core::gltfPosedVertices(scene, core::gltfRestPose(scene));
  for (std::size_t a = 0; a < scene.animations.size(); ++a)
    for (double f : {-0.5, 0.0, 0.5, 1.0, 2.0})
      (void)core::gltfPosedVertices(scene,
                                    core::gltfSamplePose(scene, int(a), f * scene.animations[a].durationSeconds));
}

Outcome runRecord(std::span<const std::uint8_t> input) {
  auto run = core::loadRun(stageRunRecord(input));
  if (run) exerciseRun(*run);
  return outcomeOf(run);
}

Outcome partGlb(std::span<const std::uint8_t> input) {
  auto decoded = core::decodeGlb(input, "part.glb");
  if (decoded && decoded->skin) {
    const std::vector<glm::mat4> bones(decoded->skin->boneNames.size(), glm::mat4(1.0f));
    (void)core::skinMesh(decoded->mesh, *decoded->skin, bones);
  }
  if (decoded) {
    (void)core::computeVertexNormals(decoded->mesh);
    // What the run loader works out for every part it loads.
    (void)core::isClosedOutwardSurface(decoded->mesh);
    (void)core::hasFlatFaces(decoded->mesh);
  }
  // The same bytes as a scene, posed as `riglens-cli pose` poses it.
  if (auto scene = core::decodeGltfScene(input, "part.glb")) exerciseGltfScene(*scene);
  return outcomeOf(decoded);
}

Outcome meshGlb(std::span<const std::uint8_t> input) {
  // A run folder holding rig.json and mesh.glb only: the skinned form.
  auto run = core::loadRun(stageMeshGlb(input));
  if (run) exerciseRun(*run);
  return outcomeOf(run);
}

Outcome gltfText(std::span<const std::uint8_t> input) {
  // A .gltf beside one buffer file it may name ("buffer.bin", 4 KiB).
  const auto path = stageGltf(input);
  auto decoded = core::readGltfFile(path);
  if (auto scene = core::readGltfScene(path)) exerciseGltfScene(*scene);
  return outcomeOf(decoded);
}

}  // namespace riglens::fuzz
