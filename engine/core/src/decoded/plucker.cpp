#include "riglens/core/decoded/plucker.h"

#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include "riglens/core/view/orbit_camera.h"

namespace riglens::core {
namespace {

glm::quat orientation(const PluckerCamera& c) {
  return glm::quat_cast(glm::mat3(c.right, c.up, -c.forward));
}

// Rw^-1 v: the conjugate rotation.
glm::vec3 unrotate(const std::array<float, 4>& q, glm::vec3 v) {
  const glm::quat inverse(q[0], -q[1], -q[2], -q[3]);
  return inverse * v;
}

}  // namespace

std::vector<float> pluckerRays(const PluckerCamera& camera, const BundlePlacement& placement, int res) {
  // Into the trained frame: subtract, rotate, then scale (A5 step 2).
  const glm::vec3 o = unrotate(placement.rotation, camera.position - placement.offset) * (1.0f / placement.scale);
  const glm::vec3 f = unrotate(placement.rotation, camera.forward);
  const glm::vec3 r = unrotate(placement.rotation, camera.right);
  const glm::vec3 u = unrotate(placement.rotation, camera.up);
  const float t = std::tan(glm::radians(camera.fovYDeg) * 0.5f);
  const std::size_t hw = std::size_t(res) * std::size_t(res);
  std::vector<float> out(6 * hw);
  for (int y = 0; y < res; ++y)
    for (int x = 0; x < res; ++x) {
      const float nx = 2.0f * (float(x) + 0.5f) / float(res) - 1.0f;
      const float ny = 1.0f - 2.0f * (float(y) + 0.5f) / float(res);
      const glm::vec3 d = glm::normalize(f + r * (nx * t * camera.aspect) + u * (ny * t));
      const glm::vec3 m = glm::cross(o, d) * placement.momentScale;
      const std::size_t p = std::size_t(y) * std::size_t(res) + std::size_t(x);
      for (int c = 0; c < 3; ++c) {
        out[std::size_t(c) * hw + p] = m[c];
        out[std::size_t(3 + c) * hw + p] = d[c];
      }
    }
  return out;
}

PluckerCamera pluckerCamera(const OrbitCamera& camera, float aspect) {
  const glm::mat4 view = camera.view();
  PluckerCamera c;
  c.position = camera.eye();
  c.right = glm::normalize(glm::vec3(view[0][0], view[1][0], view[2][0]));
  c.up = glm::normalize(glm::vec3(view[0][1], view[1][1], view[2][1]));
  c.forward = -glm::normalize(glm::vec3(view[0][2], view[1][2], view[2][2]));
  c.fovYDeg = camera.fovDeg();
  c.aspect = aspect;
  return c;
}

bool cameraMoved(const PluckerCamera& last, const PluckerCamera& now) {
  for (int a = 0; a < 3; ++a)
    if (std::fabs(now.position[a] - last.position[a]) > 0.002f) return true;
  if (std::fabs(glm::dot(orientation(last), orientation(now))) < 1.0f - 1e-4f) return true;
  return now.fovYDeg != last.fovYDeg || now.aspect != last.aspect;
}

}  // namespace riglens::core
