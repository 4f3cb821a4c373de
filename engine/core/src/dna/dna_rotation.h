// Euler <-> quaternion for a DNA's quaternion-represented joints, in the
// DNA's rotation sequence (dsce: xyz, xzy, yxz, yzx, zxy, zyx = 0..5, the
// first axis applied first: xyz is R = Rz * Ry * Rx, Maya's xyz) and signs
// (each angle multiplied by its sign before, and after, the conversion).
// Radians; glm's Euler extraction does the inverse.
#pragma once

#include <array>
#include <cstdint>
#include <glm/gtc/quaternion.hpp>

namespace riglens::core::dna_detail {

glm::dquat eulerToQuat(const glm::dvec3& radians, std::uint32_t sequence, const std::array<float, 3>& signs);
glm::dvec3 quatToEuler(const glm::dquat& q, std::uint32_t sequence, const std::array<float, 3>& signs);

}  // namespace riglens::core::dna_detail
