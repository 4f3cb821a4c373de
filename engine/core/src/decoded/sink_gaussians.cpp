#include "riglens/core/decoded/sink_gaussians.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include "riglens/core/base/color.h"
#include "riglens/core/decoded/uv_lift.h"
#include "riglens/core/splats/spherical_harmonics.h"

namespace riglens::core {
namespace {

float logit(float p) {
  p = std::clamp(p, 1e-6f, 1.0f - 1e-6f);
  return std::log(p / (1.0f - p));
}

}  // namespace

std::vector<RawGaussian> sinkGaussians(const SplatSink& sink) {
  std::vector<RawGaussian> out;
  for (std::size_t s = 0; s < sink.capacity(); ++s) {
    if (sink.color[s] == 0u) continue;
    const float* a = &sink.covarianceA[s * 4];
    const float* b = &sink.covarianceB[s * 4];
    std::array<float, 3> lambda;
    std::array<float, 9> v;
    symmetricEigen3({a[0], a[1], a[2], a[3], b[0], b[1]}, lambda, v);
    glm::mat3 R;  // columns: the eigenvectors
    for (int k = 0; k < 3; ++k) R[k] = {v[std::size_t(k)], v[std::size_t(3 + k)], v[std::size_t(6 + k)]};
    if (glm::determinant(R) < 0) R[0] = -R[0];
    const glm::quat q = glm::normalize(glm::quat_cast(R));
    const auto rgba = unpackRgba(sink.color[s]);
    RawGaussian g;
    g.position = {sink.center[s * 4], sink.center[s * 4 + 1], sink.center[s * 4 + 2]};
    for (int k = 0; k < 3; ++k) {
      g.logScale[std::size_t(k)] = 0.5f * std::log(std::max(lambda[std::size_t(k)], 1e-20f));
      g.dc[std::size_t(k)] = (rgba[std::size_t(k)] - 0.5f) / kShC0;
    }
    g.opacityLogit = logit(rgba[3]);
    g.rotation = {q.w, q.x, q.y, q.z};
    out.push_back(g);
  }
  return out;
}

}  // namespace riglens::core
