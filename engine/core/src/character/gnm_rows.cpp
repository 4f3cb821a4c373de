#include "gnm_rows.h"

#include <immintrin.h>

#include <array>

#include "base/cpu_features.h"
#include "riglens/core/base/half_float.h"

namespace riglens::core {
namespace {

// fp16 -> f32 for every bit pattern: the scalar decode becomes a table load.
const std::array<float, 65536>& halfTable() {
  static const std::array<float, 65536> table = [] {
    std::array<float, 65536> t{};
    for (std::uint32_t i = 0; i < 65536; ++i) t[i] = halfToFloat(std::uint16_t(i));
    return t;
  }();
  return table;
}

void rowsScalar(const std::uint16_t* basis, std::size_t rowLength, const float* scale3, std::size_t from,
                std::size_t to, float* p) {
  const auto& table = halfTable();
  for (std::size_t v = from; v < to; ++v) {
    const std::uint16_t* row = basis + v * rowLength;
    float sum[3] = {0, 0, 0};
    for (std::size_t i = 0; i < rowLength; ++i) sum[i % 3] += scale3[i] * table[row[i]];
    for (int k = 0; k < 3; ++k) p[v * 3 + std::size_t(k)] += sum[k];
  }
}

// 24 values a step (the least multiple of 8 lanes and 3 components): lane j
// of the three accumulators holds component j % 3 of the step's values.
__attribute__((target("avx2,f16c,fma"))) void rowsF16c(const std::uint16_t* basis, std::size_t rowLength,
                                                       const float* scale3, std::size_t from, std::size_t to,
                                                       float* p) {
  const std::size_t whole = rowLength / 24 * 24;
  for (std::size_t v = from; v < to; ++v) {
    const std::uint16_t* row = basis + v * rowLength;
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps(), a2 = _mm256_setzero_ps();
    for (std::size_t i = 0; i < whole; i += 24) {
      const auto* h = reinterpret_cast<const __m128i*>(row + i);
      a0 = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128(h)), _mm256_loadu_ps(scale3 + i), a0);
      a1 = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128(h + 1)), _mm256_loadu_ps(scale3 + i + 8), a1);
      a2 = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128(h + 2)), _mm256_loadu_ps(scale3 + i + 16), a2);
    }
    alignas(32) float lanes[24];
    _mm256_store_ps(lanes, a0);
    _mm256_store_ps(lanes + 8, a1);
    _mm256_store_ps(lanes + 16, a2);
    float sum[3] = {0, 0, 0};
    for (int j = 0; j < 24; ++j) sum[j % 3] += lanes[j];
    for (std::size_t i = whole; i < rowLength; ++i) sum[i % 3] += scale3[i] * _cvtsh_ss(row[i]);
    for (int k = 0; k < 3; ++k) p[v * 3 + std::size_t(k)] += sum[k];
  }
}

__attribute__((target("avx2,f16c,fma"))) void columnF16c(const std::uint16_t* column, float s, std::size_t n,
                                                         float* p) {
  const __m256 scale = _mm256_set1_ps(s);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 h = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(column + i)));
    _mm256_storeu_ps(p + i, _mm256_fmadd_ps(h, scale, _mm256_loadu_ps(p + i)));
  }
  for (; i < n; ++i) p[i] += s * _cvtsh_ss(column[i]);
}

}  // namespace

void addExpressionRows(const std::uint16_t* basis, std::size_t rowLength, const float* scale3, std::size_t from,
                       std::size_t to, float* p) {
  if (cpuHasAvx2FmaF16c())
    rowsF16c(basis, rowLength, scale3, from, to, p);
  else
    rowsScalar(basis, rowLength, scale3, from, to, p);
}

void addScaledColumn(const std::uint16_t* column, float s, std::size_t n, float* p) {
  if (cpuHasAvx2FmaF16c()) return columnF16c(column, s, n, p);
  const auto& table = halfTable();
  for (std::size_t i = 0; i < n; ++i) p[i] += s * table[column[i]];
}

}  // namespace riglens::core
