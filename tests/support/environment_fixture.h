// Environment maps written at test time: Radiance .hdr files encoded here
// (RGBE texels, flat or run-length coded scanlines, as Greg Ward's format
// describes them) and OpenEXR files written by OpenEXR itself. Shared by the
// environment tests and the fuzz seeds.
#pragma once

#include <ImfRgbaFile.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace riglens::test {

// Below this Ward's encoder writes black: the shared exponent would underflow its byte.
inline constexpr float kRgbeSmallest = 1e-32f;

// One texel in Radiance's RGBE: a shared exponent, 8-bit mantissas.
inline std::array<std::uint8_t, 4> rgbe(float r, float g, float b) {
  const float largest = std::max({r, g, b});
  if (largest < kRgbeSmallest) return {0, 0, 0, 0};
  int exponent = 0;
  const float scale = std::frexp(largest, &exponent) * 256.0f / largest;
  return {std::uint8_t(r * scale), std::uint8_t(g * scale), std::uint8_t(b * scale), std::uint8_t(exponent + 128)};
}

// A flat (not run-length encoded) Radiance file of `rgb`, `header` replacing the size line when given.
inline std::string hdrFile(int width, int height, const std::vector<float>& rgb, const std::string& sizeLine = {}) {
  std::string out = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n";
  out += sizeLine.empty() ? "-Y " + std::to_string(height) + " +X " + std::to_string(width) + "\n" : sizeLine;
  for (std::size_t t = 0; t * 3 < rgb.size(); ++t) {
    const auto texel = rgbe(rgb[t * 3], rgb[t * 3 + 1], rgb[t * 3 + 2]);
    out.append(reinterpret_cast<const char*>(texel.data()), 4);
  }
  return out;
}

// The same run-length coded, as most .hdr files are: per scanline the
// marker (2, 2, width), then each component's plane in literal chunks of at
// most 128 (one run of a repeated value where the plane starts with one).
inline std::string hdrRleFile(int width, int height, const std::vector<float>& rgb) {
  std::string out =
      "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y " + std::to_string(height) + " +X " + std::to_string(width) + "\n";
  for (int y = 0; y < height; ++y) {
    out += {char(2), char(2), char(width >> 8), char(width & 0xff)};
    std::vector<std::array<std::uint8_t, 4>> texels;
    for (int x = 0; x < width; ++x) {
      const std::size_t t = std::size_t(y * width + x) * 3;
      texels.push_back(rgbe(rgb[t], rgb[t + 1], rgb[t + 2]));
    }
    for (int c = 0; c < 4; ++c)
      for (int x = 0; x < width;) {
        const int count = std::min(128, width - x);
        out += char(count);
        for (int i = 0; i < count; ++i) out += char(texels[std::size_t(x + i)][std::size_t(c)]);
        x += count;
      }
  }
  return out;
}

// An OpenEXR file of `rgb` (half RGBA, alpha 1) written by OpenEXR at `path`.
inline void writeExr(const std::filesystem::path& path, int width, int height, const std::vector<float>& rgb) {
  std::vector<Imf::Rgba> pixels(std::size_t(width) * std::size_t(height));
  for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = Imf::Rgba(rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2], 1);
  Imf::RgbaOutputFile file(path.c_str(), width, height, Imf::WRITE_RGBA);
  file.setFrameBuffer(pixels.data(), 1, std::size_t(width));
  file.writePixels(height);
}

// A gradient with distinct channels, so a swapped or flipped axis shows.
inline std::vector<float> environmentGradient(int width, int height) {
  std::vector<float> rgb;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) rgb.insert(rgb.end(), {0.1f + x * 0.5f, 2.0f + y * 0.25f, 0.01f * (x + y)});
  return rgb;
}

}  // namespace riglens::test
