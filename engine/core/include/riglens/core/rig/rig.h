// Rig: the validated, immutable rig that posing, sampling, the controller,
// the renderer and the exporter use. Built from a RawRig by buildRig, which
// resolves names to indices, groups joints per part, binds tracks to joints,
// fixes the part evaluation order and precomputes each joint's mount.
#pragma once

#include <glm/mat4x4.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "riglens/core/base/diagnostic.h"
#include "riglens/core/base/expected.h"
#include "riglens/core/rig/rig_spec.h"

namespace riglens::core {

inline constexpr int kNoIndex = -1;

struct Part {
  std::string name;
  int parent = kNoIndex;  // effective parent (missing parents and cycles -> root)
  std::optional<std::string> declaredParent;
  Vec3d pivot{};
  std::vector<int> joints;  // joints moving this part, in declared order
};

struct Joint : JointMotion {
  std::string name;
  int part = kNoIndex;    // kNoIndex: its part does not exist; it moves nothing
  bool hasMount = false;  // offset or orient not zero
  glm::dmat4 mount{1.0};  // T(offset) T(pivot) Rz Ry Rx T(-pivot)
};

struct Track {
  int joint = kNoIndex;
  std::vector<Keyframe> keyframes;  // in time order
};

struct Animation {
  std::string name;
  double periodMs = 0.0;
  bool looping = false;
  bool autoPlay = false;
  std::vector<int> requiredJoints;
  std::vector<Track> tracks;  // only tracks bound to existing joints
};

class Rig {
 public:
  Rig() = default;

  const std::vector<Part>& parts() const { return m_parts; }
  const std::vector<Joint>& joints() const { return m_joints; }
  const std::vector<Animation>& animations() const { return m_animations; }
  // Part indices ordered so that every parent precedes its children.
  const std::vector<int>& evaluationOrder() const { return m_order; }

  int findPart(std::string_view name) const;
  int findJoint(std::string_view name) const;
  int findAnimation(std::string_view name) const;

  // Joint names with the given drive, in declared order.
  std::vector<std::string> jointNames(Drive drive) const;

  // A rig with one part and nothing else (a static model).
  static Rig singlePart(std::string name);

 private:
  friend struct RigBuilder;
  std::vector<Part> m_parts;
  std::vector<Joint> m_joints;
  std::vector<Animation> m_animations;
  std::vector<int> m_order;
};

struct BuiltRig {
  Rig rig;
  Diagnostics warnings;
};

// Validates `raw` and builds the Rig. Fatal problems (duplicate names,
// min > max, an animation without a name) fail with a message naming
// `sourceName` and the JSON pointer; problems the runtime tolerates (unknown
// parent, cycle, a joint on an unknown part, a track on an unknown joint,
// rest outside its range, keys outside the period) are warnings.
// `pointerPrefix` is where the ModelSpec sits in its file.
Expected<BuiltRig> buildRig(const RawRig& raw, std::string_view sourceName, std::string_view pointerPrefix = "");

}  // namespace riglens::core
