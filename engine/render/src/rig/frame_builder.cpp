#include "riglens/render/rig/frame_builder.h"

#include <cmath>
#include <optional>
#include <utility>

#include "riglens/core/gltf/gltf_lights.h"
#include "riglens/core/rig/model_nodes.h"
#include "riglens/core/rig/scene_bounds.h"
#include "riglens/core/rig/skinning.h"

namespace riglens::render {

FrameState cameraFrameState(const core::OrbitCamera& camera, float aspect) {
  FrameState state;
  state.view = camera.view();
  state.projection = camera.projection(aspect);
  state.eye = camera.eye();
  return state;
}

FrameState buildFrameState(const core::LoadedRun& run, std::span<const glm::mat4> partWorlds,
                           const core::OrbitCamera& camera, float aspect, const ViewSettings& settings,
                           const core::GltfPose* gltfPose) {
  FrameState state = cameraFrameState(camera, aspect);
  static_cast<ViewSettings&>(state) = settings;
  state.partWorlds.assign(partWorlds.begin(), partWorlds.end());
  if (settings.tint == core::TintMode::Part) state.partTints = core::partTints(run.rig);
  if (settings.tint == core::TintMode::Joint) state.partTints = core::jointTints(run.rig);
  if (core::listsNodesAsParts(run)) {  // the settings' parts are the model's nodes
    state.highlightNode = std::exchange(state.highlightPart, -1);
    state.nodeHidden = std::exchange(state.partHidden, {});
    if (settings.tint == core::TintMode::Part) state.nodeTints = core::distinctColors(run.gltf.nodes.size());
  }
  // No clip playing: the file's rest pose, worked out once for the bones,
  // the morph weights and the lights alike.
  std::optional<core::GltfPose> rest;
  if (run.kind == core::RunKind::SkinnedMesh && run.skin) {
    if (!gltfPose && !run.gltf.nodes.empty()) gltfPose = &rest.emplace(core::gltfRestPose(run.gltf));
    state.bones = core::runBones(run, partWorlds, gltfPose);
    state.morphWeights = core::runMorphWeights(run, gltfPose);
    // The one skinned draw takes the tint of the root part.
    if (!state.partTints.empty()) state.partTints.resize(1);
  }
  if (!run.gltf.lights.empty()) {
    if (!gltfPose) gltfPose = &rest.emplace(core::gltfRestPose(run.gltf));
    state.lights = core::gltfPosedLights(run.gltf, *gltfPose);
  } else {
    state.lights = core::studioLights();
  }
  const core::Bounds bounds = core::posedBounds(run, partWorlds, state.bones, state.morphWeights);
  const float radius = bounds.radius();
  // A grid step of a power of two voxels, about a tenth of the model.
  state.gridStep = std::exp2(std::round(std::log2(std::max(radius / 5.0f, 0.25f))));
  state.gridCenter = glm::vec3(std::round(bounds.center().x / state.gridStep) * state.gridStep, 0.0f,
                               std::round(bounds.center().z / state.gridStep) * state.gridStep);
  state.gridExtent = state.gridStep * std::ceil(radius * 1.6f / state.gridStep);
  state.markerSize = radius * 0.05f;
  for (const auto& socket : core::socketPositions(run, partWorlds))
    state.sockets.push_back({socket.name, socket.position});
  return state;
}

}  // namespace riglens::render
