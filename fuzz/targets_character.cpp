// Splat characters and scenes: .aosrig, ORLPACK1, .ply, bundles, and the
// JSON side files the CLI and the viewer read for them.
#include <cmath>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>

#include "fixtures.h"
#include "riglens/core/base/json_file.h"
#include "riglens/core/character/body_pose.h"
#include "riglens/core/character/bundle.h"
#include "riglens/core/character/character_scene.h"
#include "riglens/core/character/expressions.h"
#include "riglens/core/character/gnm.h"
#include "riglens/core/character/head_ext.h"
#include "riglens/core/decoded/decoded_character.h"
#include "riglens/core/decoded/npy.h"
#include "riglens/core/decoded/uv_lift.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/core/splats/splat_rasteriser.h"
#include "riglens/core/view/orbit_camera.h"
#include "riglens/samples/character_sample.h"

namespace riglens::fuzz {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A bundle folder: a GNM pack, a branch mesh, rig names, a decoder stand-in.
void writeBundleCompanions(const fs::path& relative) {
  put(relative / "gnm_head.aosrig", tinyPackBytes());
  put(relative / "orl_pack.bin", tinyOrlPackBytes());
  const auto [meshJson, meshBin] = branchMeshFixture();
  put(relative / "mesh_head.json", meshJson);
  put(relative / "mesh_head.bin", meshBin);
  put(relative / "rig_names.json", std::string_view(R"(["CTRL_C_eye.translateX", "CTRL_L_eye_blink.translateY"])"));
  put(relative / "geom_head.onnx", std::string_view("not a model"));
}

void exerciseScene(const core::CharacterScene& scene) {
  if (scene.pack) exercisePack(*scene.pack);
  if (scene.bundle && scene.bundle->orl) {  // the bundle's control order through the DNA to the deform
    const std::vector<float> rig(core::rigVectorSize(*scene.bundle), 0.5f);
    (void)core::poseRigCpu(*scene.bundle, rig);
  }
  std::vector<float> arkit(core::kArkitCount, 0.5f);
  (void)core::toRigVector(scene.expression, core::ExpressionKind::Arkit52, arkit,
                          scene.pack ? &scene.pack->headExt : nullptr);
  const std::vector<float> gnm(std::size_t(std::max(0, scene.expression.dim)), 0.5f);
  (void)core::toRigVector(scene.expression, core::ExpressionKind::Gnm, gnm,
                          scene.pack ? &scene.pack->headExt : nullptr);
}

}  // namespace

std::filesystem::path stageAosrig(std::span<const std::uint8_t> input) {
  return put("pack/pack.aosrig", input);
}
std::filesystem::path stagePly(std::span<const std::uint8_t> input) {
  return put("ply/scene.ply", input);
}

std::filesystem::path stageBundleScene(std::span<const std::uint8_t> input) {
  static const bool ready = (writeBundleCompanions("bundle"), true);
  (void)ready;
  put("bundle/scene.json", input);
  return scratch() / "bundle";
}

std::filesystem::path stageBundleMesh(std::span<const std::uint8_t> input) {
  static const bool ready = [] {
    writeBundleCompanions("mesh-bundle");
    put("mesh-bundle/scene.json",
        std::string_view(
            R"({"subject": "fuzz", "branches": {"head": {"mesh_json": "mesh_head.json", "mesh_bin": "mesh_head.bin"}}})"));
    return true;
  }();
  (void)ready;
  put("mesh-bundle/mesh_head.json", input);
  return scratch() / "mesh-bundle";
}

Outcome aosrig(std::span<const std::uint8_t> input) {
  auto pack =
      core::parseAosRig(std::make_shared<const std::vector<std::uint8_t>>(input.begin(), input.end()), "pack.aosrig");
  if (pack) exercisePack(*pack);
  return outcomeOf(pack);
}

Outcome orlPack(std::span<const std::uint8_t> input) {
  auto pack = core::parseOrlPack(input, "orl_pack.bin");
  if (pack) exerciseOrl(*pack);
  return outcomeOf(pack);
}

// What the viewer does with a cloud on a machine without a GPU: the CPU
// rasteriser draws it (a small view, framed on its bounds, from two sides).
void drawCloud(const core::GaussianCloud& cloud) {
  const core::SplatSink sink = core::sinkOfCloud(cloud);
  core::OrbitCamera camera;
  camera.frame(core::cloudBounds(cloud), 1.5f);
  core::SplatCamera view;
  view.clip = camera.projection(1.5f);
  view.size = {48.0f, 32.0f};
  view.focal = {view.clip[0][0] * 24.0f, view.clip[1][1] * 16.0f};
  view.logScale = 65535.0f / std::log(1e7f);
  core::SplatImage image;
  for (float yaw : {30.0f, 210.0f}) {
    camera.setAngles(yaw, 20.0f);
    view.view = camera.view();
    (void)core::rasteriseSplats(core::splatInputs(sink, &cloud), view, image, 1);
  }
}

Outcome gaussianPly(std::span<const std::uint8_t> input) {
  auto cloud = core::parseGaussianPly(input, "scene.ply");
  if (cloud) drawCloud(*cloud);
  return outcomeOf(cloud);
}

Outcome bundleScene(std::span<const std::uint8_t> input) {
  const auto folder = stageBundleScene(input);
  auto scene = core::loadCharacterScene(folder);
  if (scene) exerciseScene(*scene);
  if (!scene) {  // a bundle the viewer cannot draw may still load for inspect
    auto bundle = core::loadBundle(folder);
    return outcomeOf(bundle);
  }
  return outcomeOf(scene);
}

Outcome bundleMesh(std::span<const std::uint8_t> input) {
  auto bundle = core::loadBundle(stageBundleMesh(input));
  if (bundle)
    for (const auto& mesh : bundle->meshes) {
      (void)core::orlShellBinding(orlFixture(), mesh.neutral, mesh.faces);
      if (!mesh.hasUvMaps()) continue;
      // Both lift passes over the maps the loader let through (zero decoder outputs).
      const std::size_t hw = std::size_t(mesh.uvRes) * std::size_t(mesh.uvRes);
      const auto texels = core::liftPass1(std::vector<float>(11 * hw, 0.0f), mesh.neutral, mesh, core::LiftScale{});
      core::SplatSink sink(hw);
      core::LiftPlacement placement;
      placement.slotCount = std::uint32_t(hw);
      core::liftPass2(texels, std::vector<float>(3 * hw, 0.5f), mesh.uvRes, placement, nullptr, sink);
    }
  return outcomeOf(bundle);
}

Outcome npyTable(std::span<const std::uint8_t> input) {
  return outcomeOf(core::parseNpyTable(input, "rig_params.npy"));
}

Outcome controlsJson(std::span<const std::uint8_t> input) {
  auto doc = core::parseJson(asText(input), "controls.json");
  if (!doc) return {false, doc.error().message};
  const core::AosRigPack& pack = tinyPack();
  auto controls = core::controlsFromJson(pack.headExt, *doc, "controls.json");
  if (controls) (void)core::gnmPose(pack, *controls);
  return outcomeOf(controls);
}

Outcome bodyPoseJson(std::span<const std::uint8_t> input) {
  auto doc = core::parseJson(asText(input), "body.json");
  if (!doc) return {false, doc.error().message};
  auto pose = core::bodyPoseFromJson(*doc, "body.json");
  if (pose) {  // its bones reach the rig as joint overrides, as the viewer and the CLI apply them
    const core::AosRigPack& pack = tinyPack();
    core::GnmJointState joints(pack);
    joints.setJointOverrides(pose->bones);
    (void)core::gnmPose(pack, std::vector<float>(std::size_t(pack.headExt.dim), 0.0f), &joints);
  }
  return outcomeOf(pose);
}

Outcome jointWorldsJson(std::span<const std::uint8_t> input) {
  auto doc = core::parseJson(asText(input), "worlds.json");
  if (!doc) return {false, doc.error().message};
  const core::AosRigPack& pack = tinyPack();
  auto flat = core::jointWorldsFromJson(*doc, pack.joints.size(), "worlds.json");
  if (flat) {
    core::GnmJointState joints(pack);
    if (joints.setJointWorlds(*flat)) (void)core::gnmPose(pack, {}, &joints);
  }
  return outcomeOf(flat);
}

Outcome orlOutputsJson(std::span<const std::uint8_t> input) {
  auto doc = core::parseJson(asText(input), "outputs.json");
  if (!doc) return {false, doc.error().message};
  auto outputs = core::orlOutputsFromJson(orlFixture(), *doc, "outputs.json");
  if (outputs) (void)core::orlDeform(orlFixture(), outputs->jointOut, outputs->bsOut);
  return outcomeOf(outputs);
}

Outcome ictFace(std::span<const std::uint8_t> input) {
  // names.json beside a 4-vertex, 2-triangle, 1-expression face.
  static const bool ready = [] {
    const std::vector<float> neutral{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0},
        deltas{0, 0, 0.1f, 0, 0, 0.1f, 0, 0, 0.1f, 0, 0, 0.1f};
    const std::vector<std::uint32_t> faces{0, 1, 2, 0, 2, 3};
    put("ict/neutral.f32", std::span(reinterpret_cast<const std::uint8_t*>(neutral.data()), neutral.size() * 4));
    put("ict/faces.u32", std::span(reinterpret_cast<const std::uint8_t*>(faces.data()), faces.size() * 4));
    put("ict/expressions.f32", std::span(reinterpret_cast<const std::uint8_t*>(deltas.data()), deltas.size() * 4));
    return true;
  }();
  (void)ready;
  put("ict/names.json", input);
  auto bake = samples::makeSampleCharacter(scratch() / "ict");
  return outcomeOf(bake);
}

}  // namespace riglens::fuzz
