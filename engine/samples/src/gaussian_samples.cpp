#include "riglens/samples/gaussian_samples.h"

#include <cmath>

#include "sample_sh.h"

namespace riglens::samples {

namespace {
std::vector<core::RawGaussian> torus(std::size_t count, float sizeScale) {
  std::vector<core::RawGaussian> out;
  out.reserve(count);
  constexpr double kTau = 6.283185307179586;
  for (std::size_t i = 0; i < count; ++i) {
    const double u = kTau * double(i) / double(count);                      // around the ring
    const double v = kTau * std::fmod(double(i) * 0.618033988749895, 1.0);  // around the tube
    const double tube = 0.25 + (i % 97 == 0 ? -0.2 : 0.0);
    core::RawGaussian g;
    g.position = {float((1.0 + tube * std::cos(v)) * std::cos(u)), float(tube * std::sin(v)),
                  float((1.0 + tube * std::cos(v)) * std::sin(u))};
    // Colour by ring angle through the SH degree-0 term (0.5 + C0 * dc).
    const double r = 0.5 + 0.5 * std::cos(u), gcol = 0.5 + 0.5 * std::cos(u - 2.094),
                 b = 0.5 + 0.5 * std::cos(u + 2.094);
    g.dc = {float((r - 0.5) / kShC0), float((gcol - 0.5) / kShC0), float((b - 0.5) / kShC0)};
    g.opacityLogit = i % 97 == 0 ? -1.0f : 3.0f;
    const float along = std::log(sizeScale * (i % 97 == 0 ? 0.12f : 0.06f)),
                across = std::log(sizeScale * (i % 97 == 0 ? 0.12f : 0.02f));
    g.logScale = {along, across, across};
    // Rotate x (the long axis) to the ring's tangent: about +y by -(u + 90 deg).
    const double angle = -(u + kTau / 4);
    g.rotation = {float(std::cos(angle / 2)), 0.0f, float(std::sin(angle / 2)), 0.0f};
    out.push_back(g);
  }
  return out;
}
}  // namespace

std::vector<core::RawGaussian> makeGaussianTorus(std::size_t count) {
  return torus(count, 1.0f);
}

std::vector<core::RawGaussian> makeDenseGaussianTorus(std::size_t count) {
  return torus(count, count > 0 ? float(std::sqrt(5000.0 / double(count))) : 1.0f);
}

}  // namespace riglens::samples
