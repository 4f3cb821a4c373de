#include "riglens/core/rig/pose.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace riglens::core {

glm::dmat4 axisRotation(Axis axis, double angle) {
  // Positive pitch elevates: a +z-forward part rotates toward +y, which is a
  // right-handed rotation about x by -angle.
  if (axis == Axis::X) angle = -angle;
  const double c = std::cos(angle), s = std::sin(angle);
  // A right-handed rotation about axis k turns the plane of the next two axes
  // (cyclically: y,z about x; z,x about y; x,y about z).
  const int k = static_cast<int>(axis), i = (k + 1) % 3, j = (k + 2) % 3;
  glm::dmat4 m(1.0);
  m[i][i] = c;
  m[i][j] = s;
  m[j][i] = -s;
  m[j][j] = c;
  return m;
}

glm::dmat4 jointTransform(const Joint& joint, double value) {
  glm::dmat4 driven(1.0);
  const int a = static_cast<int>(joint.axis);
  if (joint.kind == JointKind::Translation) {
    driven[3][a] = value;
  } else {
    const glm::dvec3 p(joint.pivot[0], joint.pivot[1], joint.pivot[2]);
    glm::dmat4 to(1.0), from(1.0);
    to[3] = glm::dvec4(p, 1.0);
    from[3] = glm::dvec4(-p, 1.0);
    driven = to * axisRotation(joint.axis, value) * from;
  }
  return joint.hasMount ? joint.mount * driven : driven;
}

double clampJointValue(const Joint& joint, double value) {
  return value < joint.min ? joint.min : value > joint.max ? joint.max : value;
}

std::vector<double> restJointValues(const Rig& rig) {
  std::vector<double> values;
  values.reserve(rig.joints().size());
  for (const auto& j : rig.joints()) values.push_back(clampJointValue(j, j.rest));
  return values;
}

void poseRig(const Rig& rig, std::span<const double> jointValues, std::span<glm::mat4> partWorlds) {
  assert(jointValues.size() == rig.joints().size());
  assert(partWorlds.size() == rig.parts().size());
  std::vector<glm::dmat4> worlds(rig.parts().size(), glm::dmat4(1.0));
  for (int index : rig.evaluationOrder()) {
    const Part& part = rig.parts()[index];
    glm::dmat4 local(1.0);
    for (int j : part.joints) {
      const Joint& joint = rig.joints()[j];
      local = local * jointTransform(joint, clampJointValue(joint, jointValues[j]));
    }
    worlds[index] = part.parent == kNoIndex ? local : worlds[part.parent] * local;
    partWorlds[index] = glm::mat4(worlds[index]);
  }
}

std::vector<glm::mat4> poseRig(const Rig& rig, std::span<const double> jointValues) {
  std::vector<glm::mat4> worlds(rig.parts().size());
  poseRig(rig, jointValues, worlds);
  return worlds;
}

}  // namespace riglens::core
