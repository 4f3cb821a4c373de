#include "riglens/core/rig_json.h"

#include <cmath>

namespace riglens::core {
namespace {

using nlohmann::json;

// Thrown only inside this file and turned into an Error at the boundary:
// the parse walks deep structures and every step can fail.
struct ParseFailure {
  std::string pointer;
  std::string message;
};

class SpecReader {
 public:
  explicit SpecReader(std::string_view prefix) : m_prefix(prefix) {}

  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    throw ParseFailure{m_prefix + pointer, message};
  }

  const json& member(const json& obj, const std::string& ptr, const char* key) const {
    auto it = obj.find(key);
    if (it == obj.end()) fail(ptr, std::string("missing required key '") + key + "'");
    return *it;
  }

  const json& object(const json& value, const std::string& ptr) const {
    if (!value.is_object()) fail(ptr, "expected an object, got " + std::string(value.type_name()));
    return value;
  }

  const json& array(const json& value, const std::string& ptr) const {
    if (!value.is_array()) fail(ptr, "expected an array, got " + std::string(value.type_name()));
    return value;
  }

  std::string string(const json& value, const std::string& ptr) const {
    if (!value.is_string()) fail(ptr, "expected a string, got " + std::string(value.type_name()));
    return value.get<std::string>();
  }

  double number(const json& value, const std::string& ptr) const {
    if (!value.is_number()) fail(ptr, "expected a number, got " + std::string(value.type_name()));
    const double v = value.get<double>();
    if (!std::isfinite(v)) fail(ptr, "number is not finite");
    return v;
  }

  bool boolean(const json& value, const std::string& ptr) const {
    if (!value.is_boolean()) fail(ptr, "expected true or false, got " + std::string(value.type_name()));
    return value.get<bool>();
  }

  template <std::size_t N>
  std::array<double, N> numbers(const json& value, const std::string& ptr) const {
    if (!value.is_array() || value.size() != N)
      fail(ptr, "expected an array of " + std::to_string(N) + " numbers");
    std::array<double, N> out{};
    for (std::size_t i = 0; i < N; ++i) out[i] = number(value[i], ptr + "/" + std::to_string(i));
    return out;
  }

  // Optional keys: absent gives the fallback; present must have the type.
  double optNumber(const json& obj, const std::string& ptr, const char* key, double fallback) const {
    auto it = obj.find(key);
    return it == obj.end() ? fallback : number(*it, ptr + "/" + key);
  }
  bool optBool(const json& obj, const std::string& ptr, const char* key, bool fallback) const {
    auto it = obj.find(key);
    return it == obj.end() ? fallback : boolean(*it, ptr + "/" + key);
  }
  Vec3d optVec3(const json& obj, const std::string& ptr, const char* key) const {
    auto it = obj.find(key);
    return it == obj.end() ? Vec3d{} : numbers<3>(*it, ptr + "/" + key);
  }

  template <class Enum, std::size_t N>
  Enum choice(const json& value, const std::string& ptr,
              const std::array<std::pair<const char*, Enum>, N>& options) const {
    const std::string text = string(value, ptr);
    std::string allowed;
    for (const auto& [name, e] : options) {
      if (text == name) return e;
      allowed += allowed.empty() ? "" : ", ";
      allowed += name;
    }
    fail(ptr, "'" + text + "' is not one of " + allowed);
  }

  Keyframe keyframe(const json& value, const std::string& ptr, Interp defaultInterp) const {
    object(value, ptr);
    Keyframe key;
    key.tMs = number(member(value, ptr, "tMs"), ptr + "/tMs");
    key.value = number(member(value, ptr, "value"), ptr + "/value");
    key.interp = defaultInterp;
    if (auto it = value.find("interp"); it != value.end())
      key.interp = choice(*it, ptr + "/interp", kInterps);
    if (auto it = value.find("outHandle"); it != value.end()) key.outHandle = numbers<2>(*it, ptr + "/outHandle");
    if (auto it = value.find("inHandle"); it != value.end()) key.inHandle = numbers<2>(*it, ptr + "/inHandle");
    return key;
  }

  std::vector<Keyframe> keyframes(const json& value, const std::string& ptr, Interp defaultInterp) const {
    array(value, ptr);
    std::vector<Keyframe> keys;
    for (std::size_t i = 0; i < value.size(); ++i) {
      const std::string kp = ptr + "/" + std::to_string(i);
      keys.push_back(keyframe(value[i], kp, defaultInterp));
      if (i > 0 && keys[i].tMs < keys[i - 1].tMs)
        fail(kp + "/tMs", "keys are not in time order (" + std::to_string(keys[i].tMs) + " ms after " +
                              std::to_string(keys[i - 1].tMs) + " ms)");
    }
    return keys;
  }

  // A legacy auto clip ({keyframes, periodMs, looping}) as an autoPlay
  // animation of one joint, named after the joint (contract: "Older runs").
  RawAnimation legacyClip(const json& clip, const std::string& ptr, const std::string& jointName) const {
    object(clip, ptr);
    RawAnimation anim;
    anim.name = jointName;
    anim.periodMs = optNumber(clip, ptr, "periodMs", 0.0);
    anim.looping = optBool(clip, ptr, "looping", true);
    anim.autoPlay = true;
    anim.joints = {jointName};
    anim.tracks.push_back({jointName, keyframes(member(clip, ptr, "keyframes"), ptr + "/keyframes", Interp::Linear)});
    anim.pointer = m_prefix + ptr;
    return anim;
  }

  static constexpr std::array<std::pair<const char*, Interp>, 6> kInterps{{
      {"constant", Interp::Constant}, {"linear", Interp::Linear}, {"bezier", Interp::Bezier},
      {"ease-in", Interp::EaseIn}, {"ease-out", Interp::EaseOut}, {"ease-in-out", Interp::EaseInOut}}};
  static constexpr std::array<std::pair<const char*, JointKind>, 2> kKinds{{
      {"rotation", JointKind::Rotation}, {"translation", JointKind::Translation}}};
  static constexpr std::array<std::pair<const char*, Axis>, 3> kAxes{{
      {"x", Axis::X}, {"y", Axis::Y}, {"z", Axis::Z}}};
  static constexpr std::array<std::pair<const char*, Drive>, 2> kDrives{{
      {"caller", Drive::Caller}, {"auto", Drive::Auto}}};

  RawRig rig(const json& spec) const {
    object(spec, "");
    RawRig rig;
    const json& parts = array(member(spec, "", "parts"), "/parts");
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const std::string ptr = "/parts/" + std::to_string(i);
      const json& p = object(parts[i], ptr);
      RawPart part;
      part.name = string(member(p, ptr, "name"), ptr + "/name");
      if (auto it = p.find("parent"); it != p.end() && !it->is_null())
        part.parent = string(*it, ptr + "/parent");
      part.pivot = optVec3(p, ptr, "pivot");
      rig.parts.push_back(std::move(part));
    }

    const json& joints = spec.contains("joints") ? array(spec["joints"], "/joints") : json::array();
    for (std::size_t i = 0; i < joints.size(); ++i) {
      const std::string ptr = "/joints/" + std::to_string(i);
      const json& j = object(joints[i], ptr);
      RawJoint joint;
      joint.name = string(member(j, ptr, "name"), ptr + "/name");
      joint.part = string(member(j, ptr, "part"), ptr + "/part");
      joint.kind = choice(member(j, ptr, "kind"), ptr + "/kind", kKinds);
      joint.axis = choice(member(j, ptr, "axis"), ptr + "/axis", kAxes);
      joint.pivot = optVec3(j, ptr, "pivot");
      joint.min = number(member(j, ptr, "min"), ptr + "/min");
      joint.max = number(member(j, ptr, "max"), ptr + "/max");
      joint.rest = optNumber(j, ptr, "rest", 0.0);
      joint.offset = optVec3(j, ptr, "offset");
      joint.orient = optVec3(j, ptr, "orient");
      const json& drive = member(j, ptr, "drive");
      if (drive.is_object()) {  // legacy: {"type": "auto", keyframes, periodMs, looping}
        joint.drive = choice(member(drive, ptr + "/drive", "type"), ptr + "/drive/type", kDrives);
        if (drive.contains("keyframes")) rig.animations.push_back(legacyClip(drive, ptr + "/drive", joint.name));
      } else {
        joint.drive = choice(drive, ptr + "/drive", kDrives);
        if (auto it = j.find("auto"); it != j.end() && !it->is_null())  // legacy: "auto": {...}
          rig.animations.push_back(legacyClip(*it, ptr + "/auto", joint.name));
      }
      rig.joints.push_back(std::move(joint));
    }

    if (auto it = spec.find("animations"); it != spec.end() && !it->is_null()) {
      const json& anims = array(*it, "/animations");
      for (std::size_t i = 0; i < anims.size(); ++i) {
        const std::string ptr = "/animations/" + std::to_string(i);
        const json& a = object(anims[i], ptr);
        RawAnimation anim;
        anim.pointer = m_prefix + ptr;
        anim.name = string(member(a, ptr, "name"), ptr + "/name");
        anim.periodMs = number(member(a, ptr, "periodMs"), ptr + "/periodMs");
        if (anim.periodMs < 0) fail(ptr + "/periodMs", "period is negative");
        anim.looping = optBool(a, ptr, "looping", false);
        anim.autoPlay = optBool(a, ptr, "autoPlay", false);
        if (auto jt = a.find("joints"); jt != a.end()) {
          array(*jt, ptr + "/joints");
          for (std::size_t k = 0; k < jt->size(); ++k)
            anim.joints.push_back(string((*jt)[k], ptr + "/joints/" + std::to_string(k)));
        }
        if (auto tt = a.find("tracks"); tt != a.end() && !tt->is_null()) {
          array(*tt, ptr + "/tracks");
          for (std::size_t k = 0; k < tt->size(); ++k) {
            const std::string tp = ptr + "/tracks/" + std::to_string(k);
            const json& t = object((*tt)[k], tp);
            RawTrack track;
            track.joint = string(member(t, tp, "joint"), tp + "/joint");
            track.keyframes = keyframes(member(t, tp, "keyframes"), tp + "/keyframes", Interp::Linear);
            anim.tracks.push_back(std::move(track));
          }
        }
        rig.animations.push_back(std::move(anim));
      }
    }
    return rig;
  }

 private:
  std::string m_prefix;
};

}  // namespace

Expected<RawRig> parseRigSpec(const json& spec, std::string_view sourceName, std::string_view pointerPrefix) {
  try {
    return SpecReader(pointerPrefix).rig(spec);
  } catch (const ParseFailure& failure) {
    std::string message(sourceName);
    message += ": " + (failure.pointer.empty() ? std::string("/") : failure.pointer) + ": " + failure.message;
    return makeError(ErrorCode::Invalid, std::move(message));
  }
}

const char* jointKindName(JointKind kind) { return kind == JointKind::Rotation ? "rotation" : "translation"; }
const char* axisName(Axis axis) { return axis == Axis::X ? "x" : axis == Axis::Y ? "y" : "z"; }
const char* driveName(Drive drive) { return drive == Drive::Caller ? "caller" : "auto"; }
const char* interpName(Interp interp) {
  switch (interp) {
    case Interp::Constant: return "constant";
    case Interp::Linear: return "linear";
    case Interp::Bezier: return "bezier";
    case Interp::EaseIn: return "ease-in";
    case Interp::EaseOut: return "ease-out";
    case Interp::EaseInOut: return "ease-in-out";
  }
  return "linear";
}

}  // namespace riglens::core
