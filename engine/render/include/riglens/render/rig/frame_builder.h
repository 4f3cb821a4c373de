// Building a FrameState from a loaded run, its current part worlds and the
// camera: QA tints for the mode, bone matrices of a skinned mesh, socket
// markers, a grid sized to the model. Shared by the app, the CLI and tests.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>
#include <span>
#include <vector>

#include "riglens/core/rig/rig_tints.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/core/view/orbit_camera.h"
#include "riglens/render/device/frame_state.h"

namespace riglens::render {

// The camera's part of a frame alone (view, projection, eye): what splat
// scenes and characters need.
FrameState cameraFrameState(const core::OrbitCamera& camera, float aspect);

// A model's frame: its parts at `partWorlds`; a skinned model's own glTF
// joints at `gltfPose` (RigController::gltfPose: a clip playing; null: the
// file's rest pose).
FrameState buildFrameState(const core::LoadedRun& run, std::span<const glm::mat4> partWorlds,
                           const core::OrbitCamera& camera, float aspect, const ViewSettings& settings,
                           const core::GltfPose* gltfPose = nullptr);

}  // namespace riglens::render
