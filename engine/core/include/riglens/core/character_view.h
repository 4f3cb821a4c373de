// Viewer support for splat characters (contract/CHARACTER.md sections 5, 6):
// per-vertex tints packed like pack4x8unorm, the sink's slot allocator, the
// fit transform, the 96-byte debug-lift uniform and the debug lift on the CPU
// (the reference for the GPU lift).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "riglens/core/expected.h"

namespace riglens::core {

// Clamped to [0,1]; r in the low byte: packRgba(1,0,0,1) == 0xff0000ff.
std::uint32_t packRgba(float r, float g, float b, float a = 1.0f);
std::array<float, 4> unpackRgba(std::uint32_t packed);

// joint: the heaviest influence's palette colour blended toward grey 0.45 by
// (1 - weight); cyan when either eye weight > 0.5. eyeWeights is (2, V).
std::vector<std::uint32_t> jointTint(std::span<const std::uint16_t> skinIndex, std::span<const float> skinWeight,
                                     std::span<const float> eyeWeights, std::size_t vertexCount);
// uv: (u, v, 0.55); no uv: every vertex the same colour.
std::vector<std::uint32_t> uvTint(std::span<const float> uv, std::size_t vertexCount);
// height: t = (y - ymin)/(ymax - ymin) (0.5 when flat); (0.25+0.7t, 0.4+0.35 sin(pi t), 0.95-0.6t).
std::vector<std::uint32_t> heightTint(std::span<const float> positions);
std::vector<std::uint32_t> flatTint(std::size_t vertexCount, glm::vec3 color = {0.85f, 0.85f, 0.9f});

// Deterministic first-fit over [0, capacity): allocate carves from the front
// of the first free block that fits and fails when nothing fits; release
// fails on a range outside the capacity or overlapping a free block (a
// double release), then coalesces neighbours.
class SlotAllocator {
 public:
  struct Block {
    std::uint32_t offset = 0, count = 0;
    bool operator==(const Block&) const = default;
  };
  explicit SlotAllocator(std::uint32_t capacity);
  Expected<std::uint32_t> allocate(std::uint32_t count);
  Expected<void> release(std::uint32_t offset, std::uint32_t count);
  std::uint32_t available() const;
  std::vector<Block> blocks() const { return m_free; }  // a copy, ascending offsets
  std::uint32_t capacity() const { return m_capacity; }

 private:
  std::uint32_t m_capacity;
  std::vector<Block> m_free;
};

struct FitTransform {
  std::array<float, 12> rows{};  // 3x4 row-major rig -> object affine
  float scale = 1.0f;
  glm::vec3 centroid{0.0f};      // object space
};

// Centres the neutral's bounds and scales them to a height of 0.35 m (or
// `scale`), then places them at `offset`.
FitTransform fitVertsTransform(std::span<const float> neutral, std::optional<float> scale = std::nullopt,
                               glm::vec3 offset = glm::vec3(0.0f));

enum class LiftShading : std::uint32_t { Tint = 0, Normal = 1, Flat = 2 };

struct DebugLiftParams {
  std::uint32_t vertexCount = 0, slotOffset = 0, slotCount = 0;
  LiftShading shading = LiftShading::Tint;
  std::array<float, 12> affine{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};  // rows @16, @32, @48
  float sigma = 0.002f;   // metres
  float opacity = 1.0f;
  glm::vec3 centroid{0.0f};  // @80 (w = 1)
};
inline constexpr std::size_t kDebugLiftParamsSize = 96;
inline constexpr std::uint32_t kDebugLiftWorkgroup = 64;

// The exact 96 bytes of the uniform (little-endian).
std::array<std::uint8_t, kDebugLiftParamsSize> writeDebugLiftParams(const DebugLiftParams& params);

// The splat sink's four arrays, indexed by absolute slot (52 bytes a gaussian).
struct SplatSink {
  std::vector<float> center;       // 4 per slot: xyz, 1
  std::vector<float> covarianceA;  // 4 per slot: c00, c01, c02, c11
  std::vector<float> covarianceB;  // 4 per slot: c12, c22, 0, 0
  std::vector<std::uint32_t> color;  // pack4x8unorm(r, g, b, opacity); 0 = invisible
  explicit SplatSink(std::size_t capacity)
      : center(capacity * 4, 0.0f), covarianceA(capacity * 4, 0.0f), covarianceB(capacity * 4, 0.0f), color(capacity, 0u) {}
  std::size_t capacity() const { return color.size(); }
};

// The debug lift on the CPU: for every slot s < slotCount, slot
// slotOffset + s gets the vertex's centre (M p, 1), isotropic covariance
// sigma^2 and its colour; slots past the vertex count, and vertices that are
// not finite, are cleared (centre (0,0,0,1), zero covariance, colour 0).
void debugLiftCpu(const DebugLiftParams& params, std::span<const float> positions, std::span<const std::uint32_t> tints,
                  SplatSink& sink);

}  // namespace riglens::core
