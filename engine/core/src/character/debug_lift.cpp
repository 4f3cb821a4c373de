#include "riglens/core/character/debug_lift.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <numbers>

#include "riglens/core/base/color.h"

namespace riglens::core {

FitTransform fitVertsTransform(std::span<const float> p, std::optional<float> scale, glm::vec3 offset) {
  glm::vec3 lo(INFINITY), hi(-INFINITY);
  for (std::size_t v = 0; v + 2 < p.size(); v += 3) {
    lo = glm::min(lo, glm::vec3(p[v], p[v + 1], p[v + 2]));
    hi = glm::max(hi, glm::vec3(p[v], p[v + 1], p[v + 2]));
  }
  if (p.size() < 3) lo = hi = glm::vec3(0.0f);
  const glm::vec3 centre = (lo + hi) * 0.5f;
  const float height = hi.y - lo.y;
  FitTransform fit;
  fit.scale = scale ? *scale : (height > 1e-9f ? 0.35f / height : 1.0f);
  // object = scale * (p - centre) + offset
  fit.rows = {fit.scale, 0,         0,         offset.x - fit.scale * centre.x,
              0,         fit.scale, 0,         offset.y - fit.scale * centre.y,
              0,         0,         fit.scale, offset.z - fit.scale * centre.z};
  fit.centroid = offset;
  return fit;
}

std::array<std::uint8_t, kDebugLiftParamsSize> writeDebugLiftParams(const DebugLiftParams& p) {
  std::array<std::uint8_t, kDebugLiftParamsSize> out{};
  const auto put = [&out](std::size_t at, const void* data, std::size_t n) { std::memcpy(out.data() + at, data, n); };
  const std::uint32_t shading = static_cast<std::uint32_t>(p.shading);
  put(0, &p.vertexCount, 4);
  put(4, &p.slotOffset, 4);
  put(8, &p.slotCount, 4);
  put(12, &shading, 4);
  put(16, p.affine.data(), 16);
  put(32, p.affine.data() + 4, 16);
  put(48, p.affine.data() + 8, 16);
  put(64, &p.sigma, 4);
  put(68, &p.opacity, 4);
  const float centroid[4] = {p.centroid.x, p.centroid.y, p.centroid.z, 1.0f};
  put(80, centroid, 16);
  return out;
}

void debugLiftCpu(const DebugLiftParams& params, std::span<const float> positions, std::span<const std::uint32_t> tints,
                  SplatSink& sink) {
  const auto& m = params.affine;
  const float s2 = params.sigma * params.sigma;
  for (std::uint32_t s = 0; s < params.slotCount; ++s) {
    const std::size_t slot = std::size_t(params.slotOffset) + s;
    if (slot >= sink.capacity()) break;
    float* c = &sink.center[slot * 4];
    float* a = &sink.covarianceA[slot * 4];
    float* b = &sink.covarianceB[slot * 4];
    const bool inside = s < params.vertexCount && std::size_t(s) * 3 + 2 < positions.size();
    const glm::vec3 p =
        inside ? glm::vec3(positions[s * 3], positions[s * 3 + 1], positions[s * 3 + 2]) : glm::vec3(0.0f);
    if (!inside || !std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
      c[0] = c[1] = c[2] = 0.0f;
      c[3] = 1.0f;
      std::fill(a, a + 4, 0.0f);
      std::fill(b, b + 4, 0.0f);
      sink.color[slot] = 0;
      continue;
    }
    const glm::vec3 o(m[0] * p.x + m[1] * p.y + m[2] * p.z + m[3], m[4] * p.x + m[5] * p.y + m[6] * p.z + m[7],
                      m[8] * p.x + m[9] * p.y + m[10] * p.z + m[11]);
    c[0] = o.x;
    c[1] = o.y;
    c[2] = o.z;
    c[3] = 1.0f;
    a[0] = s2;
    a[1] = 0;
    a[2] = 0;
    a[3] = s2;
    b[0] = 0;
    b[1] = s2;
    b[2] = 0;
    b[3] = 0;
    glm::vec3 rgb(0.85f, 0.85f, 0.9f);
    if (params.shading == LiftShading::Tint && s < tints.size()) {
      const auto t = unpackRgba(tints[s]);
      rgb = {t[0], t[1], t[2]};
    } else if (params.shading == LiftShading::Normal) {
      const glm::vec3 d = o - params.centroid;
      const float len = glm::length(d);
      rgb = 0.5f + 0.5f * (len > 0 ? d / len : glm::vec3(0.0f));
    }
    sink.color[slot] = packRgba(rgb.x, rgb.y, rgb.z, params.opacity);
  }
}

}  // namespace riglens::core
