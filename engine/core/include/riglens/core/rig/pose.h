// Posing a rig into one world matrix per part (contract/RIG.md, "Posing").
//
//   Rx(a) = right-handed rotation about x by -a   ("positive pitch elevates")
//   Ry(a), Rz(a) = right-handed rotations by a
//   driven(j) = T(axis * v)                     translation joints (pivot unused)
//             = T(pivot) R_axis(v) T(-pivot)    rotation joints
//   joint(j)  = mount(j) * driven(j)
//   local(P)  = joint(j1) * joint(j2) * ...     P's joints in declared order
//   world(P)  = world(parent) * local(P)
//
// Matrices are column-major and act on column vectors; arithmetic is double,
// results are rounded to float once at the end.
#pragma once

#include <glm/mat4x4.hpp>
#include <span>
#include <vector>

#include "riglens/core/rig/rig.h"

namespace riglens::core {

// The contract's axis rotation (x mirrored).
glm::dmat4 axisRotation(Axis axis, double angle);

// mount(j) * driven(j) at `value` (not clamped here).
glm::dmat4 jointTransform(const Joint& joint, double value);

// `value` clamped to the joint's [min, max].
double clampJointValue(const Joint& joint, double value);

// The value of every joint at rest (each joint's rest, clamped).
std::vector<double> restJointValues(const Rig& rig);

// World matrix per part for one value per joint (clamped here). Sizes:
// jointValues == rig.joints().size(), partWorlds == rig.parts().size().
void poseRig(const Rig& rig, std::span<const double> jointValues, std::span<glm::mat4> partWorlds);
std::vector<glm::mat4> poseRig(const Rig& rig, std::span<const double> jointValues);

}  // namespace riglens::core
