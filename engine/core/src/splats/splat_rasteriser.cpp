#include "riglens/core/splats/splat_rasteriser.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <limits>
#include <thread>

#include "riglens/core/base/color.h"
#include "riglens/core/splats/spherical_harmonics.h"
#include "splats/splat_blend_tile.h"

namespace riglens::core {

namespace {

constexpr float kMinAlpha = kSplatMinAlpha;
// How far off-axis the projection's Jacobian follows a centre, in units of
// the view's half-angle tangent: 3DGS's 1.3 (splat_project.comp's too).
constexpr float kJacobianReach = 1.3f;

struct Projected {
  float px = 0, py = 0;       // centre in pixels
  float a = 0, b = 0, c = 0;  // conic (inverse 2D covariance)
  float ndcDepth = 0;
  float rgb[3] = {0, 0, 0};
  float opacity = 0;
  std::uint32_t logDepth = 0;
  int x0 = 0, y0 = 0, x1 = -1, y1 = -1;    // pixels a splat can reach (inclusive)
  int tx0 = 0, ty0 = 0, tx1 = 0, ty1 = 0;  // tiles the GPU bins it into (exclusive ends)
  bool visible = false;
};

// splat_footprint.glsl's splatReach: where opacity * exp(-d^2 / 2), capped
// at 0.99, falls to 1/255.
float splatReach(float opacity) {
  return std::sqrt(2.0f * std::log(std::max(255.0f * std::min(opacity, 0.99f), 1.0f)));
}

// One splat as splat_project.comp projects it and splat_tiles_common.glsl bins it.
Projected project(const SplatInputs& in, const SplatCamera& cam, std::size_t i, glm::vec3 eye, glm::ivec2 tiles) {
  Projected p;
  std::uint32_t color = in.color[i];
  if ((color >> 24) == 0u) return p;
  const glm::vec3 centre(in.center[i * 4], in.center[i * 4 + 1], in.center[i * 4 + 2]);
  const glm::vec4 pv = cam.view * glm::vec4(centre, 1.0f);
  const float depth = -pv.z;
  if (!(depth > cam.nearZ)) return p;  // nearer than the camera's near plane (the 3DGS rasteriser: 0.2 m)
  const glm::vec4 clip = cam.clip * pv;
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  const float* a = &in.covarianceA[i * 4];
  const float* b = &in.covarianceB[i * 4];
  const glm::mat3 sigma(a[0], a[1], a[2], a[1], a[3], b[0], a[2], b[0], b[1]);
  const float fx = cam.focal.x, fy = cam.focal.y;
  // The Jacobian where the centre's direction is clamped to kJacobianReach
  // times the view's half-angle tangents, as 3DGS does (its limx/limy): a
  // splat beside the camera, just past the near plane, would otherwise
  // stretch over the whole screen.
  const glm::vec2 limit = kJacobianReach * 0.5f * cam.size / cam.focal;
  const glm::vec2 t = glm::clamp(glm::vec2(pv) / depth, -limit, limit) * depth;
  const glm::mat3 J(fx / depth, 0.0f, 0.0f, 0.0f, fy / depth, 0.0f, fx * t.x / (depth * depth),
                    fy * t.y / (depth * depth), 0.0f);
  const glm::mat3 T = J * glm::mat3(cam.view);
  const glm::mat3 cov = T * sigma * glm::transpose(T);
  const float c00 = cov[0][0] + 0.3f, c01 = cov[0][1], c11 = cov[1][1] + 0.3f;
  const float det = c00 * c11 - c01 * c01;
  if (!(det > 0.0f)) return p;
  const float mid = 0.5f * (c00 + c11);
  const float lambda = mid + std::sqrt(std::max(0.1f, mid * mid - det));
  const float radius = std::ceil(3.0f * std::sqrt(lambda));
  const glm::vec2 px = (ndc * 0.5f + 0.5f) * cam.size;
  if (!std::isfinite(radius) || !std::isfinite(px.x) || !std::isfinite(px.y)) return p;
  if (px.x + radius < 0.0f || px.y + radius < 0.0f || px.x - radius > cam.size.x || px.y - radius > cam.size.y)
    return p;
  if (in.shDegree > 0) {  // the view's colour, for the splats that survived the culls alone
    const std::size_t rest = in.shRest.size() / in.count();
    const glm::vec3 rgb =
        shColor(in.shDc.data() + i * 3, in.shRest.data() + i * rest, in.shDegree, glm::normalize(centre - eye));
    color = packRgba(rgb.r, rgb.g, rgb.b, float(color >> 24) / 255.0f);
  }
  p.px = px.x;
  p.py = px.y;
  p.a = c11 / det;
  p.b = -c01 / det;
  p.c = c00 / det;
  p.ndcDepth = clip.z / clip.w;
  p.logDepth = std::uint32_t(std::clamp(std::log(depth / cam.nearZ) * cam.logScale, 0.0f, 65535.0f));
  const auto rgba = unpackRgba(color);
  for (int k = 0; k < 3; ++k) p.rgb[k] = rgba[std::size_t(k)];
  p.opacity = rgba[3];
  // The tiles, as tileRect bins it.
  const float reach = splatReach(p.opacity);
  if (!(reach > 0.0f)) return p;
  const float conicDet = p.a * p.c - p.b * p.b;
  const glm::vec2 sigmas = glm::sqrt(glm::max(glm::vec2(p.c, p.a) / std::max(conicDet, 1e-30f), glm::vec2(0.0f)));
  const glm::vec2 extent = reach * sigmas;
  const glm::vec2 lo =
      glm::clamp(glm::floor((px - extent) / float(kSplatTilePixels)), glm::vec2(0.0f), glm::vec2(tiles));
  const glm::vec2 hi =
      glm::clamp(glm::floor((px + extent) / float(kSplatTilePixels)) + 1.0f, glm::vec2(0.0f), glm::vec2(tiles));
  p.tx0 = int(lo.x);
  p.ty0 = int(lo.y);
  p.tx1 = int(hi.x);
  p.ty1 = int(hi.y);
  if (p.tx0 >= p.tx1 || p.ty0 >= p.ty1) return p;
  // The pixels whose alpha can reach 1/255: the ellipse out to the reach of
  // the uncapped opacity (an opacity above 0.99 reaches a hair further than
  // the capped reach the tiles use), within the tiles.
  const float fullReach = std::sqrt(2.0f * std::log(std::max(255.0f * p.opacity, 1.0f)));
  const glm::vec2 far = fullReach * sigmas + 1.0f;
  // Clamped to the image while still float: a huge splat converts to no integer.
  const glm::vec2 lowest = glm::clamp(glm::floor(px - far), glm::vec2(-1.0f), cam.size);
  const glm::vec2 highest = glm::clamp(glm::ceil(px + far), glm::vec2(-1.0f), cam.size);
  p.x0 = std::max(int(lowest.x), p.tx0 * kSplatTilePixels);
  p.x1 = std::min({int(highest.x), p.tx1 * kSplatTilePixels - 1, int(cam.size.x) - 1});
  p.y0 = std::max(int(lowest.y), p.ty0 * kSplatTilePixels);
  p.y1 = std::min({int(highest.y), p.ty1 * kSplatTilePixels - 1, int(cam.size.y) - 1});
  p.visible = p.x0 <= p.x1 && p.y0 <= p.y1;
  return p;
}

// Runs work(thread) on `threads` threads (the caller's among them).
template <typename Work>
void onThreads(unsigned threads, const Work& work) {
  std::vector<std::thread> helpers;
  for (unsigned t = 1; t < threads; ++t) helpers.emplace_back(work, t);
  work(0u);
  for (auto& h : helpers) h.join();
}

// Stable order of the visible splats by 16-bit log depth, nearest first
// (two 8-bit counting passes; equal depths keep their index order), into
// `order` (`spare`: room for the passes).
void frontToBack(const std::vector<Projected>& splats, std::vector<std::uint32_t>& order,
                 std::vector<std::uint32_t>& spare) {
  order.clear();
  for (std::uint32_t i = 0; i < splats.size(); ++i)
    if (splats[i].visible) order.push_back(i);
  spare.resize(order.size());
  for (int shift = 0; shift < 16; shift += 8) {
    std::array<std::size_t, 257> offsets{};
    for (std::uint32_t i : order) ++offsets[((splats[i].logDepth >> shift) & 0xffu) + 1];
    for (std::size_t d = 1; d < offsets.size(); ++d) offsets[d] += offsets[d - 1];
    for (std::uint32_t i : order) spare[offsets[(splats[i].logDepth >> shift) & 0xffu]++] = i;
    order.swap(spare);
  }
}

// The union of the splats' tile ranges, in pixels, within the image.
PixelRect coveredPixels(const std::vector<TileRange>& ranges, const SplatImage& image) {
  glm::ivec2 lo(std::numeric_limits<int>::max()), hi(std::numeric_limits<int>::min());
  for (const TileRange& s : ranges) {
    if (s.tx0 >= s.tx1 || s.ty0 >= s.ty1) continue;
    lo = glm::min(lo, glm::ivec2(s.tx0, s.ty0));
    hi = glm::max(hi, glm::ivec2(s.tx1, s.ty1));
  }
  if (lo.x >= hi.x || lo.y >= hi.y) return {};
  return {lo.x * kSplatTilePixels, lo.y * kSplatTilePixels, std::min(hi.x * kSplatTilePixels, image.width),
          std::min(hi.y * kSplatTilePixels, image.height)};
}

}  // namespace

SplatSink sinkOfCloud(const GaussianCloud& cloud) {
  SplatSink sink(cloud.count);
  for (std::size_t i = 0; i < cloud.count; ++i) {
    for (std::size_t k = 0; k < 3; ++k) sink.center[i * 4 + k] = cloud.positions[i * 3 + k];
    sink.center[i * 4 + 3] = 1.0f;
    const float* s = &cloud.covariance[i * 6];
    for (std::size_t k = 0; k < 4; ++k) sink.covarianceA[i * 4 + k] = s[k];
    sink.covarianceB[i * 4] = s[4];
    sink.covarianceB[i * 4 + 1] = s[5];
  }
  sink.color = cloud.color;
  return sink;
}

SplatInputs splatInputs(const SplatSink& sink, const GaussianCloud* cloud) {
  SplatInputs in;
  in.center = sink.center;
  in.covarianceA = sink.covarianceA;
  in.covarianceB = sink.covarianceB;
  in.color = sink.color;
  if (cloud && cloud->shDegree > 0 && cloud->count == sink.capacity()) {  // the colour follows the view
    in.shDegree = cloud->shDegree;
    in.shDc = cloud->shDc;
    in.shRest = cloud->shRest;
  }
  return in;
}

struct SplatRasterScratch::Arrays {
  std::vector<Projected> projected;
  std::vector<std::uint32_t> order, spare;
  std::vector<Footprint> sorted;  // the visible splats, front to back
  std::vector<TileRange> ranges;  // their tiles, in the same order
  std::vector<std::size_t> rowEntries, offsets, cursor;
  std::vector<std::uint32_t> entries;  // a band's (tile, splat) pairs, by tile
};

SplatRasterScratch::SplatRasterScratch() : m_arrays(std::make_unique<Arrays>()) {}
SplatRasterScratch::~SplatRasterScratch() = default;
SplatRasterScratch::SplatRasterScratch(SplatRasterScratch&&) noexcept = default;
SplatRasterScratch& SplatRasterScratch::operator=(SplatRasterScratch&&) noexcept = default;

namespace {

// Every splat projected (on up to `threads` threads), then the visible ones'
// footprints in front-to-back order into a.sorted.
void footprintsFrontToBack(const SplatInputs& in, const SplatCamera& cam, glm::ivec2 tiles, unsigned threads,
                           SplatRasterScratch::Arrays& a) {
  const std::size_t n = in.count();
  const glm::vec3 eye = -(glm::transpose(glm::mat3(cam.view)) * glm::vec3(cam.view[3]));
  a.projected.resize(n);  // every element is written below
  const unsigned projectors = unsigned(std::min<std::size_t>(threads, std::max<std::size_t>(1, n / 4096)));
  onThreads(projectors, [&](unsigned t) {
    for (std::size_t i = n * t / projectors, end = n * (t + 1) / projectors; i < end; ++i)
      a.projected[i] = project(in, cam, i, eye, tiles);
  });
  frontToBack(a.projected, a.order, a.spare);
  a.sorted.resize(a.order.size());
  a.ranges.resize(a.order.size());
  for (std::size_t k = 0; k < a.order.size(); ++k) {
    const Projected& p = a.projected[a.order[k]];
    const float rgb[3] = {std::clamp(p.rgb[0], 0.0f, 1.0f), std::clamp(p.rgb[1], 0.0f, 1.0f),
                          std::clamp(p.rgb[2], 0.0f, 1.0f)};
    a.sorted[k] = {p.px,
                   p.py,
                   p.a,
                   p.b,
                   p.c,
                   p.ndcDepth,
                   {rgb[0], rgb[1], rgb[2]},
                   p.opacity,
                   std::log(kMinAlpha / p.opacity),
                   1.0f / p.a,
                   p.x0,
                   p.y0,
                   p.x1,
                   p.y1};
    a.ranges[k] = {p.tx0, p.ty0, p.tx1, p.ty1};
  }
}

// Each tile of tile rows [bandStart, bandEnd) gets its splats, front to
// back (a counting sort by tile of the depth order): tile t's are
// a.entries[a.offsets[t] .. a.offsets[t + 1]).
void binBand(int bandStart, int bandEnd, int tilesX, std::size_t entriesInBand, SplatRasterScratch::Arrays& a) {
  const std::size_t bandTiles = std::size_t(bandEnd - bandStart) * std::size_t(tilesX);
  const auto tileOf = [&](int tx, int ty) {
    return std::size_t(ty - bandStart) * std::size_t(tilesX) + std::size_t(tx);
  };
  a.offsets.assign(bandTiles + 1, 0);
  for (const TileRange& s : a.ranges)
    for (int ty = std::max(s.ty0, bandStart); ty < std::min(s.ty1, bandEnd); ++ty)
      for (int tx = s.tx0; tx < s.tx1; ++tx) ++a.offsets[tileOf(tx, ty) + 1];
  for (std::size_t t = 1; t <= bandTiles; ++t) a.offsets[t] += a.offsets[t - 1];
  a.entries.resize(entriesInBand);
  a.cursor.assign(a.offsets.begin(), a.offsets.end() - 1);
  for (std::uint32_t k = 0; k < a.ranges.size(); ++k) {
    const TileRange& s = a.ranges[k];
    for (int ty = std::max(s.ty0, bandStart); ty < std::min(s.ty1, bandEnd); ++ty)
      for (int tx = s.tx0; tx < s.tx1; ++tx) a.entries[a.cursor[tileOf(tx, ty)]++] = k;
  }
}

}  // namespace

SplatRasterStats rasteriseSplats(const SplatInputs& in, const SplatCamera& cam, SplatImage& image, unsigned threads,
                                 std::size_t bandEntries, SplatRasterScratch* scratch) {
  SplatRasterStats stats;
  image.width = std::max(0, int(cam.size.x));
  image.height = std::max(0, int(cam.size.y));
  image.pixels.assign(std::size_t(image.width) * std::size_t(image.height) * 2, 0u);
  if (in.count() == 0 || image.width == 0 || image.height == 0) return stats;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const glm::ivec2 tiles((image.width + kSplatTilePixels - 1) / kSplatTilePixels,
                         (image.height + kSplatTilePixels - 1) / kSplatTilePixels);
  SplatRasterScratch own;
  SplatRasterScratch::Arrays& a = (scratch ? *scratch : own).arrays();
  footprintsFrontToBack(in, cam, tiles, threads, a);
  stats.visible = a.sorted.size();
  stats.covered = coveredPixels(a.ranges, image);

  // Entries per tile row, to cut the view into bands of rows that fit.
  a.rowEntries.assign(std::size_t(tiles.y), 0);
  for (const TileRange& s : a.ranges)
    for (int ty = s.ty0; ty < s.ty1; ++ty) a.rowEntries[std::size_t(ty)] += std::size_t(s.tx1 - s.tx0);
  const BlendTile blendTile = blendTileForThisCpu();
  for (int bandStart = 0; bandStart < tiles.y;) {
    int bandEnd = bandStart;
    std::size_t entriesInBand = 0;
    while (bandEnd < tiles.y &&
           (bandEnd == bandStart || entriesInBand + a.rowEntries[std::size_t(bandEnd)] <= bandEntries))
      entriesInBand += a.rowEntries[std::size_t(bandEnd++)];
    binBand(bandStart, bandEnd, tiles.x, entriesInBand, a);
    stats.tileEntries += entriesInBand;
    const std::size_t bandTiles = std::size_t(bandEnd - bandStart) * std::size_t(tiles.x);
    for (std::size_t t = 0; t < bandTiles; ++t) {
      stats.longestTile = std::max(stats.longestTile, a.offsets[t + 1] - a.offsets[t]);
      stats.heldTiles += a.offsets[t + 1] > a.offsets[t] ? 1 : 0;
    }
    std::atomic<std::size_t> next{0};
    onThreads(threads, [&](unsigned) {
      for (std::size_t t = next++; t < bandTiles; t = next++) {
        const std::span<const std::uint32_t> list(a.entries.data() + a.offsets[t], a.offsets[t + 1] - a.offsets[t]);
        blendTile(a.sorted, list, int(t % std::size_t(tiles.x)), bandStart + int(t / std::size_t(tiles.x)), cam.flipY,
                  image);
      }
    });
    bandStart = bandEnd;
  }
  return stats;
}

}  // namespace riglens::core
