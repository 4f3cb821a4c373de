#include "gnm_rows.h"

#include <cpuid.h>
#include <immintrin.h>

#include <array>

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

// AVX2, FMA and F16C, and an OS that saves the YMM registers, from CPUID
// (GCC's __builtin_cpu_supports knows "f16c", clang 14's does not).
bool hasF16c() {
  static const bool has = [] {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    const bool fma = c & (1u << 12), osxsave = c & (1u << 27), avx = c & (1u << 28), f16c = c & (1u << 29);
    if (!fma || !osxsave || !avx || !f16c) return false;
    unsigned xcr0 = 0, high = 0;
    __asm__("xgetbv" : "=a"(xcr0), "=d"(high) : "c"(0));
    if ((xcr0 & 6u) != 6u) return false;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    return (b & (1u << 5)) != 0;  // AVX2
  }();
  return has;
}

}  // namespace

void addExpressionRows(const std::uint16_t* basis, std::size_t rowLength, const float* scale3, std::size_t from,
                       std::size_t to, float* p) {
  if (hasF16c())
    rowsF16c(basis, rowLength, scale3, from, to, p);
  else
    rowsScalar(basis, rowLength, scale3, from, to, p);
}

void addScaledColumn(const std::uint16_t* column, float s, std::size_t n, float* p) {
  if (hasF16c()) return columnF16c(column, s, n, p);
  const auto& table = halfTable();
  for (std::size_t i = 0; i < n; ++i) p[i] += s * table[column[i]];
}

}  // namespace riglens::core
