// Bounds of a posed run (for framing the camera and sizing the grid), and
// where its sockets are (for markers).
#pragma once

#include <glm/mat4x4.hpp>
#include <span>
#include <string>
#include <vector>

#include "riglens/core/base/bounds.h"
#include "riglens/core/rig/run_loader.h"

namespace riglens::core {

// Every vertex of every part under its world matrix (skinned meshes: each
// bone's box of vertices, morphed by the morph weights and posed by the
// bones, as core::runBones and core::runMorphWeights pose them), plus each part's pivot, so a rig of sockets
// alone still has bounds.
Bounds posedBounds(const LoadedRun& run, std::span<const glm::mat4> partWorlds, const GltfPose* gltfPose = nullptr);
// The same with a skinned run's bones and morph weights already worked out
// (core::runBones, core::runMorphWeights): a frame that draws them does not
// pose them twice.
Bounds posedBounds(const LoadedRun& run, std::span<const glm::mat4> partWorlds, std::span<const glm::mat4> bones,
                   std::span<const float> morphWeights);

struct SocketPosition {
  std::string name;
  glm::vec3 position{0.0f};  // world: the part's world matrix applied to its pivot
};

// The parts without geometry, where a game hangs effects.
std::vector<SocketPosition> socketPositions(const LoadedRun& run, std::span<const glm::mat4> partWorlds);

}  // namespace riglens::core
