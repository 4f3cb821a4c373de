#include "riglens/core/character/body_pose.h"

#include <cmath>

#include "riglens/core/base/json_reader.h"

namespace riglens::core {

Expected<BodyPose> bodyPoseFromJson(const nlohmann::json& doc, std::string_view source) {
  return guardRead(source, [&] {
    const JsonRef root(doc);
    root.object();
    BodyPose pose;
    if (auto bones = root.find("bones")) {
      bones->arrayAtMost(4096);
      for (const JsonRef& bone : bones->elements()) {
        bone.object();
        const auto name = bone.find("name") ? bone["name"] : bone["joint"];
        const auto q = bone["rotation"].numbers<4>();
        const double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (!(norm > 1e-12) || !std::isfinite(norm))
          bone["rotation"].fail("a rotation needs a non-zero, finite quaternion (w, x, y, z)");
        pose.bones.emplace_back(name.string(), glm::dquat(q[0] / norm, q[1] / norm, q[2] / norm, q[3] / norm));
      }
    }
    if (auto root_pos = root.find("rootPos")) {
      const auto p = root_pos->numbers<3>();
      pose.rootPos = {p[0], p[1], p[2]};
    }
    return pose;
  });
}

}  // namespace riglens::core
