#include "riglens/core/base/point_transform.h"

#include <cassert>

namespace riglens::core {

void transformPoints(const glm::mat4& m, std::span<const glm::vec4> in, std::span<glm::vec4> out) {
  assert(in.size() == out.size());
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = m * in[i];
}

}  // namespace riglens::core
