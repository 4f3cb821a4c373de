#include "riglens/core/character/vertex_tints.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "riglens/core/base/color.h"

namespace riglens::core {

std::vector<std::uint32_t> jointTint(std::span<const std::uint16_t> skinIndex, std::span<const float> skinWeight,
                                     std::span<const float> eyeWeights, std::size_t V, std::size_t I) {
  static constexpr float kPalette[8][3] = {{0.85f, 0.55f, 0.35f}, {0.4f, 0.7f, 0.95f},  {0.55f, 0.85f, 0.5f},
                                           {0.9f, 0.45f, 0.65f},  {0.95f, 0.85f, 0.4f}, {0.6f, 0.5f, 0.9f},
                                           {0.4f, 0.85f, 0.8f},   {0.92f, 0.78f, 0.66f}};
  std::vector<std::uint32_t> out(V);
  for (std::size_t v = 0; v < V; ++v) {
    const bool eye = eyeWeights.size() >= 2 * V && (eyeWeights[v] > 0.5f || eyeWeights[V + v] > 0.5f);
    if (eye) {
      out[v] = packRgba(0.25f, 0.95f, 1.0f);
      continue;
    }
    std::size_t best = 0;
    for (std::size_t i = 1; i < I; ++i)
      if (skinWeight[v * I + i] > skinWeight[v * I + best]) best = i;
    const float w = skinWeight[v * I + best];
    const float* c = kPalette[skinIndex[v * I + best] % 8];
    const auto blend = [w](float x) { return x * w + 0.45f * (1.0f - w); };
    out[v] = packRgba(blend(c[0]), blend(c[1]), blend(c[2]));
  }
  return out;
}

std::vector<std::uint32_t> uvTint(std::span<const float> uv, std::size_t V) {
  std::vector<std::uint32_t> out(V, packRgba(0.0f, 0.0f, 0.55f));
  if (uv.size() >= V * 2)
    for (std::size_t v = 0; v < V; ++v) out[v] = packRgba(uv[v * 2], uv[v * 2 + 1], 0.55f);
  return out;
}

std::vector<std::uint32_t> heightTint(std::span<const float> p) {
  const std::size_t V = p.size() / 3;
  float lo = INFINITY, hi = -INFINITY;
  for (std::size_t v = 0; v < V; ++v) {
    lo = std::min(lo, p[v * 3 + 1]);
    hi = std::max(hi, p[v * 3 + 1]);
  }
  std::vector<std::uint32_t> out(V);
  for (std::size_t v = 0; v < V; ++v) {
    const float t = (hi - lo) > 1e-9f ? (p[v * 3 + 1] - lo) / (hi - lo) : 0.5f;
    out[v] = packRgba(0.25f + 0.7f * t, 0.4f + 0.35f * std::sin(float(std::numbers::pi) * t), 0.95f - 0.6f * t);
  }
  return out;
}

std::vector<std::uint32_t> flatTint(std::size_t V, glm::vec3 c) {
  return std::vector<std::uint32_t>(V, packRgba(c.x, c.y, c.z));
}

}  // namespace riglens::core
