#include "riglens/core/splats/splat_orientation.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace riglens::core {

SplatUp defaultSplatUp(const GaussianCloud& cloud) {
  return cloud.declaredUp.value_or(SplatUp::MinusY);
}

SplatUp flippedUp(SplatUp up) {
  return up == SplatUp::PlusY ? SplatUp::MinusY : SplatUp::PlusY;
}

const char* splatUpName(SplatUp up) {
  return up == SplatUp::PlusY ? "+y" : "-y";
}

std::optional<SplatUp> parseSplatUp(std::string_view text) {
  if (text == "+y" || text == "y") return SplatUp::PlusY;
  if (text == "-y") return SplatUp::MinusY;
  return std::nullopt;
}

glm::mat4 splatToWorld(SplatUp up) {
  glm::mat4 m(1.0f);
  if (up == SplatUp::MinusY) m[0][0] = m[1][1] = -1.0f;
  return m;
}

Bounds denseCloudBounds(const GaussianCloud& cloud) {
  if (cloud.count < kFramingQuantileMinimum) return cloudBounds(cloud);
  Bounds box;
  const auto cut = std::size_t(std::floor(double(cloud.count - 1) * kFramingOutlierShare));
  std::vector<float> axis(cloud.count);
  glm::vec3 lo, hi;
  for (int c = 0; c < 3; ++c) {
    for (std::size_t i = 0; i < cloud.count; ++i) axis[i] = cloud.positions[i * 3 + std::size_t(c)];
    std::nth_element(axis.begin(), axis.begin() + std::ptrdiff_t(cut), axis.end());
    lo[c] = axis[cut];
    const std::size_t top = cloud.count - 1 - cut;
    std::nth_element(axis.begin(), axis.begin() + std::ptrdiff_t(top), axis.end());
    hi[c] = axis[top];
  }
  box.include(lo);
  box.include(hi);
  return box;
}

}  // namespace riglens::core
