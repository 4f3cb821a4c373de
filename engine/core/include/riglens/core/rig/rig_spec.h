// The rig as written in rig.json (contract/RIG.md, "rig.json (ModelSpec)"):
// raw, parsed, not yet validated. `buildRig` (rig.h) turns it into a Rig.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace riglens::core {

enum class JointKind { Rotation, Translation };
enum class Axis { X = 0, Y = 1, Z = 2 };
enum class Drive { Caller, Auto };
enum class Interp { Constant, Linear, Bezier, EaseIn, EaseOut, EaseInOut };

const char* jointKindName(JointKind kind);
const char* axisName(Axis axis);
const char* driveName(Drive drive);
const char* interpName(Interp interp);

using Vec3d = std::array<double, 3>;
using Handle = std::array<double, 2>;  // [dt_ms, dvalue], relative to its key

struct Keyframe {
  double tMs = 0.0;
  double value = 0.0;
  Interp interp = Interp::Linear;   // the segment LEAVING this key
  std::optional<Handle> outHandle;  // absent = auto tangent
  std::optional<Handle> inHandle;
};

struct RawPart {
  std::string name;
  std::optional<std::string> parent;
  Vec3d pivot{};
};

// How a joint moves its part, as the file declares it; the built rig's Joint
// keeps it as is.
struct JointMotion {
  JointKind kind = JointKind::Rotation;
  Axis axis = Axis::Y;
  Vec3d pivot{};
  double min = 0.0, max = 0.0, rest = 0.0;
  Vec3d offset{};  // fixed mount translation, voxels
  Vec3d orient{};  // fixed mount rotation, radians (X then Y then Z, about pivot)
  Drive drive = Drive::Caller;
};

struct RawJoint : JointMotion {
  std::string name;
  std::string part;
};

struct RawTrack {
  std::string joint;
  std::vector<Keyframe> keyframes;
};

struct RawAnimation {
  std::string name;
  double periodMs = 0.0;
  bool looping = false;
  bool autoPlay = false;
  std::vector<std::string> joints;  // joints it is required to drive
  std::vector<RawTrack> tracks;
  // Where it came from in the file, for diagnostics ("/animations/1" or the
  // legacy "/joints/3/drive" auto clip).
  std::string pointer;
};

struct RawRig {
  std::vector<RawPart> parts;
  std::vector<RawJoint> joints;
  std::vector<RawAnimation> animations;
  // What the parse noticed and left out (keys the contract does not define,
  // e.g. a misspelt "jionts"); buildRig passes them on as warnings.
  std::vector<std::pair<std::string, std::string>> ignored;  // (pointer, message)
};

}  // namespace riglens::core
