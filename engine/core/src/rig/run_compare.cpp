#include "riglens/core/rig/run_compare.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <glm/geometric.hpp>

#include "riglens/core/rig/scene_bounds.h"

namespace riglens::core {

namespace {

using nlohmann::json;

// A distance in a sentence people read (the panel, the CLI's differences):
// four significant digits, not the double's seventeen; the JSON's numbers
// keep every digit. to_chars, not printf: the app's locale may write a
// decimal comma.
std::string readable(double distance) {
  char text[32];
  const auto written = std::to_chars(text, text + sizeof text, distance, std::chars_format::general, 4);
  return std::string(text, written.ptr);
}

// Names in `b` that `a` lacks.
template <class Items>
std::vector<std::string> missingFrom(const Items& a, const Items& b) {
  std::vector<std::string> out;
  for (const auto& item : b)
    if (std::none_of(a.begin(), a.end(), [&](const auto& other) { return other.name == item.name; }))
      out.push_back(item.name);
  return out;
}

void addedAndRemoved(json& section, const std::string& noun, const std::vector<std::string>& added,
                     const std::vector<std::string>& removed, std::vector<std::string>& differences) {
  section["added"] = added;
  section["removed"] = removed;
  for (const auto& name : added) differences.push_back(noun + " '" + name + "' added");
  for (const auto& name : removed) differences.push_back(noun + " '" + name + "' removed");
}

void noteChange(json& changed, const std::string& key, const std::string& name, const std::string& field, const json& a,
                const json& b, std::vector<std::string>& differences) {
  if (a == b) return;
  changed.push_back({{key, name}, {"field", field}, {"a", a}, {"b", b}});
  differences.push_back(key + " '" + name + "' " + field + ": " + a.dump() + " -> " + b.dump());
}

json compareJoints(const Rig& a, const Rig& b, std::vector<std::string>& differences) {
  json section;
  addedAndRemoved(section, "joint", missingFrom(a.joints(), b.joints()), missingFrom(b.joints(), a.joints()),
                  differences);
  section["changed"] = json::array();
  for (const Joint& ja : a.joints()) {
    const int j = b.findJoint(ja.name);
    if (j == kNoIndex) continue;
    const Joint& jb = b.joints()[std::size_t(j)];
    json& changed = section["changed"];
    noteChange(changed, "joint", ja.name, "kind", int(ja.kind), int(jb.kind), differences);
    noteChange(changed, "joint", ja.name, "axis", int(ja.axis), int(jb.axis), differences);
    noteChange(changed, "joint", ja.name, "drive", int(ja.drive), int(jb.drive), differences);
    noteChange(changed, "joint", ja.name, "min", ja.min, jb.min, differences);
    noteChange(changed, "joint", ja.name, "max", ja.max, jb.max, differences);
    noteChange(changed, "joint", ja.name, "rest", ja.rest, jb.rest, differences);
    noteChange(changed, "joint", ja.name, "pivot", ja.pivot, jb.pivot, differences);
  }
  return section;
}

json compareClips(const RigController& a, const RigController& b, std::vector<std::string>& differences) {
  const std::vector<ClipInfo> ca = a.clips(), cb = b.clips();
  json section;
  addedAndRemoved(section, "clip", missingFrom(ca, cb), missingFrom(cb, ca), differences);
  section["changed"] = json::array();
  for (const ClipInfo& x : ca)
    for (const ClipInfo& y : cb) {
      if (x.name != y.name) continue;
      json& changed = section["changed"];
      noteChange(changed, "clip", x.name, "periodMs", x.periodMs, y.periodMs, differences);
      noteChange(changed, "clip", x.name, "looping", x.looping, y.looping, differences);
      noteChange(changed, "clip", x.name, "autoPlay", x.autoPlay, y.autoPlay, differences);
      noteChange(changed, "clip", x.name, "keys", x.keyTimesMs.size(), y.keyTimesMs.size(), differences);
    }
  return section;
}

json partDistances(const PosedRun& a, const PosedRun& b, double tolerance, std::vector<std::string>& differences,
                   json& triangles) {
  json distances = json::array();
  for (const PartDistances& part : posedVertexDistances(a, b)) {
    const std::string& name = part.part;
    if (part.trianglesA != part.trianglesB) {
      triangles.push_back({{"part", name}, {"a", part.trianglesA}, {"b", part.trianglesB}});
      differences.push_back("part '" + name + "' triangles: " + std::to_string(part.trianglesA) + " -> " +
                            std::to_string(part.trianglesB));
    }
    if (!part.topologyMatches) {
      distances.push_back({{"part", name}, {"topology", "differs"}});
      if (part.trianglesA == part.trianglesB)  // (a triangle count change is listed already)
        differences.push_back("part '" + name + "' topology differs");
      continue;
    }
    distances.push_back({{"part", name}, {"vertices", part.perVertex.size()}, {"max", part.max}, {"mean", part.mean}});
    if (part.max > tolerance)
      differences.push_back("part '" + name + "' vertices moved: max " + readable(part.max) + ", mean " +
                            readable(part.mean));
  }
  return distances;
}

json boundsJson(const Bounds& box) {
  if (box.empty) return nullptr;
  return {{"min", {box.min.x, box.min.y, box.min.z}}, {"max", {box.max.x, box.max.y, box.max.z}}};
}

// Parts in `b` that `a` lacks, by matchedPartName (a model's one part
// matches the other model's, whatever their files are called).
std::vector<std::string> partsMissingFrom(const LoadedRun& a, const LoadedRun& b) {
  std::vector<std::string> names, out;
  for (std::size_t p = 0; p < a.rig.parts().size(); ++p) names.push_back(matchedPartName(a, p));
  for (std::size_t p = 0; p < b.rig.parts().size(); ++p)
    if (std::find(names.begin(), names.end(), matchedPartName(b, p)) == names.end())
      out.push_back(b.rig.parts()[p].name);
  return out;
}

}  // namespace

json compareRuns(const PosedRun& a, const PosedRun& b, double tolerance) {
  std::vector<std::string> differences;
  json out;
  out["parts"] = json::object();
  addedAndRemoved(out["parts"], "part", partsMissingFrom(a.run, b.run), partsMissingFrom(b.run, a.run), differences);
  out["joints"] = compareJoints(a.run.rig, b.run.rig, differences);
  out["clips"] = compareClips(a.controller, b.controller, differences);
  json triangles = json::array();
  out["distances"] = partDistances(a, b, tolerance, differences, triangles);
  out["parts"]["triangles"] = triangles;
  const Bounds ba = posedBounds(a.run, a.controller.partWorlds(), a.controller.gltfPose());
  const Bounds bb = posedBounds(b.run, b.controller.partWorlds(), b.controller.gltfPose());
  double corner = 0.0;
  if (!ba.empty && !bb.empty)
    corner = std::max(double(glm::length(ba.min - bb.min)), double(glm::length(ba.max - bb.max)));
  out["bounds"] = {{"a", boundsJson(ba)}, {"b", boundsJson(bb)}, {"cornerDistance", corner}};
  if (corner > tolerance || ba.empty != bb.empty)
    differences.push_back("bounds moved: a corner by " + readable(corner));
  out["tolerance"] = tolerance;
  out["differences"] = differences;
  out["differs"] = !differences.empty();
  return out;
}

}  // namespace riglens::core
