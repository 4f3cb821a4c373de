#include "rbf_solver.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace riglens::core::dna_detail {
namespace {

// LU decomposition's stand-in for an exactly zero pivot (RigLogic's, after
// Numerical Recipes' ludcmp): the inverse stays finite for a singular kernel.
constexpr double kTinyPivot = 1e-20;

double arcLength(const double* a, const double* b) {
  const double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const double dotSquared = dot * dot;
  if (dotSquared > 1.0) return 0.0;
  return std::acos(2.0 * dotSquared - 1.0);
}

// The swing part about `axis` (x, y, z, w order); a zero-length twist plane gives the zero quaternion.
void swingPart(double* q, int axis) {
  const double x = q[0], y = q[1], z = q[2], w = q[3];
  const double t = q[axis];
  const double s = -std::sqrt(t * t + w * w);
  if (s == 0.0) {
    std::fill(q, q + 4, 0.0);
    return;
  }
  if (axis == 0) q[0] = 0, q[1] = (w * y - x * z) / s, q[2] = (w * z + x * y) / s;
  if (axis == 1) q[0] = (w * x + y * z) / s, q[1] = 0, q[2] = (w * z - y * x) / s;
  if (axis == 2) q[0] = (w * x - z * y) / s, q[1] = (w * y + z * x) / s, q[2] = 0;
  q[3] = s;
}

// The twist part: the other two vector components zeroed, (t, w) renormalised.
void twistPart(double* q, int axis) {
  for (int k = 0; k < 3; ++k)
    if (k != axis) q[k] = 0.0;
  const double m = std::sqrt(q[axis] * q[axis] + q[3] * q[3]);
  if (m == 0.0) {
    std::fill(q, q + 4, 0.0);
    return;
  }
  q[axis] /= m;
  q[3] /= m;
}

}  // namespace

RbfSolver::RbfSolver(const DnaRbfSolver& solver, std::span<const DnaRbfPose> poses, bool degrees)
    : m_spec(&solver), m_inputs(solver.rawControls.size()), m_targets(solver.poses.size()) {
  for (auto p : solver.poses) m_scales.push_back(poses[p].scale);
  m_converted.assign(solver.targets.begin(), solver.targets.end());
  for (std::size_t t = 0; t < m_targets; ++t) convert({m_converted.data() + t * m_inputs, m_inputs});
  m_input.resize(m_inputs);
  m_phi.resize(m_targets);
  if (solver.automaticRadius) {
    double sum = 0;
    for (std::size_t i = 0; i < m_targets; ++i)
      for (std::size_t j = i + 1; j < m_targets; ++j)
        sum += distance({m_converted.data() + i * m_inputs, m_inputs}, {m_converted.data() + j * m_inputs, m_inputs});
    const double pairs = double(m_targets) * double(m_targets - 1) / 2.0;
    if (m_targets < 2) m_problem = "an automatic radius needs two targets; the solver weighs nothing";
    m_radius = m_targets < 2 ? 0.0 : sum / pairs;
  } else {
    m_radius = solver.radius * (degrees ? std::numbers::pi / 180.0 : 1.0);
  }
  if (!(m_radius > 0) && m_problem.empty()) m_problem = "its radius is not positive; the solver weighs nothing";
  if (solver.type == RbfSolverType::Interpolative && m_problem.empty()) invertKernelMatrix();
}

void RbfSolver::convert(std::span<double> q) const {
  if (m_spec->distance != RbfDistance::SwingAngle && m_spec->distance != RbfDistance::TwistAngle) return;
  for (std::size_t i = 0; i + 3 < q.size(); i += 4)
    (m_spec->distance == RbfDistance::SwingAngle ? swingPart : twistPart)(q.data() + i, int(m_spec->twistAxis));
}

double RbfSolver::distance(std::span<const double> a, std::span<const double> b) const {
  double sum = 0;
  if (m_spec->distance == RbfDistance::Euclidean) {
    for (std::size_t i = 0; i < a.size(); ++i) sum += (a[i] - b[i]) * (a[i] - b[i]);
  } else {
    for (std::size_t i = 0; i + 3 < a.size(); i += 4) {
      const double angle = arcLength(a.data() + i, b.data() + i);
      sum += angle * angle;
    }
  }
  return std::sqrt(sum);
}

double RbfSolver::kernel(double d) const {
  const double r = m_radius;
  switch (m_spec->function) {
    case RbfFunction::Gaussian: return std::exp(-d / (r * r));  // the distance, not its square
    case RbfFunction::Exponential: return std::exp(-2.0 * d / r);
    case RbfFunction::Linear: return std::max(0.0, 1.0 - d / r);
    case RbfFunction::Cubic: return std::max(0.0, 1.0 - std::pow(d / r, 3));
    case RbfFunction::Quintic: return std::max(0.0, 1.0 - std::pow(d / r, 5));
  }
  return 0.0;
}

// K_ij = kernel(distance(target_i, target_j)); K^-1 by LU with partial
// pivoting and implicit row scaling, column by column.
void RbfSolver::invertKernelMatrix() {
  const std::size_t n = m_targets;
  std::vector<double> a(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      a[i * n + j] = kernel(
          distance({m_converted.data() + i * m_inputs, m_inputs}, {m_converted.data() + j * m_inputs, m_inputs}));
  std::vector<double> scale(n, 1.0);
  std::vector<std::size_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) {
    double big = 0;
    for (std::size_t j = 0; j < n; ++j) big = std::max(big, std::abs(a[i * n + j]));
    scale[i] = big == 0.0 ? 1.0 : 1.0 / big;
  }
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t pivot = k;
    double best = -1;
    for (std::size_t i = k; i < n; ++i)
      if (const double v = scale[i] * std::abs(a[i * n + k]); v > best) best = v, pivot = i;
    if (pivot != k) {
      for (std::size_t j = 0; j < n; ++j) std::swap(a[k * n + j], a[pivot * n + j]);
      std::swap(scale[k], scale[pivot]);
    }
    perm[k] = pivot;
    if (a[k * n + k] == 0.0) a[k * n + k] = kTinyPivot;
    for (std::size_t i = k + 1; i < n; ++i) {
      const double f = a[i * n + k] /= a[k * n + k];
      for (std::size_t j = k + 1; j < n; ++j) a[i * n + j] -= f * a[k * n + j];
    }
  }
  m_inverse.assign(n * n, 0.0);
  std::vector<double> col(n);
  for (std::size_t c = 0; c < n; ++c) {
    std::fill(col.begin(), col.end(), 0.0);
    col[c] = 1.0;
    for (std::size_t k = 0; k < n; ++k) std::swap(col[k], col[perm[k]]);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < i; ++j) col[i] -= a[i * n + j] * col[j];
    for (std::size_t i = n; i-- > 0;) {
      for (std::size_t j = i + 1; j < n; ++j) col[i] -= a[i * n + j] * col[j];
      col[i] /= a[i * n + i];
    }
    for (std::size_t r = 0; r < n; ++r) m_inverse[r * n + c] = col[r];
  }
}

void RbfSolver::solve(std::span<const float> controls, std::span<float> weights) {
  const DnaRbfSolver& s = *m_spec;
  if (!m_problem.empty()) {
    std::fill(weights.begin(), weights.end(), 0.0f);
    return;
  }
  for (std::size_t i = 0; i < m_inputs; ++i) m_input[i] = controls[s.rawControls[i]];
  convert(m_input);
  for (std::size_t t = 0; t < m_targets; ++t)
    m_phi[t] = kernel(distance({m_converted.data() + t * m_inputs, m_inputs}, m_input));
  double sum = 0;
  for (std::size_t t = 0; t < m_targets; ++t) {
    double w = m_phi[t];
    if (s.type == RbfSolverType::Interpolative) {
      w = 0;
      for (std::size_t j = 0; j < m_targets; ++j) w += m_inverse[t * m_targets + j] * m_phi[j];
      w = std::clamp(w, 0.0, 1.0);
    }
    weights[t] = float(w);
    sum += w;
  }
  // RigLogic divides by a zero sum under AlwaysNormalize (NaN weights); all
  // weights are zero then, and they stay zero here.
  const double ratio = (sum > 1.0 || s.normalize == RbfNormalize::Always) && sum > 0 ? 1.0 / sum : 1.0;
  for (std::size_t t = 0; t < m_targets; ++t) {
    const double w = double(weights[t]) * ratio * m_scales[t];
    weights[t] = w > double(s.weightThreshold) ? float(w) : 0.0f;
  }
}

}  // namespace riglens::core::dna_detail
