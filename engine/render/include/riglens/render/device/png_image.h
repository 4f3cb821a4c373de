// A picture read back from a window or a canvas (QImage) as the bytes of a
// PNG file, through core's encoder (core/base/png_encoder.h: RGB when
// opaque, fast settings).
#pragma once

#include <QtGui/QImage>
#include <cstdint>
#include <vector>

#include "riglens/core/base/expected.h"

namespace riglens::render {

// Any QImage format; the ones a readback or a window grab gives (RGBA8888,
// ARGB32 and their premultiplied and opaque forms) are encoded as they lie,
// others after a conversion by Qt.
core::Expected<std::vector<std::uint8_t>> encodePng(const QImage& image);

}  // namespace riglens::render
