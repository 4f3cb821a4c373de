#include "riglens/core/splats/spherical_harmonics.h"

#include <glm/common.hpp>

namespace riglens::core {

glm::vec3 shColor(const float* dc, const float* rest, int degree, glm::vec3 dir) {
  constexpr float C1 = 0.4886025119029199f;
  constexpr float C2[5] = {1.0925484305920792f, -1.0925484305920792f, 0.31539156525252005f, -1.0925484305920792f,
                           0.5462742152960396f};
  constexpr float C3[7] = {-0.5900435899266435f, 2.890611442640554f, -0.4570457994644658f, 0.3731763325901154f,
                           -0.4570457994644658f, 1.445305721320277f, -0.5900435899266435f};
  const float x = dir.x, y = dir.y, z = dir.z;
  const float xx = x * x, yy = y * y, zz = z * z;
  // The basis functions of bands 1-3, in the order of f_rest.
  const float basis[15] = {-C1 * y,
                           C1 * z,
                           -C1 * x,
                           C2[0] * x * y,
                           C2[1] * y * z,
                           C2[2] * (2 * zz - xx - yy),
                           C2[3] * x * z,
                           C2[4] * (xx - yy),
                           C3[0] * y * (3 * xx - yy),
                           C3[1] * x * y * z,
                           C3[2] * y * (4 * zz - xx - yy),
                           C3[3] * z * (2 * zz - 3 * xx - 3 * yy),
                           C3[4] * x * (4 * zz - xx - yy),
                           C3[5] * z * (xx - yy),
                           C3[6] * x * (xx - 3 * yy)};
  const int K = (degree + 1) * (degree + 1) - 1;
  glm::vec3 rgb;
  for (int c = 0; c < 3; ++c) {
    float v = 0.5f + kShC0 * dc[c];
    for (int k = 0; k < K; ++k) v += basis[k] * rest[c * K + k];
    rgb[c] = v;
  }
  return glm::max(rgb, glm::vec3(0.0f));
}

}  // namespace riglens::core
