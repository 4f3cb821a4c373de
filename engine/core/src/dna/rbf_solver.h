// One RBF solver of a DNA (contract/ORL.md 2.5 step 3), prepared at load:
// targets reduced to their swing or twist part when the distance asks for
// it, the radius (automatic: the mean distance over target pairs; stored:
// degrees converted to radians for a degrees DNA), and for an interpolative
// solver the inverse of the kernel matrix between targets. solve() fills
// one weight per pose and allocates nothing.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "riglens/core/dna/dna.h"

namespace riglens::core::dna_detail {

class RbfSolver {
 public:
  RbfSolver(const DnaRbfSolver& solver, std::span<const DnaRbfPose> poses, bool degrees);

  // Reads the solver's inputs from `controls`; writes one weight per pose of
  // the solver (normalised, times the pose's scale, thresholded).
  void solve(std::span<const float> controls, std::span<float> weights);
  const DnaRbfSolver& spec() const { return *m_spec; }
  double radius() const { return m_radius; }
  // Why the solver cannot weigh anything (fewer than two targets for an automatic radius), or empty.
  const std::string& problem() const { return m_problem; }

  // The distance between two input vectors after conversion, by the solver's method.
  double distance(std::span<const double> a, std::span<const double> b) const;
  double kernel(double d) const;
  void convert(std::span<double> quaternions) const;  // swing / twist part, per quaternion

 private:
  void invertKernelMatrix();

  const DnaRbfSolver* m_spec;
  std::size_t m_inputs = 0, m_targets = 0;
  std::vector<double> m_converted;     // targets after conversion, pose-major
  std::vector<double> m_inverse;       // interpolative: K^-1, row-major
  std::vector<double> m_input, m_phi;  // scratch, sized at load
  std::vector<double> m_scales;        // per target: its pose's scale
  double m_radius = 0;
  std::string m_problem;
};

}  // namespace riglens::core::dna_detail
