#include "riglens/core/export/curve_reduction.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <utility>

namespace riglens::core {
namespace {

double lerpAt(std::span<const double> t, std::span<const double> v, std::size_t a, std::size_t b, std::size_t i) {
  const double u = (t[i] - t[a]) / (t[b] - t[a]);
  return v[a] + (v[b] - v[a]) * u;
}

}  // namespace

std::vector<std::size_t> reduceLinearKeys(std::span<const double> times, std::span<const double> values,
                                          double tolerance, double maxValueStep) {
  assert(times.size() == values.size());
  const std::size_t n = times.size();
  if (n <= 2) {
    std::vector<std::size_t> all(n);
    for (std::size_t i = 0; i < n; ++i) all[i] = i;
    return all;
  }
  std::vector<bool> keep(n, false);
  keep.front() = keep.back() = true;
  // An explicit stack instead of recursion: dense curves have thousands of samples.
  std::vector<std::pair<std::size_t, std::size_t>> stack{{0, n - 1}};
  while (!stack.empty()) {
    const auto [a, b] = stack.back();
    stack.pop_back();
    if (b <= a + 1) continue;
    std::size_t worstIndex = a + 1;
    double worst = -1.0;
    for (std::size_t i = a + 1; i < b; ++i) {
      const double e = std::abs(lerpAt(times, values, a, b, i) - values[i]);
      if (e > worst) {
        worst = e;
        worstIndex = i;
      }
    }
    const bool tooFarApart = std::abs(values[b] - values[a]) > maxValueStep;
    if (worst > tolerance || tooFarApart) {
      const std::size_t split = worst > tolerance ? worstIndex : (a + b) / 2;
      keep[split] = true;
      stack.emplace_back(a, split);
      stack.emplace_back(split, b);
    }
  }
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < n; ++i)
    if (keep[i]) kept.push_back(i);
  return kept;
}

double reconstructionError(std::span<const double> times, std::span<const double> values,
                           std::span<const std::size_t> kept) {
  double worst = 0.0;
  for (std::size_t k = 0; k + 1 < kept.size(); ++k)
    for (std::size_t i = kept[k]; i <= kept[k + 1]; ++i)
      worst = std::max(worst, std::abs(lerpAt(times, values, kept[k], kept[k + 1], i) - values[i]));
  return worst;
}

}  // namespace riglens::core
