// The innermost loop of the CPU's splat rasteriser: one splat blended into
// the open pixels of one tile row, front to back, as splat_raster.comp does
// per pixel. Two variants of the same arithmetic: a portable loop, and one
// that takes 8 pixels a step (AVX2, glibc's libmvec for the exponential),
// chosen once by what the CPU can do. Their pictures differ by the rounding
// of exp (libmvec's against libm's: within an ulp or two), well inside what
// the CPU route is held to against the GPU's tiles.
#pragma once

#include <cstdint>

namespace riglens::core {

// The GPU's tile (shader_interface.h kSplatTile): the grid the tile keys
// index, which decides which pixels a splat is tested against.
inline constexpr int kSplatTilePixels = 16;
inline constexpr float kSplatMinAlpha = 1.0f / 255.0f;

// What the tiles read of a visible splat, stored in front-to-back order so
// that a tile's splats are read in the order they lie in memory.
struct Footprint {
  float px, py;   // centre in pixels
  float a, b, c;  // conic
  float ndcDepth;
  float rgb[3];  // clamped to [0, 1], as the raster clamps them
  float opacity;
  float cut;  // log(1/255 / opacity): where the splat's alpha falls below 1/255
  int x0, y0, x1, y1;
  int tx0, ty0, tx1, ty1;
};

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
// Returns the bits of the pixels whose transmittance fell below 1e-4.
using BlendRow = std::uint32_t (*)(const Footprint& s, float dy, float rowTerm, int x0, std::uint32_t open,
                                   const TileRow& row);

// The variant for this CPU.
BlendRow blendRowForThisCpu();
// The portable one (tests compare the two).
std::uint32_t blendRowPortable(const Footprint& s, float dy, float rowTerm, int x0, std::uint32_t open,
                               const TileRow& row);

}  // namespace riglens::core
