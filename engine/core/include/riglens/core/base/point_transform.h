// Transforming points by a column-major 4x4 matrix.
//
// This is the CPU reference of shaders/transform_points.comp (habit: every GPU
// kernel has a CPU reference in core and a parity test). Points are stored as
// vec4 with w = 1 because that is the std430 array stride the shader reads.
#pragma once

#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>
#include <span>

namespace riglens::core {

// out[i] = m * in[i]. `in` and `out` have the same size (asserted); they may be
// the same span. Units are whatever `m` maps between (voxels for rigs).
void transformPoints(const glm::mat4& m, std::span<const glm::vec4> in, std::span<glm::vec4> out);

}  // namespace riglens::core
