#include "splats/splat_blend_row.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "base/cpu_features.h"

#if defined(__x86_64__)
#include <immintrin.h>
// glibc's libmvec (libc6): expf on 8 lanes, the AVX2 variant of its vector ABI.
extern "C" __m256 _ZGVdN8v_expf(__m256 x);
#endif

namespace riglens::core {

namespace {
constexpr float kClosed = 1e-4f;  // splat_raster.comp: a pixel stops taking splats below this transmittance
}

std::uint32_t blendRowPortable(const Footprint& s, float dy, float rowTerm, int x0, std::uint32_t open,
                               const TileRow& row) {
  std::uint32_t closed = 0;
  for (std::uint32_t bits = open; bits != 0; bits &= bits - 1) {
    const int x = std::countr_zero(bits);
    const float dx = float(x0 + x) + 0.5f - s.px;
    const float power = -0.5f * s.a * dx * dx + rowTerm - s.b * dx * dy;
    if (!(power <= 0.0f)) continue;  // above the peak, or not a number: no contribution
    const float alpha = std::min(0.99f, s.opacity * std::exp(power));
    if (alpha < kSplatMinAlpha) continue;
    const float t = row.transmittance[x];
    const float weight = alpha * t;
    row.r[x] += s.rgb[0] * weight;
    row.g[x] += s.rgb[1] * weight;
    row.b[x] += s.rgb[2] * weight;
    const float after = t * (1.0f - alpha);
    if (t == 1.0f || (t > 0.5f && after <= 0.5f)) row.depth[x] = s.ndcDepth;  // the splat that makes it half opaque
    row.transmittance[x] = after;
    if (after < kClosed) closed |= 1u << x;
  }
  return closed;
}

#if defined(__x86_64__)
namespace {

// blendRowPortable, 8 pixels a step: the same products in the same order,
// each lane kept or left by a mask where the portable loop skips a pixel.
__attribute__((target("avx2"))) std::uint32_t blendRowAvx2(const Footprint& s, float dy, float rowTerm, int x0,
                                                           std::uint32_t open, const TileRow& row) {
  static_assert(kSplatTilePixels % 8 == 0, "whole steps of 8 pixels");
  const __m256 lane = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i laneBit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  const __m256 halfA = _mm256_set1_ps(-0.5f * s.a), b = _mm256_set1_ps(s.b), dyv = _mm256_set1_ps(dy);
  const __m256 one = _mm256_set1_ps(1.0f), half = _mm256_set1_ps(0.5f), zero = _mm256_setzero_ps();
  std::uint32_t closed = 0;
  for (int step = 0; step < kSplatTilePixels; step += 8) {
    const std::uint32_t bits = (open >> step) & 0xffu;
    if (bits == 0) continue;
    const __m256i has = _mm256_and_si256(_mm256_set1_epi32(int(bits)), laneBit);
    __m256 take = _mm256_castsi256_ps(_mm256_cmpeq_epi32(has, laneBit));
    const __m256 dx =
        _mm256_sub_ps(_mm256_add_ps(_mm256_add_ps(_mm256_set1_ps(float(x0 + step)), lane), half), _mm256_set1_ps(s.px));
    const __m256 power =
        _mm256_sub_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(halfA, dx), dx), _mm256_set1_ps(rowTerm)),
                      _mm256_mul_ps(_mm256_mul_ps(b, dx), dyv));
    take = _mm256_and_ps(take, _mm256_cmp_ps(power, zero, _CMP_LE_OQ));
    if (_mm256_movemask_ps(take) == 0) continue;
    // Lanes not taken may hold any power (NaN, overflow): their results are dropped.
    const __m256 alpha =
        _mm256_min_ps(_mm256_mul_ps(_mm256_set1_ps(s.opacity), _ZGVdN8v_expf(power)), _mm256_set1_ps(0.99f));
    take = _mm256_and_ps(take, _mm256_cmp_ps(alpha, _mm256_set1_ps(kSplatMinAlpha), _CMP_GE_OQ));
    const int taken = _mm256_movemask_ps(take);
    if (taken == 0) continue;
    float* const tp = row.transmittance + step;
    const __m256 t = _mm256_loadu_ps(tp);
    const __m256 weight = _mm256_mul_ps(alpha, t);
    float* const channels[3] = {row.r, row.g, row.b};
    for (int k = 0; k < 3; ++k) {  // not a lambda: it would not inherit the target
      float* const channel = channels[k] + step;
      const __m256 c = _mm256_loadu_ps(channel);
      _mm256_storeu_ps(channel,
                       _mm256_blendv_ps(c, _mm256_add_ps(c, _mm256_mul_ps(_mm256_set1_ps(s.rgb[k]), weight)), take));
    }
    const __m256 after = _mm256_mul_ps(t, _mm256_sub_ps(one, alpha));
    const __m256 halfOpaque =
        _mm256_or_ps(_mm256_cmp_ps(t, one, _CMP_EQ_OQ),
                     _mm256_and_ps(_mm256_cmp_ps(t, half, _CMP_GT_OQ), _mm256_cmp_ps(after, half, _CMP_LE_OQ)));
    float* const dp = row.depth + step;
    _mm256_storeu_ps(
        dp, _mm256_blendv_ps(_mm256_loadu_ps(dp), _mm256_set1_ps(s.ndcDepth), _mm256_and_ps(take, halfOpaque)));
    _mm256_storeu_ps(tp, _mm256_blendv_ps(t, after, take));
    const __m256 shut = _mm256_and_ps(take, _mm256_cmp_ps(after, _mm256_set1_ps(kClosed), _CMP_LT_OQ));
    closed |= std::uint32_t(_mm256_movemask_ps(shut)) << step;
  }
  return closed;
}

}  // namespace
#endif

BlendRow blendRowForThisCpu() {
#if defined(__x86_64__)
  if (cpuHasAvx2FmaF16c()) return blendRowAvx2;
#endif
  return blendRowPortable;
}

}  // namespace riglens::core
