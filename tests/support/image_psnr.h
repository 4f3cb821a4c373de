// Peak signal-to-noise ratio between two RGBA8 images of one size, over the
// colour channels (alpha ignored): 10 log10(255^2 / mean squared error).
// How the video tests say how close a decoded frame is to the frame encoded.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace riglens::test {

inline double rgbPsnr(const std::uint8_t* a, std::size_t strideA, const std::uint8_t* b, std::size_t strideB, int width,
                      int height) {
  double squared = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < 3; ++c) {
        const double d = double(a[std::size_t(y) * strideA + std::size_t(x) * 4 + std::size_t(c)]) -
                         double(b[std::size_t(y) * strideB + std::size_t(x) * 4 + std::size_t(c)]);
        squared += d * d;
      }
  const double mean = squared / (3.0 * double(width) * double(height));
  if (mean == 0) return std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(255.0 * 255.0 / mean);
}

}  // namespace riglens::test
