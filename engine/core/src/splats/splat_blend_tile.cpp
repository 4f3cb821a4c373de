#include "splats/splat_blend_tile.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>

#include "base/cpu_features.h"

#if defined(__x86_64__)
#include <immintrin.h>
// glibc's libmvec (libc6): expf on 8 lanes, the AVX2 variant of its vector ABI.
extern "C" __attribute__((target("avx2"))) __m256 _ZGVdN8v_expf(__m256 x);
#endif

namespace riglens::core {

namespace {

constexpr float kClosed = 1e-4f;           // splat_raster.comp: a pixel stops taking splats below this transmittance
constexpr std::size_t kPrefetchAhead = 4;  // splats ahead: measured 2..8 alike on an EPYC VM

// One row of a tile's running sums (kSplatTilePixels floats each).
struct TileRow {
  float* transmittance;
  float* depth;
  float* r;
  float* g;
  float* b;
};

// Blends `s` into the pixels of `row` whose bits are set in `open` (bit x:
// pixel x of the row, which starts at image column x0; dy the row's offset
// from the splat's centre along the clip space's y, rowTerm -c dy^2 / 2).
// Returns the bits of the pixels whose transmittance fell below kClosed.
inline std::uint32_t blendRowPortable(const Footprint& s, float dy, float rowTerm, int x0, std::uint32_t open,
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

// Where each row of a tile can reach 1/255 (first..last pixel of the row;
// first > last: nowhere), and the row's dy, for rows [from, to] of the tile.
struct RowSpans {
  float dy[kSplatTilePixels];
  int first[kSplatTilePixels], last[kSplatTilePixels];
};

// Row y's span: power >= cut is a quadratic in dx,
// 0.5 a dx^2 + b dy dx + (0.5 c dy^2 + cut) <= 0, between its roots (one
// pixel of slack each side; each pixel's test is exact). A degenerate conic
// (a = 0, an overflow) gives no roots: every pixel of the splat's row is
// tested instead. Clamped while still float: a huge span converts to no integer.
// rowCentre0: the tile's first row centre, y0 + 0.5.
inline void rowSpansPortable(const Footprint& s, int x0, float rowCentre0, float ySign, int from, int to, int sx0,
                             int sx1, RowSpans& spans) {
  for (int y = from; y <= to; ++y) {
    const float dy = (rowCentre0 + float(y) - s.py) * ySign;
    spans.dy[y] = dy;
    spans.first[y] = 1, spans.last[y] = 0;
    const float disc = s.b * s.b * dy * dy - s.a * (s.c * dy * dy + 2.0f * s.cut);
    if (disc < 0.0f) continue;
    const float root = std::sqrt(disc) * s.inverseA, centre = s.px - s.b * dy * s.inverseA - float(x0);
    float lo = centre - root - 1.0f, hi = centre + root + 1.0f;
    if (!(lo <= hi)) lo = float(sx0), hi = float(sx1);
    spans.first[y] = std::max(sx0, int(std::floor(std::clamp(lo, -1.0f, float(kSplatTilePixels)))));
    spans.last[y] = std::min(sx1, int(std::ceil(std::clamp(hi, -1.0f, float(kSplatTilePixels)))));
  }
}

#if defined(__x86_64__)
// blendRowPortable, 8 pixels a step: the same products in the same order,
// each lane kept or left by a mask where the portable loop skips a pixel.
__attribute__((target("avx2"))) inline std::uint32_t blendRowAvx2(const Footprint& s, float dy, float rowTerm, int x0,
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

// rowSpansPortable, 8 rows a step.
__attribute__((target("avx2"))) inline void rowSpansAvx2(const Footprint& s, int x0, float rowCentre0, float ySign,
                                                         int from, int to, int sx0, int sx1, RowSpans& spans) {
  const __m256 lane = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256 a = _mm256_set1_ps(s.a), b = _mm256_set1_ps(s.b), c = _mm256_set1_ps(s.c);
  const __m256 twoCut = _mm256_set1_ps(2.0f * s.cut), inverseA = _mm256_set1_ps(s.inverseA);
  const __m256 one = _mm256_set1_ps(1.0f), lowest = _mm256_set1_ps(-1.0f),
               highest = _mm256_set1_ps(float(kSplatTilePixels));
  const __m256 sx0f = _mm256_set1_ps(float(sx0)), sx1f = _mm256_set1_ps(float(sx1));
  const __m256 centreBase = _mm256_set1_ps(s.px), x0f = _mm256_set1_ps(float(x0));
  for (int y = from; y <= to; y += 8) {
    const __m256 rows = _mm256_add_ps(_mm256_set1_ps(rowCentre0 + float(y)), lane);
    const __m256 dy = _mm256_mul_ps(_mm256_sub_ps(rows, _mm256_set1_ps(s.py)), _mm256_set1_ps(ySign));
    const __m256 dy2 = _mm256_mul_ps(dy, dy);
    const __m256 disc = _mm256_sub_ps(_mm256_mul_ps(_mm256_mul_ps(b, b), dy2),
                                      _mm256_mul_ps(a, _mm256_add_ps(_mm256_mul_ps(c, dy2), twoCut)));
    const __m256 root = _mm256_mul_ps(_mm256_sqrt_ps(disc), inverseA);
    const __m256 centre = _mm256_sub_ps(_mm256_sub_ps(centreBase, _mm256_mul_ps(_mm256_mul_ps(b, dy), inverseA)), x0f);
    __m256 lo = _mm256_sub_ps(_mm256_sub_ps(centre, root), one);
    __m256 hi = _mm256_add_ps(_mm256_add_ps(centre, root), one);
    const __m256 ordered = _mm256_cmp_ps(lo, hi, _CMP_LE_OQ);
    lo = _mm256_blendv_ps(sx0f, lo, ordered);
    hi = _mm256_blendv_ps(sx1f, hi, ordered);
    lo = _mm256_floor_ps(_mm256_min_ps(_mm256_max_ps(lo, lowest), highest));
    hi = _mm256_ceil_ps(_mm256_min_ps(_mm256_max_ps(hi, lowest), highest));
    __m256i first = _mm256_max_epi32(_mm256_set1_epi32(sx0), _mm256_cvttps_epi32(lo));
    const __m256i last = _mm256_min_epi32(_mm256_set1_epi32(sx1), _mm256_cvttps_epi32(hi));
    // disc < 0: no pixel of the row (first past any last).
    const __m256 none = _mm256_cmp_ps(disc, _mm256_setzero_ps(), _CMP_LT_OQ);
    first = _mm256_castps_si256(
        _mm256_blendv_ps(_mm256_castsi256_ps(first), _mm256_castsi256_ps(_mm256_set1_epi32(kSplatTilePixels)), none));
    // The arrays hold kSplatTilePixels rows: a step that starts past kSplatTilePixels - 8 writes its head only.
    alignas(32) float dys[8];
    alignas(32) int firsts[8], lasts[8];
    _mm256_store_ps(dys, dy);
    _mm256_store_si256(reinterpret_cast<__m256i*>(firsts), first);
    _mm256_store_si256(reinterpret_cast<__m256i*>(lasts), last);
    for (int k = 0; k < 8 && y + k < kSplatTilePixels; ++k) {
      spans.dy[y + k] = dys[k];
      spans.first[y + k] = firsts[k];
      spans.last[y + k] = lasts[k];
    }
  }
}
#endif

// packUnorm4x8's rounding of one channel (packRgba's, without its NaN
// guard and library rounding call: the sums here are finite and >= 0).
inline std::uint32_t unorm8(float v) {
  return std::uint32_t(std::min(v, 1.0f) * 255.0f + 0.5f);
}

// One tile, blended front to back: splat_raster.comp's loop, each splat
// visiting only the pixels of its ellipse's rows that are still open (a
// bit per pixel, cleared once its transmittance falls below 1e-4).
template <auto blendRow, auto rowSpans>
[[gnu::always_inline]] inline void blendTileWith(const std::vector<Footprint>& splats,
                                                 std::span<const std::uint32_t> list, int tx, int ty, bool flipY,
                                                 SplatImage& image) {
  static_assert(kSplatTilePixels <= 32, "a tile row's open pixels are the bits of one word");
  if (list.empty()) return;  // the image starts cleared
  const int x0 = tx * kSplatTilePixels, y0 = ty * kSplatTilePixels;
  const int w = std::min(kSplatTilePixels, image.width - x0), h = std::min(kSplatTilePixels, image.height - y0);
  std::array<float, kSplatTilePixels * kSplatTilePixels> T, depth, r{}, g{}, b{};
  T.fill(1.0f);
  depth.fill(0.0f);
  std::array<std::uint32_t, kSplatTilePixels> open{};
  const std::uint32_t fullRow = w == 32 ? ~0u : (1u << w) - 1u;
  for (int y = 0; y < h; ++y) open[std::size_t(y)] = fullRow;
  int openRows = h;
  const float ySign = flipY ? -1.0f : 1.0f;
  for (std::size_t i = 0; i < list.size(); ++i) {
    // The next splats' lines are fetched while this one blends: the list
    // jumps through the depth order, and a miss each is what the loop waits on.
    if (i + kPrefetchAhead < list.size()) __builtin_prefetch(&splats[list[i + kPrefetchAhead]]);
    const Footprint& s = splats[list[i]];
    const int sx0 = std::max(s.x0, x0) - x0, sx1 = std::min(s.x1, x0 + w - 1) - x0;
    const int sy0 = std::max(s.y0, y0), sy1 = std::min(s.y1, y0 + h - 1);
    RowSpans spans;
    rowSpans(s, x0, y0 + 0.5f, ySign, sy0 - y0, sy1 - y0, sx0, sx1, spans);
    for (int y = sy0 - y0; y <= sy1 - y0; ++y) {
      std::uint32_t& rowOpen = open[std::size_t(y)];
      const int rx0 = spans.first[y], rx1 = spans.last[y];
      if (rowOpen == 0 || rx0 > rx1) continue;
      const std::uint32_t span = (rx1 - rx0 == 31 ? ~0u : ((1u << (rx1 - rx0 + 1)) - 1u)) << rx0;
      const std::size_t k = std::size_t(y) * kSplatTilePixels;
      const TileRow row{&T[k], &depth[k], &r[k], &g[k], &b[k]};
      const float dy = spans.dy[y];
      const std::uint32_t closed = blendRow(s, dy, -0.5f * s.c * dy * dy, x0, rowOpen & span, row);
      if (closed != 0) {
        rowOpen &= ~closed;
        if (rowOpen == 0) --openRows;
      }
    }
    if (openRows == 0) break;
  }
  for (int y = 0; y < h; ++y) {
    std::uint32_t* out = &image.pixels[(std::size_t(y0 + y) * std::size_t(image.width) + std::size_t(x0)) * 2];
    for (int x = 0; x < w; ++x) {
      const std::size_t k = std::size_t(y * kSplatTilePixels + x);
      out[x * 2] = unorm8(r[k]) | unorm8(g[k]) << 8 | unorm8(b[k]) << 16 | unorm8(1.0f - T[k]) << 24;
      std::memcpy(&out[x * 2 + 1], &depth[k], 4);
    }
  }
}

void blendTilePortable(const std::vector<Footprint>& splats, std::span<const std::uint32_t> list, int tx, int ty,
                       bool flipY, SplatImage& image) {
  blendTileWith<blendRowPortable, rowSpansPortable>(splats, list, tx, ty, flipY, image);
}

#if defined(__x86_64__)
// The same tile loop built for AVX2, the row kernel inlined into it.
__attribute__((target("avx2"))) void blendTileAvx2(const std::vector<Footprint>& splats,
                                                   std::span<const std::uint32_t> list, int tx, int ty, bool flipY,
                                                   SplatImage& image) {
  blendTileWith<blendRowAvx2, rowSpansAvx2>(splats, list, tx, ty, flipY, image);
}
#endif

}  // namespace

BlendTile blendTileForThisCpu() {
#if defined(__x86_64__)
  if (cpuHasAvx2FmaF16c()) return blendTileAvx2;
#endif
  return blendTilePortable;
}

}  // namespace riglens::core
