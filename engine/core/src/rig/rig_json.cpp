#include "riglens/core/rig/rig_json.h"

#include <algorithm>
#include <array>
#include <initializer_list>

#include "riglens/core/base/json_reader.h"

namespace riglens::core {
namespace {

using nlohmann::json;

constexpr std::array<std::pair<const char*, Interp>, 6> kInterps{{{"constant", Interp::Constant},
                                                                  {"linear", Interp::Linear},
                                                                  {"bezier", Interp::Bezier},
                                                                  {"ease-in", Interp::EaseIn},
                                                                  {"ease-out", Interp::EaseOut},
                                                                  {"ease-in-out", Interp::EaseInOut}}};
constexpr std::array<std::pair<const char*, JointKind>, 2> kKinds{
    {{"rotation", JointKind::Rotation}, {"translation", JointKind::Translation}}};
constexpr std::array<std::pair<const char*, Axis>, 3> kAxes{{{"x", Axis::X}, {"y", Axis::Y}, {"z", Axis::Z}}};
constexpr std::array<std::pair<const char*, Drive>, 2> kDrives{{{"caller", Drive::Caller}, {"auto", Drive::Auto}}};

// Keys the contract defines for each object; any other key is reported (a
// misspelt "jionts" would otherwise leave a rig without joints, silently).
void noteUnknownKeys(const JsonRef& obj, std::initializer_list<std::string_view> known, RawRig& rig) {
  for (const auto& [key, value] : obj.members())
    if (std::find(known.begin(), known.end(), key) == known.end())
      rig.ignored.emplace_back(value.pointer(), "unknown key '" + key + "'; ignored");
}

// A clip longer than this (an hour) parses but cannot be meant: idles and
// actions are seconds, cutscenes minutes; 1e308 ms is a corrupt field.
constexpr double kMaxPlausibleClipMs = 60.0 * 60.0 * 1000.0;

void notePlausiblePeriod(const JsonRef& period, double ms, RawRig& rig) {
  if (ms > kMaxPlausibleClipMs)
    rig.ignored.emplace_back(
        period.pointer(),
        "period " + period.json().dump() + " ms is longer than an hour; loaded as given, but it cannot be meant");
}

Vec3d optVec3(const JsonRef& obj, const char* key) {
  const auto member = obj.find(key);
  return member ? member->numbers<3>() : Vec3d{};
}

Keyframe keyframe(const JsonRef& value, Interp defaultInterp, RawRig& rig) {
  value.object();
  noteUnknownKeys(value, {"tMs", "value", "interp", "outHandle", "inHandle"}, rig);
  Keyframe key;
  key.tMs = value["tMs"].number();
  key.value = value["value"].number();
  key.interp = defaultInterp;
  if (auto interp = value.find("interp")) key.interp = interp->choice(kInterps);
  if (auto out = value.find("outHandle")) key.outHandle = out->numbers<2>();
  if (auto in = value.find("inHandle")) key.inHandle = in->numbers<2>();
  return key;
}

std::vector<Keyframe> keyframes(const JsonRef& value, Interp defaultInterp, RawRig& rig) {
  std::vector<Keyframe> keys;
  keys.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    const JsonRef entry = value.at(i);
    keys.push_back(keyframe(entry, defaultInterp, rig));
    if (i > 0 && keys[i].tMs < keys[i - 1].tMs)
      throwReadProblem(entry.pointer() + "/tMs", "keys are not in time order (" + std::to_string(keys[i].tMs) +
                                                     " ms after " + std::to_string(keys[i - 1].tMs) + " ms)");
  }
  return keys;
}

// A legacy auto clip ({keyframes, periodMs, looping}) as an autoPlay
// animation of one joint, named after the joint (contract: "Older runs").
RawAnimation legacyClip(const JsonRef& clip, const std::string& jointName, RawRig& rig) {
  clip.object();
  noteUnknownKeys(clip, {"type", "keyframes", "periodMs", "looping"}, rig);
  RawAnimation anim;
  anim.name = jointName;
  anim.periodMs = clip.numberOr("periodMs", 0.0);
  if (const auto period = clip.find("periodMs")) notePlausiblePeriod(*period, anim.periodMs, rig);
  anim.looping = clip.booleanOr("looping", true);
  anim.autoPlay = true;
  anim.joints = {jointName};
  anim.tracks.push_back({jointName, keyframes(clip["keyframes"], Interp::Linear, rig)});
  anim.pointer = clip.pointer();
  return anim;
}

RawRig readRig(const JsonRef& spec) {
  spec.object();
  RawRig rig;
  // A run record's rig may carry the producer's own fields beside these.
  if (spec.pointer().empty()) noteUnknownKeys(spec, {"parts", "joints", "animations"}, rig);
  const JsonRef parts = spec["parts"];
  for (const JsonRef& p : parts.elements()) {
    p.object();
    noteUnknownKeys(p, {"name", "parent", "pivot"}, rig);
    RawPart part;
    part.name = p["name"].string();
    if (auto parent = p.find("parent")) part.parent = parent->string();
    part.pivot = optVec3(p, "pivot");
    rig.parts.push_back(std::move(part));
  }

  if (auto joints = spec.find("joints")) {
    for (const JsonRef& j : joints->elements()) {
      j.object();
      noteUnknownKeys(
          j, {"name", "part", "kind", "axis", "pivot", "min", "max", "rest", "offset", "orient", "drive", "auto"}, rig);
      RawJoint joint;
      joint.name = j["name"].string();
      joint.part = j["part"].string();
      joint.kind = j["kind"].choice(kKinds);
      joint.axis = j["axis"].choice(kAxes);
      joint.pivot = optVec3(j, "pivot");
      joint.min = j["min"].number();
      joint.max = j["max"].number();
      joint.rest = j.numberOr("rest", 0.0);
      joint.offset = optVec3(j, "offset");
      joint.orient = optVec3(j, "orient");
      const JsonRef drive = j["drive"];
      if (drive.isObject()) {  // legacy: {"type": "auto", keyframes, periodMs, looping}
        joint.drive = drive["type"].choice(kDrives);
        if (drive.has("keyframes")) rig.animations.push_back(legacyClip(drive, joint.name, rig));
      } else {
        joint.drive = drive.choice(kDrives);
        if (auto clip = j.find("auto"))
          rig.animations.push_back(legacyClip(*clip, joint.name, rig));  // legacy: "auto": {...}
      }
      rig.joints.push_back(std::move(joint));
    }
  }

  if (auto anims = spec.find("animations")) {
    for (const JsonRef& a : anims->elements()) {
      a.object();
      noteUnknownKeys(a, {"name", "periodMs", "looping", "autoPlay", "joints", "tracks"}, rig);
      RawAnimation anim;
      anim.pointer = a.pointer();
      anim.name = a["name"].string();
      const JsonRef period = a["periodMs"];
      anim.periodMs = period.number();
      if (anim.periodMs < 0) period.fail("period is negative");
      notePlausiblePeriod(period, anim.periodMs, rig);
      anim.looping = a.booleanOr("looping", false);
      anim.autoPlay = a.booleanOr("autoPlay", false);
      if (a.has("joints"))
        for (const JsonRef& name : a["joints"].elements()) anim.joints.push_back(name.string());
      if (auto tracks = a.find("tracks")) {
        for (const JsonRef& t : tracks->elements()) {
          t.object();
          noteUnknownKeys(t, {"joint", "keyframes"}, rig);
          RawTrack track;
          track.joint = t["joint"].string();
          track.keyframes = keyframes(t["keyframes"], Interp::Linear, rig);
          anim.tracks.push_back(std::move(track));
        }
      }
      rig.animations.push_back(std::move(anim));
    }
  }
  return rig;
}

}  // namespace

Expected<RawRig> parseRigSpec(const json& spec, std::string_view sourceName, std::string_view pointerPrefix) {
  return guardRead(sourceName, [&] {
    RawRig rig = readRig(JsonRef(spec, std::string(pointerPrefix)));
    return rig;
  });
}

const char* jointKindName(JointKind kind) {
  return kind == JointKind::Rotation ? "rotation" : "translation";
}
const char* axisName(Axis axis) {
  return axis == Axis::X ? "x" : axis == Axis::Y ? "y" : "z";
}
const char* driveName(Drive drive) {
  return drive == Drive::Caller ? "caller" : "auto";
}
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
