// The appearance decoder's view tensor (contract/DECODERS.md A5) and the
// camera-moved rule that decides when it is recomputed (A11).
#pragma once

#include <array>
#include <glm/vec3.hpp>
#include <vector>

namespace riglens::core {

// A camera in the character root's frame (the viewer's scene frame: the
// decoded character's root is the identity).
struct PluckerCamera {
  glm::vec3 position{0.0f};
  glm::vec3 forward{0, 0, -1}, right{1, 0, 0}, up{0, 1, 0};  // orthonormal
  float fovYDeg = 45.0f;
  float aspect = 1.0f;  // width / height
};

struct BundlePlacement {
  std::array<float, 4> rotation{1, 0, 0, 0};  // (w, x, y, z)
  glm::vec3 offset{0.0f};
  float scale = 1.0f;
  float momentScale = 0.0f;
};

// [6, 1, res, res] channel-major: moments (o x d) * momentScale, then d, for
// the texel centres of a res x res grid (top row first).
std::vector<float> pluckerRays(const PluckerCamera& camera, const BundlePlacement& placement, int res);

// A11: moved when a position axis changes by more than 2 mm, the orientation
// by |q . q_last| < 1 - 1e-4, or the field of view (or aspect) at all.
bool cameraMoved(const PluckerCamera& last, const PluckerCamera& now);

class OrbitCamera;
// The review camera as the decoders see it (its eye and view basis, its
// vertical field of view, the viewport's aspect).
PluckerCamera pluckerCamera(const OrbitCamera& camera, float aspect);

}  // namespace riglens::core
