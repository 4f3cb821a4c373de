// The CPU splat rasteriser's blend: one 16x16 tile, its splats front to
// back, as splat_raster.comp does per pixel. Two builds of the same
// arithmetic: a portable one, and one whose pixel loop takes 8 pixels a step
// (AVX2, glibc's libmvec for the exponential), chosen once by what the CPU
// can do (RIGLENS_SIMD=off: the portable one). Their pictures differ by the
// rounding of exp (libmvec's against libm's: within an ulp or two), well
// inside what the CPU route is held to against the GPU's tiles.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "riglens/core/splats/splat_rasteriser.h"

namespace riglens::core {

// The GPU's tile (shader_interface.h kSplatTile): the grid the tile keys
// index, which decides which pixels a splat is tested against.
inline constexpr int kSplatTilePixels = 16;
inline constexpr float kSplatMinAlpha = 1.0f / 255.0f;

// What the tiles read of a visible splat, stored in front-to-back order so
// that a tile's splats are read in the order they lie in memory; one cache
// line each (the blend's loads are its cost: a tile's list reaches across
// the whole depth order).
struct alignas(64) Footprint {
  float px, py;   // centre in pixels
  float a, b, c;  // conic
  float ndcDepth;
  float rgb[3];  // clamped to [0, 1], as the raster clamps them
  float opacity;
  float cut;           // log(1/255 / opacity): where the splat's alpha falls below 1/255
  float inverseA;      // 1 / a, for the row spans
  int x0, y0, x1, y1;  // the pixels it can reach (inclusive)
};
static_assert(sizeof(Footprint) == 64, "one cache line a splat");

// The tiles a splat is binned to (exclusive ends), beside the footprints:
// only the binning reads them.
struct TileRange {
  int tx0, ty0, tx1, ty1;
};

// Blends the splats `list` indexes (front to back) into tile (tx, ty) of
// `image`, which starts cleared; flipY: the clip space's y runs opposite to
// view space's (SplatCamera::flipY).
using BlendTile = void (*)(const std::vector<Footprint>& splats, std::span<const std::uint32_t> list, int tx, int ty,
                           bool flipY, SplatImage& image);

BlendTile blendTileForThisCpu();

}  // namespace riglens::core
