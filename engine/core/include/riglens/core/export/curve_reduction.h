// Error-bounded key reduction for baked curves: from a densely sampled
// scalar curve keep the fewest samples (Ramer-Douglas-Peucker: Ramer, 1972;
// Douglas & Peucker, 1973) such that linear interpolation between kept
// samples reproduces every dense sample within `tolerance`.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace riglens::core {

// Indices into `times`/`values` to keep, ascending; always the first and the
// last. `times` strictly increasing, same size as `values`. `maxValueStep`
// (> 0) additionally caps |values[b] - values[a]| between kept neighbours (a
// rotation baked to quaternions must stay under pi per segment, since slerp
// takes the short way round).
std::vector<std::size_t> reduceLinearKeys(std::span<const double> times, std::span<const double> values,
                                          double tolerance, double maxValueStep);

// The largest |linear reconstruction - value| over all samples, for the
// kept indices. For tests and reports.
double reconstructionError(std::span<const double> times, std::span<const double> values,
                           std::span<const std::size_t> kept);

}  // namespace riglens::core
