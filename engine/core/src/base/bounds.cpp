#include "riglens/core/base/bounds.h"

#include <algorithm>
#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace riglens::core {

void Bounds::include(const glm::vec3& p) {
  if (empty) {
    min = max = p;
    empty = false;
    return;
  }
  min = glm::min(min, p);
  max = glm::max(max, p);
}

float Bounds::radius() const {
  return empty ? 1.0f : std::max(0.5f * glm::length(max - min), 1e-3f);
}

Bounds Bounds::transformed(const glm::mat4& m) const {
  Bounds out;
  if (empty) return out;
  for (int corner = 0; corner < 8; ++corner) {
    const glm::vec3 p((corner & 1) ? max.x : min.x, (corner & 2) ? max.y : min.y, (corner & 4) ? max.z : min.z);
    out.include(glm::vec3(m * glm::vec4(p, 1.0f)));
  }
  return out;
}

}  // namespace riglens::core
