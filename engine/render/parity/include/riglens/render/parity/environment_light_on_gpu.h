// The PBR look's image-based light made on the GPU from an environment map
// (GpuEnvironment: env_prefilter, env_irradiance, env_brdf_lut.comp), run
// once and read back: the environment test compares each map with a
// brute-force integral computed on the CPU; the benchmark times the passes.
#pragma once

#include <glm/vec4.hpp>
#include <memory>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/view/environment.h"
#include "riglens/render/device/rhi_device.h"

namespace riglens::render {

// One map level read back: RGBA floats, row 0 at the top (as the map).
struct LightMapLevel {
  int width = 0, height = 0;
  std::vector<float> rgba;
  glm::vec4 at(int x, int y) const {
    const float* p = &rgba[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4];
    return {p[0], p[1], p[2], p[3]};
  }
};

struct EnvironmentLightMaps {
  std::vector<LightMapLevel> prefiltered;  // level k: GGX roughness k / (levels - 1)
  LightMapLevel irradiance;                // E / pi per normal
  LightMapLevel brdfLut;                   // x: n.v, y: roughness (texel centres); r: A, g: B
};

core::Expected<EnvironmentLightMaps> environmentLightOnGpu(RhiDevice& device,
                                                           std::shared_ptr<const core::EnvironmentMap> map);

}  // namespace riglens::render
