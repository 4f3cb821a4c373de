#include "riglens/core/character_view.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace riglens::core {

std::uint32_t packRgba(float r, float g, float b, float a) {
  const auto q = [](float v) { return std::uint32_t(std::lround(std::clamp(std::isnan(v) ? 0.0f : v, 0.0f, 1.0f) * 255.0f)); };
  return q(r) | q(g) << 8 | q(b) << 16 | q(a) << 24;
}

std::array<float, 4> unpackRgba(std::uint32_t p) {
  return {float(p & 0xffu) / 255.0f, float((p >> 8) & 0xffu) / 255.0f, float((p >> 16) & 0xffu) / 255.0f,
          float((p >> 24) & 0xffu) / 255.0f};
}

std::vector<std::uint32_t> jointTint(std::span<const std::uint16_t> skinIndex, std::span<const float> skinWeight,
                                     std::span<const float> eyeWeights, std::size_t V) {
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
    int best = 0;
    for (int i = 1; i < 4; ++i)
      if (skinWeight[v * 4 + std::size_t(i)] > skinWeight[v * 4 + std::size_t(best)]) best = i;
    const float w = skinWeight[v * 4 + std::size_t(best)];
    const float* c = kPalette[skinIndex[v * 4 + std::size_t(best)] % 8];
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

std::vector<std::uint32_t> flatTint(std::size_t V, glm::vec3 c) { return std::vector<std::uint32_t>(V, packRgba(c.x, c.y, c.z)); }

// ------------------------------------------------------------------ slots
SlotAllocator::SlotAllocator(std::uint32_t capacity) : m_capacity(capacity) {
  if (capacity) m_free.push_back({0, capacity});
}

Expected<std::uint32_t> SlotAllocator::allocate(std::uint32_t count) {
  if (count == 0) return makeError(ErrorCode::Usage, "allocate: count must be positive");
  for (auto it = m_free.begin(); it != m_free.end(); ++it) {
    if (it->count < count) continue;
    const std::uint32_t offset = it->offset;
    it->offset += count;
    it->count -= count;
    if (it->count == 0) m_free.erase(it);
    return offset;
  }
  return makeError(ErrorCode::Usage, "allocate: no free block of " + std::to_string(count) + " slots (" +
                                         std::to_string(available()) + " free of " + std::to_string(m_capacity) + ")");
}

Expected<void> SlotAllocator::release(std::uint32_t offset, std::uint32_t count) {
  if (count == 0 || std::uint64_t(offset) + count > m_capacity)
    return makeError(ErrorCode::Usage, "release: [" + std::to_string(offset) + ", " + std::to_string(std::uint64_t(offset) + count) +
                                           ") is outside the capacity " + std::to_string(m_capacity));
  for (const Block& b : m_free)
    if (offset < b.offset + b.count && b.offset < offset + count)
      return makeError(ErrorCode::Usage, "release: [" + std::to_string(offset) + ", " + std::to_string(offset + count) +
                                             ") overlaps a free block (double release)");
  auto at = std::lower_bound(m_free.begin(), m_free.end(), offset, [](const Block& b, std::uint32_t o) { return b.offset < o; });
  at = m_free.insert(at, {offset, count});
  if (auto next = std::next(at); next != m_free.end() && at->offset + at->count == next->offset) {
    at->count += next->count;
    m_free.erase(next);
  }
  if (at != m_free.begin()) {
    auto prev = std::prev(at);
    if (prev->offset + prev->count == at->offset) {
      prev->count += at->count;
      m_free.erase(at);
    }
  }
  return {};
}

std::uint32_t SlotAllocator::available() const {
  std::uint32_t n = 0;
  for (const Block& b : m_free) n += b.count;
  return n;
}

// ------------------------------------------------------------------ fit, lift
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
  fit.rows = {fit.scale, 0, 0, offset.x - fit.scale * centre.x, 0, fit.scale, 0, offset.y - fit.scale * centre.y,
              0, 0, fit.scale, offset.z - fit.scale * centre.z};
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

void debugLiftCpu(const DebugLiftParams& params, std::span<const float> positions, std::span<const std::uint32_t> tints, SplatSink& sink) {
  const auto& m = params.affine;
  const float s2 = params.sigma * params.sigma;
  for (std::uint32_t s = 0; s < params.slotCount; ++s) {
    const std::size_t slot = std::size_t(params.slotOffset) + s;
    if (slot >= sink.capacity()) break;
    float* c = &sink.center[slot * 4];
    float* a = &sink.covarianceA[slot * 4];
    float* b = &sink.covarianceB[slot * 4];
    const bool inside = s < params.vertexCount && std::size_t(s) * 3 + 2 < positions.size();
    const glm::vec3 p = inside ? glm::vec3(positions[s * 3], positions[s * 3 + 1], positions[s * 3 + 2]) : glm::vec3(0.0f);
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
    a[0] = s2; a[1] = 0; a[2] = 0; a[3] = s2;
    b[0] = 0; b[1] = s2; b[2] = 0; b[3] = 0;
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
