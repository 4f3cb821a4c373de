#include "riglens/core/base/color.h"

#include <algorithm>
#include <cmath>

namespace riglens::core {

std::uint32_t packRgba(float r, float g, float b, float a) {
  const auto q = [](float v) {
    return std::uint32_t(std::lround(std::clamp(std::isnan(v) ? 0.0f : v, 0.0f, 1.0f) * 255.0f));
  };
  return q(r) | q(g) << 8 | q(b) << 16 | q(a) << 24;
}

std::array<float, 4> unpackRgba(std::uint32_t p) {
  return {float(p & 0xffu) / 255.0f, float((p >> 8) & 0xffu) / 255.0f, float((p >> 16) & 0xffu) / 255.0f,
          float((p >> 24) & 0xffu) / 255.0f};
}

}  // namespace riglens::core
