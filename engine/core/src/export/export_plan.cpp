#include "riglens/core/export/export_plan.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <limits>
#include <numbers>
#include <set>

#include "riglens/core/export/curve_reduction.h"
#include "riglens/core/rig/fcurve.h"
#include "riglens/core/rig/pose.h"

namespace riglens::core {
namespace {

using nlohmann::json;

glm::dvec3 toVec(const Vec3d& v) {
  return {v[0], v[1], v[2]};
}
glm::dmat4 translate(const glm::dvec3& t) {
  return glm::translate(glm::dmat4(1.0), t);
}

// The joint's axis as the node turns about it: x is mirrored (positive pitch
// elevates), so the node rotates about -x by +value.
glm::dvec3 rotationAxis(Axis axis) {
  switch (axis) {
    case Axis::X: return {-1, 0, 0};
    case Axis::Y: return {0, 1, 0};
    case Axis::Z: return {0, 0, 1};
  }
  return {0, 1, 0};
}

glm::dvec3 unitAxis(Axis axis) {
  glm::dvec3 v(0.0);
  v[static_cast<int>(axis)] = 1.0;
  return v;
}

// The fixed part C_i of a joint node, and its driven motion at a value.
struct JointFrame {
  glm::dquat rotation{1, 0, 0, 0};
  glm::dvec3 translation{0.0};  // unscaled
};

struct TrackSamples {
  std::vector<double> times;   // ms
  std::vector<double> values;  // clamped joint values
};

// End-of-clip value: the limit from the left (a looping clip's wrap segment
// ends at the first value; otherwise the curve holds its last key).
double endValue(const Track& track, const Animation& anim) {
  const auto& keys = track.keyframes;
  if (anim.looping && anim.periodMs > 0 && anim.periodMs > keys.back().tMs) return keys.front().value;
  return sampleKeyframes(keys, anim.periodMs > 0 ? anim.periodMs : keys.back().tMs, anim.periodMs, false);
}

double clipEnd(const Animation& anim) {
  double end = anim.periodMs;
  for (const auto& t : anim.tracks)
    if (!t.keyframes.empty() && anim.periodMs <= 0) end = std::max(end, t.keyframes.back().tMs);
  return std::max(end, 0.0);
}

class Planner {
 public:
  Planner(const LoadedRun& run, const ExportOptions& options) : m_run(run), m_rig(run.rig), m_opt(options) {}

  ExportPlan plan() {
    m_plan.name = m_run.source.filename() == "rig.json" || m_run.source.filename() == "run.json"
                      ? m_run.folder.filename().string()
                      : m_run.source.stem().string();
    if (m_plan.name.empty()) m_plan.name = "model";
    m_plan.warnings = {};
    if (m_run.kind == RunKind::SkinnedMesh || m_run.kind == RunKind::StaticMesh) {
      planSingleMesh();
      return std::move(m_plan);
    }
    planNodes();
    planAnimations();
    planInterface();
    return std::move(m_plan);
  }

 private:
  double scale() const { return m_opt.scale; }

  std::string uniqueName(const std::string& wanted) {
    std::string name = wanted;
    for (int n = 2; m_names.count(name); ++n) name = wanted + "_" + std::to_string(n);
    m_names.insert(name);
    return name;
  }

  int addNode(PlannedNode node) {
    m_plan.nodes.push_back(std::move(node));
    const int index = static_cast<int>(m_plan.nodes.size() - 1);
    if (m_plan.nodes.back().parent < 0) m_plan.roots.push_back(index);
    return index;
  }

  void planSingleMesh() {
    if (m_run.kind == RunKind::SkinnedMesh)
      m_plan.warnings.push_back({m_run.source.string(), "", "skinned mesh exported at rest without its skin"});
    PartMesh mesh = m_run.meshes.empty() ? PartMesh{} : m_run.meshes[0];
    for (float& p : mesh.positions) p = float(p * scale());
    PlannedNode node;
    node.name = uniqueName(m_plan.name);
    node.part = 0;
    node.socket = mesh.empty();
    m_plan.partMeshes.clear();  // not = {std::move(mesh)}: an initializer list copies the mesh
    m_plan.partMeshes.push_back(std::move(mesh));
    m_plan.partNode = {addNode(node)};
    m_plan.interface = {{"name", m_plan.name}, {"joints", nlohmann::ordered_json::array()}};
  }

  void planNodes() {
    const auto& parts = m_rig.parts();
    const auto& joints = m_rig.joints();
    // Part names first, so joint nodes are the ones renamed on a clash.
    for (const auto& p : parts) m_names.insert(p.name);
    m_plan.partNode.assign(parts.size(), -1);
    m_plan.jointNode.assign(joints.size(), -1);
    m_jointFrames.assign(joints.size(), {});
    m_plan.partMeshes.resize(parts.size());
    const std::vector<double> rest = restJointValues(m_rig);

    for (int p : m_rig.evaluationOrder()) {
      const Part& part = parts[p];
      int parentNode = part.parent == kNoIndex ? -1 : m_plan.partNode[part.parent];
      glm::dvec3 prev = part.parent == kNoIndex ? glm::dvec3(0.0) : toVec(parts[part.parent].pivot);
      for (int j : part.joints) {
        const Joint& joint = joints[j];
        const glm::dvec3 pivot = toVec(joint.pivot);
        const glm::dmat4 c = translate(-prev) * (joint.hasMount ? joint.mount : glm::dmat4(1.0)) * translate(pivot);
        JointFrame frame;
        frame.rotation = glm::normalize(glm::quat_cast(glm::dmat3(c)));
        frame.translation = glm::dvec3(c[3]);
        m_jointFrames[j] = frame;
        PlannedNode node;
        node.name = uniqueName(joint.name);
        node.parent = parentNode;
        node.joint = j;
        setJointNodeValue(node, j, rest[j]);
        parentNode = addNode(node);
        m_plan.jointNode[j] = parentNode;
        prev = pivot;
      }
      const glm::dvec3 q = toVec(part.pivot);
      PlannedNode node;
      node.name = part.name;
      node.parent = parentNode;
      node.part = p;
      node.translation = (q - prev) * scale();
      PartMesh mesh = p < static_cast<int>(m_run.meshes.size()) ? m_run.meshes[p] : PartMesh{};
      for (std::size_t v = 0; v < mesh.vertexCount(); ++v)
        for (int c = 0; c < 3; ++c) mesh.positions[v * 3 + c] = float((mesh.positions[v * 3 + c] - q[c]) * scale());
      node.socket = mesh.empty();
      m_plan.partMeshes[p] = std::move(mesh);
      m_plan.partNode[p] = addNode(node);
    }
    for (std::size_t j = 0; j < joints.size(); ++j)
      if (joints[j].part == kNoIndex)
        m_plan.warnings.push_back({m_run.source.string(), "/joints/" + std::to_string(j),
                                   "joint '" + joints[j].name + "' moves no part; not exported"});
  }

  // The node's TRS with its joint at `value`.
  void setJointNodeValue(PlannedNode& node, int j, double value) const {
    const Joint& joint = m_rig.joints()[j];
    const JointFrame& f = m_jointFrames[j];
    if (joint.kind == JointKind::Rotation) {
      node.rotation = f.rotation * glm::angleAxis(value, rotationAxis(joint.axis));
      node.translation = f.translation * scale();
    } else {
      node.rotation = f.rotation;
      node.translation = (f.translation + f.rotation * (unitAxis(joint.axis) * value)) * scale();
    }
  }

  // The dense grid's step for a clip of `end` ms: the option's (1 ms), or
  // coarser for a clip so long that the grid would pass kMaxDenseSamples
  // (a rig.json can say periodMs 1e12; planning must still end).
  static constexpr double kMaxDenseSamples = 1'000'000;
  double baseStep() const { return m_opt.sampleStepMs > 0 ? m_opt.sampleStepMs : 1.0; }
  double denseStep(double end) const { return std::max(baseStep(), end / kMaxDenseSamples); }

  TrackSamples denseSamples(const Track& track, const Animation& anim, double end) const {
    const Joint& joint = m_rig.joints()[track.joint];
    const auto& keys = track.keyframes;
    std::vector<double> times;
    const double step = denseStep(end);
    for (std::size_t i = 0; double(i) * step < end; ++i) times.push_back(double(i) * step);
    times.push_back(end);
    for (const auto& k : keys)
      if (k.tMs >= 0 && k.tMs <= end) times.push_back(k.tMs);
    // A constant segment jumps at its end: sample just before the jump so
    // the linear channel steps within kJumpMs.
    constexpr double kJumpMs = 0.05;
    for (std::size_t s = 0; s < segmentCount(keys, anim.periodMs, anim.looping); ++s) {
      const SegmentShape shape = describeSegment(keys, s, anim.periodMs, anim.looping);
      if (shape.interp == Interp::Constant && shape.t1 - kJumpMs > shape.t0 && shape.t1 - kJumpMs >= 0 &&
          shape.t1 <= end)
        times.push_back(shape.t1 - kJumpMs);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end(), [](double a, double b) { return b - a < 1e-9; }), times.end());
    TrackSamples out;
    out.times = times;
    const double restValue = clampJointValue(joint, joint.rest);
    for (double t : times) {
      double v = t >= end ? endValue(track, anim) : sampleKeyframes(keys, t, anim.periodMs, anim.looping);
      v = std::isfinite(v) ? clampJointValue(joint, v) : restValue;  // as the controller poses it
      out.values.push_back(v);
    }
    return out;
  }

  void pushValue(PlannedChannel& ch, int j, double value) const {
    PlannedNode tmp;
    setJointNodeValue(tmp, j, value);
    if (ch.path == ChannelPath::Rotation) {
      ch.values.insert(ch.values.end(),
                       {float(tmp.rotation.x), float(tmp.rotation.y), float(tmp.rotation.z), float(tmp.rotation.w)});
    } else {
      ch.values.insert(ch.values.end(), {float(tmp.translation.x), float(tmp.translation.y), float(tmp.translation.z)});
    }
  }

  void pushTangent(PlannedChannel& ch, int j, double slopePerMs) const {
    const glm::dvec3 d = m_jointFrames[j].rotation * unitAxis(m_rig.joints()[j].axis) * (slopePerMs * 1000.0 * scale());
    ch.values.insert(ch.values.end(), {float(d.x), float(d.y), float(d.z)});
  }

  bool allConstant(const Track& track, const Animation& anim) const {
    const auto& keys = track.keyframes;
    const std::size_t n = segmentCount(keys, anim.periodMs, anim.looping);
    for (std::size_t s = 0; s < n; ++s)
      if (describeSegment(keys, s, anim.periodMs, anim.looping).interp != Interp::Constant) return false;
    return true;
  }

  // CUBICSPLINE keys when every piece of the curve is a cubic Hermite in time
  // (linear, flat, or Bezier with time handles at exactly dt/3) and nothing
  // is clamped. Returns false to fall back to sampling.
  bool cubicChannel(PlannedChannel& ch, const Track& track, const Animation& anim, double end,
                    const TrackSamples& dense) const {
    const Joint& joint = m_rig.joints()[track.joint];
    const auto& keys = track.keyframes;
    for (std::size_t i = 0; i < dense.times.size(); ++i) {
      const double raw = dense.times[i] >= end ? endValue(track, anim)
                                               : sampleKeyframes(keys, dense.times[i], anim.periodMs, anim.looping);
      if (!std::isfinite(raw) || raw != clampJointValue(joint, raw)) return false;
    }
    struct Piece {
      double t0, t1, v0, v1, out, in;
    };
    std::vector<Piece> pieces;
    if (keys.front().tMs > 0) pieces.push_back({0, keys.front().tMs, keys.front().value, keys.front().value, 0, 0});
    const std::size_t n = segmentCount(keys, anim.periodMs, anim.looping);
    for (std::size_t s = 0; s < n; ++s) {
      const SegmentShape sh = describeSegment(keys, s, anim.periodMs, anim.looping);
      const double dt = sh.t1 - sh.t0;
      if (dt <= 0) return false;
      if (sh.v0 == sh.v1 &&
          (sh.interp == Interp::Constant || (sh.p1v == sh.v0 && sh.p2v == sh.v1 && sh.interp != Interp::Linear))) {
        pieces.push_back({sh.t0, sh.t1, sh.v0, sh.v1, 0, 0});
        continue;
      }
      if (sh.interp == Interp::Linear) {
        const double slope = (sh.v1 - sh.v0) / dt;
        pieces.push_back({sh.t0, sh.t1, sh.v0, sh.v1, slope, slope});
        continue;
      }
      if (sh.interp == Interp::Constant) return false;
      const double h = dt / 3.0, eps = 1e-9 * std::max(1.0, dt);
      if (std::abs(sh.p1t - (sh.t0 + h)) > eps || std::abs(sh.p2t - (sh.t1 - h)) > eps) return false;
      pieces.push_back({sh.t0, sh.t1, sh.v0, sh.v1, (sh.p1v - sh.v0) / h, (sh.v1 - sh.p2v) / h});
    }
    if (end > pieces.back().t1) pieces.push_back({pieces.back().t1, end, pieces.back().v1, pieces.back().v1, 0, 0});
    if (pieces.back().t1 > end + 1e-9) return false;  // keys past the clip's end
    ch.interpolation = ChannelInterpolation::CubicSpline;
    const int j = track.joint;
    const auto key = [&](double t, double v, double in, double out) {
      ch.times.push_back(float(t / 1000.0));
      pushTangent(ch, j, in);
      pushValue(ch, j, v);
      pushTangent(ch, j, out);
    };
    key(pieces.front().t0, pieces.front().v0, 0, pieces.front().out);
    for (std::size_t i = 0; i < pieces.size(); ++i)
      key(pieces[i].t1, pieces[i].v1, pieces[i].in, i + 1 < pieces.size() ? pieces[i + 1].out : 0);
    return true;
  }

  void planAnimations() {
    std::vector<int> order(m_rig.animations().size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return m_rig.animations()[a].autoPlay && !m_rig.animations()[b].autoPlay; });
    for (int a : order) {
      const Animation& anim = m_rig.animations()[a];
      PlannedAnimation out{anim.name, anim.looping, anim.autoPlay, {}};
      const double end = clipEnd(anim);
      if (const double step = denseStep(end); step > baseStep())
        m_plan.warnings.push_back({m_run.source.string(), "",
                                   "clip '" + anim.name + "' lasts " + std::to_string(end) +
                                       " ms; its curves are sampled every " + std::to_string(step) + " ms, not every " +
                                       std::to_string(baseStep()) + " ms"});
      std::set<int> seen;
      // Later tracks for the same joint win (as when posing); walk backwards.
      for (auto it = anim.tracks.rbegin(); it != anim.tracks.rend(); ++it) {
        const Track& track = *it;
        const int j = track.joint;
        if (track.keyframes.empty() || m_plan.jointNode[j] < 0 || !seen.insert(j).second) continue;
        const Joint& joint = m_rig.joints()[j];
        PlannedChannel ch;
        ch.node = m_plan.jointNode[j];
        ch.path = joint.kind == JointKind::Rotation ? ChannelPath::Rotation : ChannelPath::Translation;
        const TrackSamples dense = denseSamples(track, anim, end);
        ch.denseSamples = dense.times.size();
        if (allConstant(track, anim)) {
          ch.interpolation = ChannelInterpolation::Step;
          double last = -1;
          for (const auto& k : track.keyframes) {
            const double t = std::clamp(k.tMs, 0.0, end);
            if (t <= last) continue;  // glTF needs strictly increasing times
            last = t;
            ch.times.push_back(float(t / 1000.0));
            pushValue(ch, j, clampJointValue(joint, k.value));
          }
        } else if (!(m_opt.cubic && ch.path == ChannelPath::Translation && cubicChannel(ch, track, anim, end, dense))) {
          ch.interpolation = ChannelInterpolation::Linear;
          ch.times.clear();
          ch.values.clear();
          const double maxStep =
              ch.path == ChannelPath::Rotation ? std::numbers::pi / 2 : std::numeric_limits<double>::infinity();
          for (std::size_t i : reduceLinearKeys(dense.times, dense.values, m_opt.tolerance, maxStep)) {
            ch.times.push_back(float(dense.times[i] / 1000.0));
            pushValue(ch, j, dense.values[i]);
          }
        }
        out.channels.push_back(std::move(ch));
      }
      std::reverse(out.channels.begin(), out.channels.end());
      m_plan.animations.push_back(std::move(out));
    }
  }

  void planInterface() {
    nlohmann::ordered_json joints = nlohmann::ordered_json::array();
    for (std::size_t j = 0; j < m_rig.joints().size(); ++j)
      if (m_rig.joints()[j].drive == Drive::Caller && m_plan.jointNode[j] >= 0)
        joints.push_back(interfaceEntry(m_plan, m_rig, static_cast<int>(j), m_opt));
    m_plan.interface = {{"name", m_plan.name}, {"joints", joints}};
  }

  const LoadedRun& m_run;
  const Rig& m_rig;
  const ExportOptions& m_opt;
  ExportPlan m_plan;
  std::set<std::string> m_names;
  std::vector<JointFrame> m_jointFrames;

  friend nlohmann::ordered_json riglens::core::interfaceEntry(const ExportPlan&, const Rig&, int, const ExportOptions&);
};

}  // namespace

nlohmann::ordered_json interfaceEntry(const ExportPlan& plan, const Rig& rig, int j, const ExportOptions& options) {
  const Joint& joint = rig.joints()[j];
  const PlannedNode& node = plan.nodes[plan.jointNode[j]];
  const bool rotation = joint.kind == JointKind::Rotation;
  const double s = rotation ? 1.0 : options.scale;
  glm::dvec3 axisVector = rotationAxis(joint.axis);
  if (!rotation) {
    // In the parent's frame: the rest rotation is C_i's (a translation joint
    // does not rotate its node).
    axisVector = glm::normalize(node.rotation * unitAxis(joint.axis));
  }
  const auto clean = [](double v) { return std::abs(v) < 1e-12 ? 0.0 : v; };
  return {{"node", node.name},
          {"name", joint.name},
          {"kind", jointKindName(joint.kind)},
          {"axis", axisName(joint.axis)},
          {"min", joint.min * s},
          {"max", joint.max * s},
          {"rest", joint.rest * s},
          {"axisVector", {clean(axisVector.x), clean(axisVector.y), clean(axisVector.z)}},
          {"pivot", {joint.pivot[0] * options.scale, joint.pivot[1] * options.scale, joint.pivot[2] * options.scale}}};
}

ExportPlan planExport(const LoadedRun& run, const ExportOptions& options) {
  return Planner(run, options).plan();
}

}  // namespace riglens::core
