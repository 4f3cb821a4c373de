#include "riglens/core/rig/rig.h"

#include <set>
#include <unordered_map>

#include "riglens/core/base/json_reader.h"
#include "riglens/core/rig/pose.h"

namespace riglens::core {

namespace {

template <class Items>
int findByName(const Items& items, std::string_view name) {
  for (std::size_t i = 0; i < items.size(); ++i)
    if (items[i].name == name) return static_cast<int>(i);
  return kNoIndex;
}

std::string fmt(double v) {
  std::string s = std::to_string(v);
  while (s.size() > 1 && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

int Rig::findPart(std::string_view name) const {
  return findByName(m_parts, name);
}
int Rig::findJoint(std::string_view name) const {
  return findByName(m_joints, name);
}
int Rig::findAnimation(std::string_view name) const {
  return findByName(m_animations, name);
}

std::vector<std::string> Rig::jointNames(Drive drive) const {
  std::vector<std::string> names;
  for (const auto& j : m_joints)
    if (j.drive == drive) names.push_back(j.name);
  return names;
}

struct RigBuilder {
  const RawRig& raw;
  std::string source;
  std::string prefix;
  Rig rig;
  Diagnostics warnings;

  std::unordered_map<std::string, int> partIndex,
      jointIndex;  // names -> index: loads stay linear in the file

  Error fatal(const std::string& pointer, const std::string& message) const {
    return errorAt(ErrorCode::Invalid, source, prefix + pointer, message);
  }
  void warn(const std::string& pointer, std::string message, std::string part = {}, std::string joint = {}) {
    warnings.push_back(
        {source, prefix + pointer, std::move(message), Severity::Warning, std::move(part), std::move(joint)});
  }
  int partNamed(const std::string& name) const {
    const auto it = partIndex.find(name);
    return it == partIndex.end() ? kNoIndex : it->second;
  }
  int jointNamed(const std::string& name) const {
    const auto it = jointIndex.find(name);
    return it == jointIndex.end() ? kNoIndex : it->second;
  }

  // Effective parents, with the reference runtime's semantics: parts resolve
  // on demand in declared order, a part whose parent is missing or already on
  // the chain being resolved becomes a root. The finish order of that walk
  // puts every parent before its children. Walked with an explicit chain (a
  // rig.json can nest parts as deep as it likes).
  void resolveHierarchy() {
    const std::size_t n = rig.m_parts.size();
    std::vector<bool> done(n, false), onChain(n, false);
    std::vector<int> chain;
    for (std::size_t i = 0; i < n; ++i) {
      if (done[i]) continue;
      chain.assign(1, static_cast<int>(i));
      onChain[i] = true;
      for (int index = static_cast<int>(i);;) {
        Part& part = rig.m_parts[index];
        if (!part.declaredParent) break;
        const std::string ptr = "/parts/" + std::to_string(index) + "/parent";
        const int parent = partNamed(*part.declaredParent);
        if (parent == kNoIndex) {
          warn(ptr, "parent '" + *part.declaredParent + "' does not exist; the part is posed as a root", part.name);
          break;
        }
        if (onChain[parent]) {
          warn(ptr, "parent '" + *part.declaredParent + "' closes a cycle; the part is posed as a root", part.name);
          break;
        }
        part.parent = parent;
        if (done[parent]) break;
        chain.push_back(parent);
        onChain[parent] = true;
        index = parent;
      }
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        done[*it] = true;
        onChain[*it] = false;
        rig.m_order.push_back(*it);
      }
    }
  }

  Expected<void> build() {
    for (const auto& [pointer, message] : raw.ignored) warnings.push_back({source, pointer, message});
    if (auto ok = buildParts(); !ok) return ok;
    if (auto ok = buildJoints(); !ok) return ok;
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < raw.animations.size(); ++i) {
      if (auto ok = buildAnimation(raw.animations[i], i, seen); !ok) return ok;
    }
    resolveHierarchy();
    return {};
  }

  Expected<void> buildParts() {
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < raw.parts.size(); ++i) {
      const RawPart& rp = raw.parts[i];
      const std::string ptr = "/parts/" + std::to_string(i) + "/name";
      if (rp.name.empty()) return fatal(ptr, "part name is empty");
      if (auto [it, fresh] = seen.emplace(rp.name, i); !fresh)
        return fatal(ptr, "duplicate part name '" + rp.name + "' (also /parts/" + std::to_string(it->second) + ")");
      partIndex.emplace(rp.name, static_cast<int>(i));
      rig.m_parts.push_back({rp.name, kNoIndex, rp.parent, rp.pivot, {}});
    }
    if (rig.m_parts.empty()) return fatal("/parts", "the rig has no parts");
    return {};
  }

  Expected<void> buildJoints() {
    std::unordered_map<std::string, std::size_t> seen;
    for (std::size_t i = 0; i < raw.joints.size(); ++i) {
      const RawJoint& rj = raw.joints[i];
      const std::string ptr = "/joints/" + std::to_string(i);
      if (rj.name.empty()) return fatal(ptr + "/name", "joint name is empty");
      if (auto [it, fresh] = seen.emplace(rj.name, i); !fresh)
        return fatal(ptr + "/name",
                     "duplicate joint name '" + rj.name + "' (also /joints/" + std::to_string(it->second) + ")");
      jointIndex.emplace(rj.name, static_cast<int>(i));
      if (rj.min > rj.max) return fatal(ptr, "min " + fmt(rj.min) + " is greater than max " + fmt(rj.max));
      Joint joint = compileJoint(rj);
      joint.part = partNamed(rj.part);
      if (joint.part == kNoIndex)
        warn(ptr + "/part", "unknown part '" + rj.part + "'; the joint moves nothing", {}, rj.name);
      else
        rig.m_parts[joint.part].joints.push_back(static_cast<int>(i));
      if (rj.rest < rj.min || rj.rest > rj.max)
        warn(ptr + "/rest",
             "rest " + fmt(rj.rest) + " is outside [" + fmt(rj.min) + ", " + fmt(rj.max) + "]; posed clamped to " +
                 fmt(clampJointValue(joint, rj.rest)),
             {}, rj.name);
      rig.m_joints.push_back(std::move(joint));
    }
    return {};
  }

  // A joint's fields, and its mount (offset and orient about the pivot) as a matrix.
  static Joint compileJoint(const RawJoint& rj) {
    Joint joint;
    static_cast<JointMotion&>(joint) = rj;
    joint.name = rj.name;
    joint.hasMount = rj.offset != Vec3d{} || rj.orient != Vec3d{};
    if (joint.hasMount) {
      const glm::dvec3 pivot(rj.pivot[0], rj.pivot[1], rj.pivot[2]);
      glm::dmat4 m(1.0);
      m[3] = glm::dvec4(rj.offset[0] + pivot.x, rj.offset[1] + pivot.y, rj.offset[2] + pivot.z, 1.0);
      m = m * axisRotation(Axis::Z, rj.orient[2]) * axisRotation(Axis::Y, rj.orient[1]) *
          axisRotation(Axis::X, rj.orient[0]);
      glm::dmat4 back(1.0);
      back[3] = glm::dvec4(-pivot, 1.0);
      joint.mount = m * back;
    }
    return joint;
  }

  Expected<void> buildAnimation(const RawAnimation& ra, std::size_t i,
                                std::unordered_map<std::string, std::size_t>& seen) {
    // Legacy clips carry their own pointer (the joint's drive/auto key).
    const std::string ptr = ra.pointer.substr(std::min(prefix.size(), ra.pointer.size()));
    if (ra.name.empty()) return fatal(ptr + "/name", "animation name is empty");
    if (auto [it, fresh] = seen.emplace(ra.name, i); !fresh)
      return fatal(ptr + "/name", "duplicate animation name '" + ra.name + "'");
    Animation anim{ra.name, ra.periodMs, ra.looping, ra.autoPlay, {}, {}};
    for (std::size_t k = 0; k < ra.joints.size(); ++k) {
      const int j = jointNamed(ra.joints[k]);
      if (j == kNoIndex)
        warn(ptr + "/joints/" + std::to_string(k), "unknown joint '" + ra.joints[k] + "'; ignored");
      else
        anim.requiredJoints.push_back(j);
    }
    std::set<int> driven;
    for (std::size_t k = 0; k < ra.tracks.size(); ++k) {
      const RawTrack& rt = ra.tracks[k];
      const std::string tp = ptr + "/tracks/" + std::to_string(k);
      const int j = jointNamed(rt.joint);
      if (j == kNoIndex) {
        warn(tp + "/joint", "unknown joint '" + rt.joint + "'; the track is ignored");
        continue;
      }
      if (!driven.insert(j).second)
        warn(tp + "/joint", "a second track for joint '" + rt.joint + "'; the later track wins", {}, rt.joint);
      for (std::size_t q = 0; q < rt.keyframes.size(); ++q) {
        const double t = rt.keyframes[q].tMs;
        if (t < 0 || (ra.periodMs > 0 && t > ra.periodMs)) {
          warn(tp + "/keyframes/" + std::to_string(q) + "/tMs",
               "key at " + fmt(t) + " ms is outside 0.." + fmt(ra.periodMs) + " ms", {}, rt.joint);
        }
      }
      anim.tracks.push_back({j, rt.keyframes});
    }
    for (int j : anim.requiredJoints)
      if (!driven.count(j))
        warn(ptr + "/joints", "joint '" + rig.m_joints[j].name + "' is listed but has no track", {},
             rig.m_joints[j].name);
    rig.m_animations.push_back(std::move(anim));
    return {};
  }
};

Rig Rig::singlePart(std::string name) {
  Rig rig;
  rig.m_parts.push_back({std::move(name), kNoIndex, std::nullopt, {}, {}});
  rig.m_order.push_back(0);
  return rig;
}

Expected<BuiltRig> buildRig(const RawRig& raw, std::string_view sourceName, std::string_view pointerPrefix) {
  RigBuilder builder{raw, std::string(sourceName), std::string(pointerPrefix), {}, {}, {}, {}};
  if (auto built = builder.build(); !built) return built.error();
  return BuiltRig{std::move(builder.rig), std::move(builder.warnings)};
}

}  // namespace riglens::core
