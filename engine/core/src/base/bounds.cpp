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

}  // namespace riglens::core
