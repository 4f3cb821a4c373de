// An axis-aligned box grown point by point: what a camera frames and what
// the renderer's bounding sphere is made from.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace riglens::core {

struct Bounds {
  glm::vec3 min{0.0f}, max{0.0f};
  bool empty = true;

  void include(const glm::vec3& p);
  glm::vec3 center() const { return (min + max) * 0.5f; }
  float radius() const;  // half the diagonal; 1 for empty bounds
  // The box around this one's eight corners under `m` (empty stays empty).
  Bounds transformed(const glm::mat4& m) const;
};

}  // namespace riglens::core
