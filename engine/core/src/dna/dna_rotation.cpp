#include "dna_rotation.h"

#define GLM_ENABLE_EXPERIMENTAL
#include <glm/gtx/euler_angles.hpp>

namespace riglens::core::dna_detail {
namespace {

// The axes in the order they are applied, per sequence.
constexpr std::array<std::array<int, 3>, 6> kOrder{{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};

glm::dvec3 axis(int a) {
  glm::dvec3 v(0.0);
  v[a] = 1.0;
  return v;
}

}  // namespace

glm::dquat eulerToQuat(const glm::dvec3& radians, std::uint32_t sequence, const std::array<float, 3>& signs) {
  const auto& order = kOrder[sequence % 6];
  glm::dquat q(1.0, 0.0, 0.0, 0.0);
  for (int a : order)
    q = glm::angleAxis(radians[a] * double(signs[std::size_t(a)]), axis(a)) * q;  // later axes on the left
  return q;
}

glm::dvec3 quatToEuler(const glm::dquat& q, std::uint32_t sequence, const std::array<float, 3>& signs) {
  const glm::dmat4 m = glm::mat4_cast(glm::normalize(q));
  double t1 = 0, t2 = 0, t3 = 0;
  glm::dvec3 e(0.0);
  // glm's extractEulerAngleABC reads M = RA(t1) * RB(t2) * RC(t3): the last letter applied first.
  switch (sequence % 6) {
    case 0: glm::extractEulerAngleZYX(m, t1, t2, t3), e = {t3, t2, t1}; break;   // xyz: Rz Ry Rx
    case 1: glm::extractEulerAngleYZX(m, t1, t2, t3), e = {t3, t1, t2}; break;   // xzy: Ry Rz Rx
    case 2: glm::extractEulerAngleZXY(m, t1, t2, t3), e = {t2, t3, t1}; break;   // yxz: Rz Rx Ry
    case 3: glm::extractEulerAngleXZY(m, t1, t2, t3), e = {t1, t3, t2}; break;   // yzx: Rx Rz Ry
    case 4: glm::extractEulerAngleYXZ(m, t1, t2, t3), e = {t2, t1, t3}; break;   // zxy: Ry Rx Rz
    default: glm::extractEulerAngleXYZ(m, t1, t2, t3), e = {t1, t2, t3}; break;  // zyx: Rx Ry Rz
  }
  return {e.x * signs[0], e.y * signs[1], e.z * signs[2]};
}

}  // namespace riglens::core::dna_detail
