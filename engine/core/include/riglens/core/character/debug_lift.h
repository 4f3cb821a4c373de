// The debug lift (contract/CHARACTER.md section 5): the fit transform, the
// 96-byte debug-lift uniform and the debug lift on the CPU into a splat sink
// (splats/splat_sink.h; the reference for the GPU lift, shaders/lift.comp).
#pragma once

#include <array>
#include <cstdint>
#include <glm/vec3.hpp>
#include <optional>
#include <span>
#include <vector>

#include "riglens/core/splats/splat_sink.h"

namespace riglens::core {

struct FitTransform {
  std::array<float, 12> rows{};  // 3x4 row-major rig -> object affine
  float scale = 1.0f;
  glm::vec3 centroid{0.0f};  // object space
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
  float sigma = 0.002f;                                              // metres
  float opacity = 1.0f;
  glm::vec3 centroid{0.0f};  // @80 (w = 1)
};
inline constexpr std::size_t kDebugLiftParamsSize = 96;
inline constexpr std::uint32_t kDebugLiftWorkgroup = 64;

// The exact 96 bytes of the uniform (little-endian).
std::array<std::uint8_t, kDebugLiftParamsSize> writeDebugLiftParams(const DebugLiftParams& params);

// The debug lift on the CPU: for every slot s < slotCount, slot
// slotOffset + s gets the vertex's centre (M p, 1), isotropic covariance
// sigma^2 and its colour; slots past the vertex count, and vertices that are
// not finite, are cleared (centre (0,0,0,1), zero covariance, colour 0).
void debugLiftCpu(const DebugLiftParams& params, std::span<const float> positions, std::span<const std::uint32_t> tints,
                  SplatSink& sink);

}  // namespace riglens::core
