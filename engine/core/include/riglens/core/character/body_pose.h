// A body pose (the seed's setBodyPose; contract/DECODERS.md C1): parent-
// relative rotations for named joints, which become the GNM rig's joint
// overrides (neck, head, ... on top of their rest), and an optional root
// position that moves the whole character (scene metres).
//
//   {"bones": [{"name": "head", "rotation": [w, x, y, z]}, ...], "rootPos": [x, y, z]}
//
// A bone may say "joint" instead of "name". Rotations are normalised; a zero
// or non-finite one is refused, as are unknown keys' wrong types. Joints the
// rig does not have are skipped by the rig (GnmJointState), as the contract says.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "riglens/core/base/expected.h"

namespace riglens::core {

struct BodyPose {
  std::vector<std::pair<std::string, glm::dquat>> bones;
  glm::dvec3 rootPos{0.0};
  bool operator==(const BodyPose&) const = default;
};

Expected<BodyPose> bodyPoseFromJson(const nlohmann::json& doc, std::string_view source);

}  // namespace riglens::core
