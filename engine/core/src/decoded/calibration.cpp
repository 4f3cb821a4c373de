#include "riglens/core/decoded/calibration.h"

#include <cmath>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <sstream>

namespace riglens::core {
namespace {

glm::dvec3 at(std::span<const float> v, std::size_t i) {
  return {v[i * 3], v[i * 3 + 1], v[i * 3 + 2]};
}

glm::dvec3 centroid(std::span<const float> v) {
  glm::dvec3 sum(0.0);
  const std::size_t n = v.size() / 3;
  for (std::size_t i = 0; i < n; ++i) sum += at(v, i);
  return n ? sum / double(n) : sum;
}

}  // namespace

std::string Calibration::describe() const {
  std::ostringstream s;
  s << "scale " << scale << ", residual " << residual << " (limit " << tolerance << ")";
  return s.str();
}

Expected<Calibration> calibrate(std::span<const float> pred, std::span<const float> neutral) {
  if (pred.size() != neutral.size() || pred.size() % 3 != 0 || pred.empty())
    return makeError(ErrorCode::Invalid, "calibration: the rig deforms " + std::to_string(pred.size() / 3) +
                                             " vertices, the branch mesh has " + std::to_string(neutral.size() / 3));
  const std::size_t n = pred.size() / 3;
  const glm::dvec3 cs = centroid(pred), cd = centroid(neutral);
  // H[i][j] = sum a_i b_j over centred rows; kept as rows (glm is column-major).
  double H[3][3] = {};
  double spread = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const glm::dvec3 a = at(pred, k) - cs, b = at(neutral, k) - cd;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) H[i][j] += a[i] * b[j];
    spread += glm::dot(a, a);
  }
  glm::dmat3 R;  // R[col][row] = H[row][col]
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R[j][i] = H[i][j];
  if (std::fabs(glm::determinant(R)) < 1e-30) R = glm::dmat3(1.0);
  for (int iter = 0; iter < 24; ++iter) {  // polar: R <- (R + R^-T) / 2
    const glm::dmat3 next = 0.5 * (R + glm::transpose(glm::inverse(R)));
    double change = 0.0;
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) change += std::fabs(next[c][r] - R[c][r]);
    R = next;
    if (change < 1e-12) break;
  }
  if (glm::determinant(R) < 0)
    return makeError(ErrorCode::Invalid, "calibration: the fit from rig space to the mesh needs a reflection");
  double num = 0.0;  // sum_k R_k . H_k (row k of each)
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) num += R[j][i] * H[i][j];
  Calibration c;
  c.scale = spread > 0 ? num / spread : 1.0;
  const glm::dmat3 L = c.scale * R;  // applied to row vectors: (v L)_j = sum_i v_i L[i][j] = sum_i v_i R_glm[j][i]
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c.transform.L[std::size_t(i * 3 + j)] = float(L[j][i]);
  const glm::dvec3 o = cd - glm::dvec3(glm::dot(cs, glm::dvec3(L[0][0], L[0][1], L[0][2])),
                                       glm::dot(cs, glm::dvec3(L[1][0], L[1][1], L[1][2])),
                                       glm::dot(cs, glm::dvec3(L[2][0], L[2][1], L[2][2])));
  c.transform.o = glm::vec3(o);
  c.transform.corr.resize(pred.size());
  double residual = 0.0, radius = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    const glm::dvec3 a = at(pred, k);
    const glm::dvec3 mapped = glm::dvec3(glm::dot(a, glm::dvec3(L[0][0], L[0][1], L[0][2])),
                                         glm::dot(a, glm::dvec3(L[1][0], L[1][1], L[1][2])),
                                         glm::dot(a, glm::dvec3(L[2][0], L[2][1], L[2][2]))) +
                              o;
    const glm::dvec3 corr = at(neutral, k) - mapped;
    for (int j = 0; j < 3; ++j) c.transform.corr[k * 3 + std::size_t(j)] = float(corr[j]);
    residual += glm::length(corr);
    radius += glm::length(at(neutral, k) - cd);
  }
  c.residual = residual / double(n);
  c.tolerance = 0.05 * radius / double(n);
  return c;
}

}  // namespace riglens::core
