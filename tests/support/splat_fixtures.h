// A splat scene whose up is visible: a cone with a red tip at -y and a blue
// base at +y (the way a trainer's y-down scene holds a figure's head and
// feet), and the check that finds which colour an image shows on top.
#pragma once

#include <QtGui/QImage>
#include <cmath>
#include <optional>
#include <vector>

#include "riglens/core/splats/gaussian_ply.h"

namespace riglens::test {

inline std::vector<core::RawGaussian> twoToneCone(int count = 4000) {
  std::vector<core::RawGaussian> cone;
  for (int i = 0; i < count; ++i) {
    core::RawGaussian g;
    const float y = -1.0f + 2.0f * float(i) / float(count - 1), r = 0.05f + 0.15f * (1 + y);
    const float a = float(i) * 2.39996f;  // the golden angle: an even spiral
    g.position = {r * std::cos(a), y, r * std::sin(a)};
    g.dc = {y < -0.5f ? 1.6f : -1.6f, -1.6f, y > 0.5f ? 1.6f : -1.6f};
    g.opacityLogit = 4;
    g.logScale = {-3.5f, -3.5f, -3.5f};
    cone.push_back(g);
  }
  return cone;
}

// Whether the red pixels' mean row lies above the blue ones'; nullopt when
// either colour has fewer than `least` pixels (nothing to compare).
inline std::optional<bool> redAboveBlue(const QImage& image, int least = 200) {
  double redRows = 0, blueRows = 0, reds = 0, blues = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QRgb p = image.pixel(x, y);
      if (qRed(p) > 160 && qGreen(p) < 90 && qBlue(p) < 90) redRows += y, ++reds;
      if (qBlue(p) > 160 && qGreen(p) < 90 && qRed(p) < 90) blueRows += y, ++blues;
    }
  if (reds < least || blues < least) return std::nullopt;
  return redRows / reds < blueRows / blues;
}

}  // namespace riglens::test
