// Independent references for the tests: the same quantities the engine
// computes, derived another way (glm's own rotations, Newton's method on the
// Bezier), so a test never checks the engine against itself.
#pragma once

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/mat4x4.hpp>

namespace riglens::test {

// y of the cubic Bezier (0,0) p1 p2 (1,1)-style curve through arbitrary
// control points at the parameter where x == t, by Newton's method with a
// bisection fallback, in double precision.
inline double bezierAtX(double x0, double y0, double x1, double y1, double x2, double y2, double x3, double y3,
                        double t) {
  const auto bx = [&](double s) {
    const double u = 1 - s;
    return u * u * u * x0 + 3 * u * u * s * x1 + 3 * u * s * s * x2 + s * s * s * x3;
  };
  const auto dbx = [&](double s) {
    const double u = 1 - s;
    return 3 * u * u * (x1 - x0) + 6 * u * s * (x2 - x1) + 3 * s * s * (x3 - x2);
  };
  constexpr double kFlat = 1e-12;  // a slope this small: Newton's step would overshoot
  double s = (t - x0) / (x3 - x0);
  for (int i = 0; i < 50; ++i) {
    const double d = dbx(s);
    if (std::abs(d) < kFlat) break;
    s = std::clamp(s - (bx(s) - t) / d, 0.0, 1.0);
  }
  const double u = 1 - s;
  return u * u * u * y0 + 3 * u * u * s * y1 + 3 * u * s * s * y2 + s * s * s * y3;
}

// The contract's rotations built with glm::rotate: x mirrored (positive
// pitch elevates a +z-forward part).
inline glm::dmat4 rotX(double a) {
  return glm::rotate(glm::dmat4(1.0), -a, glm::dvec3(1, 0, 0));
}
inline glm::dmat4 rotY(double a) {
  return glm::rotate(glm::dmat4(1.0), a, glm::dvec3(0, 1, 0));
}
inline glm::dmat4 rotZ(double a) {
  return glm::rotate(glm::dmat4(1.0), a, glm::dvec3(0, 0, 1));
}
inline glm::dmat4 trans(double x, double y, double z) {
  return glm::translate(glm::dmat4(1.0), glm::dvec3(x, y, z));
}
inline glm::dmat4 aboutPivot(const glm::dmat4& r, double x, double y, double z) {
  return trans(x, y, z) * r * trans(-x, -y, -z);
}

inline double maxAbsDiff(const glm::mat4& a, const glm::dmat4& b) {
  double worst = 0;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) worst = std::max(worst, std::abs(double(a[c][r]) - b[c][r]));
  return worst;
}

}  // namespace riglens::test
