// The GPU side of core::transformPoints (shaders/transform_points.comp).
// One dispatch, read back synchronously: for parity tests and the CLI, not
// for per-frame work.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>
#include <span>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/render/device/rhi_device.h"

namespace riglens::render {

// out[i] = m * in[i], computed by a compute shader on `device` and read back.
// Fails when the device has no compute support or a GPU step fails.
core::Expected<std::vector<glm::vec4>> transformPointsOnGpu(RhiDevice& device, const glm::mat4& m,
                                                            std::span<const glm::vec4> in);

}  // namespace riglens::render
