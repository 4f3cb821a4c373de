// PNG encoding of 8-bit pictures (a window's screenshot, a render) through
// libpng, with the settings a picture written once and looked at wants: an
// opaque picture is written as RGB (no alpha channel to carry), every row
// with the "Up" filter and zlib level 1.
//
// Why not Qt's writer (QImage::save): it keeps the alpha channel of an
// opaque window and lets libpng try all five filters on every row. Measured
// on a 1280x800 screenshot of the tank and a 1280x720 render of the walker
// (2026-12-07, the 2-core VM): 29-31 ms and 38 ms through Qt at quality 80
// (zlib level 1, what RigLens asked of it), 10 and 13 ms here, and 9-14% fewer bytes (the Up filter repeats the row
// above: flat panels, backgrounds and smooth shading).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "riglens/core/base/expected.h"

namespace riglens::core {

// Four bytes a pixel, rows `stride` bytes apart (at least width * 4).
struct PixelRows {
  enum class Order { Rgba, Bgra };  // BGRA: Qt's ARGB32 on a little-endian machine
  int width = 0;
  int height = 0;
  std::size_t stride = 0;
  const std::uint8_t* data = nullptr;
  Order order = Order::Rgba;
  bool premultiplied = false;  // colour already multiplied by alpha (a window grab)
};

// The PNG file's bytes. A picture with any pixel not fully opaque keeps its
// alpha (straight, as PNG stores it); refuses an empty picture, a stride
// shorter than a row, and sizes libpng does not write; the message says
// what, for the caller to name the file.
Expected<std::vector<std::uint8_t>> encodePng(const PixelRows& pixels);

}  // namespace riglens::core
