// The dense GNM expression: every vertex row of the fp16 basis read once,
// p[v*3 + k] += sum_c scale3[c*3 + k] * basis[v][c][k] (scale3: a
// coefficient's scale repeated for x, y and z; zero for an idle one). With
// AVX2, F16C and FMA (checked at run time) eight basis values are decoded
// and multiplied at a time; otherwise each goes through a 64K-entry table.
// Private to engine/core.
#pragma once

#include <cstddef>
#include <cstdint>

namespace riglens::core {

void addExpressionRows(const std::uint16_t* basis, std::size_t rowLength, const float* scale3, std::size_t from,
                       std::size_t to, float* p);

// p[i] += s * column[i] for i < n: one coefficient's contiguous values
// (coefficient-major basis), the sparse frame's step.
void addScaledColumn(const std::uint16_t* column, float s, std::size_t n, float* p);

}  // namespace riglens::core
