#include "riglens/core/dna/dna_rig.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

#include "dna_rotation.h"
#include "rbf_solver.h"

namespace riglens::core {

using dna_detail::RbfSolver;

// A quaternion-represented joint of one group at the current LOD: where its
// rotation rows are (-1: absent or past the LOD's rows) and each column's
// rotation as a quaternion (x, y, z, w).
struct DnaRig::QuaternionJoint {
  std::size_t group = 0, joint = 0;
  std::vector<std::array<float, 4>> columns;
};

namespace {

// Orders each row's interval (from <= to) and finds where each consecutive
// run of rows with the same (input, output) ends.
void prepareConditionals(const DnaConditionals& in, DnaConditionals& out, std::vector<std::size_t>& runEnd) {
  out = in;
  for (std::size_t r = 0; r < out.size(); ++r)
    if (out.from[r] > out.to[r]) std::swap(out.from[r], out.to[r]);
  runEnd.assign(out.size(), out.size());
  for (std::size_t r = out.size(); r-- > 0;)
    if (r + 1 < out.size() && out.inputs[r + 1] == out.inputs[r] && out.outputs[r + 1] == out.outputs[r])
      runEnd[r] = runEnd[r + 1];
    else
      runEnd[r] = r + 1;
}

// The first matching row of each run adds slope * x + cut to its output.
void applyConditionals(const DnaConditionals& t, const std::vector<std::size_t>& runEnd, std::size_t rows,
                       std::span<const float> inputs, std::span<float> outputs) {
  for (std::size_t r = 0; r < rows;) {
    const float x = inputs[t.inputs[r]];
    if (t.from[r] <= x && x <= t.to[r]) {
      outputs[t.outputs[r]] += t.slope[r] * x + t.cut[r];
      r = runEnd[r];
    } else {
      ++r;
    }
  }
}

bool endsWithQuaternionW(const std::string& name) {
  const auto ends = [&](std::string_view s) { return name.size() >= s.size() && name.ends_with(s); };
  return ends(".w") || ends(".qw");
}

std::size_t lodRows(const std::vector<std::uint16_t>& lods, std::size_t lod) {
  return lod < lods.size() ? lods[lod] : 0;
}

}  // namespace

DnaRig::DnaRig(std::shared_ptr<const Dna> dna) : m_dna(std::move(dna)) {}
DnaRig::~DnaRig() = default;

Expected<std::unique_ptr<DnaRig>> DnaRig::create(std::shared_ptr<const Dna> dna) {
  std::unique_ptr<DnaRig> rig(new DnaRig(std::move(dna)));
  const Dna& d = *rig->m_dna;
  const std::size_t R = d.rawCount(), C = d.controlCount();
  rig->m_gui.assign(d.guiControlNames.size(), 0.0f);
  rig->m_initial.assign(C, 0.0f);
  rig->m_joints.assign(d.jointCount() * 9, 0.0f);
  rig->m_blendShapes.assign(d.blendShapeCount(), 0.0f);
  rig->m_animatedMaps.assign(d.animatedMapCount(), 0.0f);
  rig->m_snapshot.assign(C, 0.0f);
  std::size_t widest = 0;
  for (const DnaJointGroup& g : d.jointGroups) widest = std::max(widest, g.inputs.size());
  rig->m_columns.assign(widest, 0.0f);
  prepareConditionals(d.guiToRaw, rig->m_guiToRaw, rig->m_guiRunEnd);
  prepareConditionals(d.animatedMaps, rig->m_maps, rig->m_mapRunEnd);
  rig->m_psdInputs.assign(d.psdCount, {});
  rig->m_psdWeights.assign(d.psdCount, 1.0f);
  for (std::size_t k = 0; k < d.psdRows.size(); ++k) {
    const std::size_t p = d.psdRows[k] - R;
    rig->m_psdInputs[p].push_back(d.psdColumns[k]);
    rig->m_psdWeights[p] *= d.psdValues[k];
  }
  std::size_t most = 0;
  for (const DnaRbfSolver& s : d.rbfSolvers) {
    rig->m_solvers.push_back(std::make_unique<RbfSolver>(s, d.rbfPoses, d.rotationInDegrees()));
    std::set<std::uint16_t> outputs;
    for (auto p : s.poses) outputs.insert(d.rbfPoses[p].outputControls.begin(), d.rbfPoses[p].outputControls.end());
    rig->m_solverOutputs.emplace_back(outputs.begin(), outputs.end());
    for (auto in : s.rawControls)
      if (endsWithQuaternionW(d.rawControlNames[in])) rig->m_initial[in] = 1.0f;  // identity quaternion
    most = std::max(most, s.poses.size());
  }
  rig->m_poseWeights.assign(most, 0.0f);
  rig->m_quaternionJoint.assign(d.jointCount(), false);
  for (std::size_t j = 0; j < d.jointRotations.size(); ++j)
    rig->m_quaternionJoint[j] = d.jointRotations[j] == JointRotation::Quaternion;
  rig->m_controls = rig->m_initial;
  rig->prepareLod();
  return rig;
}

Expected<void> DnaRig::setLod(std::size_t lod) {
  if (lod >= m_dna->lodCount)
    return makeError(ErrorCode::Usage,
                     "LOD " + std::to_string(lod) + " is past the DNA's " + std::to_string(m_dna->lodCount) + " LODs");
  m_lod = lod;
  prepareLod();
  return {};
}

// What this LOD evaluates: its solvers, the PSDs some output reads, and the
// quaternion joints' column rotations over the rows it uses.
void DnaRig::prepareLod() {
  const Dna& d = *m_dna;
  const std::size_t R = d.rawCount();
  m_lodSolvers.clear();
  if (d.lodSolvers.lods.empty()) {
    for (std::size_t s = 0; s < m_solvers.size(); ++s) m_lodSolvers.push_back(s);
  } else if (const auto* list = d.lodSolvers.at(m_lod)) {
    m_lodSolvers.assign(list->begin(), list->end());
  }
  std::vector<bool> read(d.controlCount(), false);
  for (const DnaJointGroup& g : d.jointGroups)
    if (lodRows(g.lods, m_lod) > 0)
      for (auto in : g.inputs) read[in] = true;
  for (std::size_t i = 0; i < lodRows(d.blendShapeLods, m_lod); ++i) read[d.blendShapeInputs[i]] = true;
  for (std::size_t r = 0; r < lodRows(d.animatedMapLods, m_lod); ++r) read[m_maps.inputs[r]] = true;
  m_lodPsds.clear();
  std::set<std::uint16_t> inputs;
  for (std::size_t p = 0; p < d.psdCount; ++p)
    if (read[R + p]) {
      m_lodPsds.push_back(p);
      inputs.insert(m_psdInputs[p].begin(), m_psdInputs[p].end());
    }
  m_snapshotInputs.assign(inputs.begin(), inputs.end());

  m_lodQuaternionJoints.clear();
  const double toRadians = d.rotationInDegrees() ? std::numbers::pi / 180.0 : 1.0;
  for (std::size_t gi = 0; gi < d.jointGroups.size(); ++gi) {
    const DnaJointGroup& g = d.jointGroups[gi];
    const std::size_t rows = lodRows(g.lods, m_lod), cols = g.inputs.size();
    std::vector<std::size_t> jointsHere;
    for (std::size_t r = 0; r < rows; ++r) {
      const std::size_t j = g.outputs[r] / 9, k = g.outputs[r] % 9;
      if (m_quaternionJoint[j] && k >= 3 && k < 6 &&
          std::find(jointsHere.begin(), jointsHere.end(), j) == jointsHere.end())
        jointsHere.push_back(j);
    }
    for (std::size_t j : jointsHere) {
      QuaternionJoint qj{gi, j, std::vector<std::array<float, 4>>(cols)};
      for (std::size_t c = 0; c < cols; ++c) {
        glm::dvec3 euler(0.0);
        for (std::size_t r = 0; r < rows; ++r)
          if (g.outputs[r] / 9 == j && g.outputs[r] % 9 >= 3 && g.outputs[r] % 9 < 6)
            euler[int(g.outputs[r] % 9 - 3)] = double(g.values[r * cols + c]) * toRadians;
        const glm::dquat q = dna_detail::eulerToQuat(euler, d.rotationSequence, d.rotationSign);
        qj.columns[c] = {float(q.x), float(q.y), float(q.z), float(q.w)};
      }
      m_lodQuaternionJoints.push_back(std::move(qj));
    }
  }
}

void DnaRig::reset() {
  std::fill(m_gui.begin(), m_gui.end(), 0.0f);
  m_controls = m_initial;  // same size: no allocation
}

void DnaRig::mapGuiToRaw() {
  const std::size_t R = m_dna->rawCount();
  std::fill_n(m_controls.begin(), R, 0.0f);
  applyConditionals(m_guiToRaw, m_guiRunEnd, m_guiToRaw.size(), m_gui, m_controls);
  for (std::size_t i = 0; i < R; ++i) m_controls[i] = std::clamp(m_controls[i], 0.0f, 1.0f);
}

void DnaRig::calculate() {
  solveRbf();
  evaluatePsds();
  evaluateJoints();
  evaluateBlendShapes();
  evaluateAnimatedMaps();
}

void DnaRig::solveRbf() {
  const Dna& d = *m_dna;
  for (std::size_t s : m_lodSolvers) {
    for (auto o : m_solverOutputs[s]) m_controls[o] = 0.0f;
    const DnaRbfSolver& spec = d.rbfSolvers[s];
    std::span<float> weights(m_poseWeights.data(), spec.poses.size());
    m_solvers[s]->solve(m_controls, weights);
    for (std::size_t i = 0; i < spec.poses.size(); ++i) {
      const DnaRbfPose& pose = d.rbfPoses[spec.poses[i]];
      float inputWeight = 1.0f;
      for (auto in : pose.inputControls) inputWeight *= m_controls[in];
      for (std::size_t k = 0; k < pose.outputControls.size(); ++k)
        m_controls[pose.outputControls[k]] += pose.outputWeights[k] * weights[i] * inputWeight;
    }
  }
}

// Every input is read before any PSD is written: a PSD that reads another
// PSD sees its value from the previous calculate() (RigLogic's order).
void DnaRig::evaluatePsds() {
  const std::size_t R = m_dna->rawCount();
  for (auto j : m_snapshotInputs) m_snapshot[j] = std::clamp(m_controls[j], 0.0f, 1.0f);
  for (std::size_t p : m_lodPsds) {
    float product = m_psdWeights[p];
    for (auto in : m_psdInputs[p]) product *= m_snapshot[in];
    m_controls[R + p] = std::min(1.0f, product);
  }
}

void DnaRig::evaluateJoints() {
  const Dna& d = *m_dna;
  std::fill(m_joints.begin(), m_joints.end(), 0.0f);
  for (const DnaJointGroup& g : d.jointGroups) {
    const std::size_t rows = lodRows(g.lods, m_lod), cols = g.inputs.size();
    // The group's inputs gathered once, so each row is a contiguous dot product.
    for (std::size_t c = 0; c < cols; ++c) m_columns[c] = m_controls[g.inputs[c]];
    for (std::size_t r = 0; r < rows; ++r) {
      const std::size_t attribute = g.outputs[r];
      if (m_quaternionJoint[attribute / 9] && attribute % 9 >= 3 && attribute % 9 < 6) continue;
      const float* row = g.values.data() + r * cols;
      // Four partial sums (as RigLogic's SIMD blocks sum): independent adds the CPU overlaps.
      float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      std::size_t c = 0;
      for (; c + 4 <= cols; c += 4)
        for (std::size_t k = 0; k < 4; ++k) sum[k] += row[c + k] * m_columns[c + k];
      for (; c < cols; ++c) sum[0] += row[c] * m_columns[c];
      m_joints[attribute] = (sum[0] + sum[1]) + (sum[2] + sum[3]);
    }
  }
  // Quaternion joints: each column's rotation blended toward identity by its
  // control, normalised, and composed on the left of the running product.
  const double fromRadians = d.rotationInDegrees() ? 180.0 / std::numbers::pi : 1.0;
  for (const QuaternionJoint& qj : m_lodQuaternionJoints) {
    const DnaJointGroup& g = d.jointGroups[qj.group];
    glm::dquat acc(1.0, 0.0, 0.0, 0.0);
    for (std::size_t c = 0; c < qj.columns.size(); ++c) {
      const double w = m_controls[g.inputs[c]];
      const auto& q = qj.columns[c];
      const double s = q[3] >= 0 ? 1.0 : -1.0;
      glm::dquat blended(q[3] * w + s * (1.0 - w), q[0] * w, q[1] * w, q[2] * w);
      const double length = glm::length(blended);
      if (length > 0) blended /= length;
      acc = blended * acc;
    }
    const glm::dvec3 euler = dna_detail::quatToEuler(acc, d.rotationSequence, d.rotationSign) * fromRadians;
    for (int k = 0; k < 3; ++k) m_joints[qj.joint * 9 + 3 + std::size_t(k)] = float(euler[k]);
  }
}

void DnaRig::evaluateBlendShapes() {
  const Dna& d = *m_dna;
  std::fill(m_blendShapes.begin(), m_blendShapes.end(), 0.0f);
  for (std::size_t i = 0; i < lodRows(d.blendShapeLods, m_lod); ++i)
    m_blendShapes[d.blendShapeOutputs[i]] = m_controls[d.blendShapeInputs[i]];
}

void DnaRig::evaluateAnimatedMaps() {
  std::fill(m_animatedMaps.begin(), m_animatedMaps.end(), 0.0f);
  applyConditionals(m_maps, m_mapRunEnd, lodRows(m_dna->animatedMapLods, m_lod), m_controls, m_animatedMaps);
  for (float& v : m_animatedMaps) v = std::clamp(v, 0.0f, 1.0f);
}

std::optional<std::size_t> DnaRig::guiIndex(std::string_view name) const {
  const auto& names = m_dna->guiControlNames;
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? std::nullopt : std::optional<std::size_t>(std::size_t(it - names.begin()));
}

std::optional<std::size_t> DnaRig::rawIndex(std::string_view name) const {
  const auto& names = m_dna->rawControlNames;
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? std::nullopt : std::optional<std::size_t>(std::size_t(it - names.begin()));
}

Expected<void> DnaRig::evaluate(DnaControlMode mode, const std::vector<std::pair<std::string, float>>& values) {
  reset();
  for (const auto& [name, value] : values) {
    const auto index = mode == DnaControlMode::Gui ? guiIndex(name) : rawIndex(name);
    if (!index)
      return makeError(ErrorCode::Usage, "'" + name + "' is not a " + (mode == DnaControlMode::Gui ? "GUI" : "raw") +
                                             " control of this DNA");
    (mode == DnaControlMode::Gui ? m_gui : m_controls)[*index] = value;
  }
  if (mode == DnaControlMode::Gui) mapGuiToRaw();
  calculate();
  return {};
}

std::vector<std::string> DnaRig::problems() const {
  std::vector<std::string> out;
  for (const auto& s : m_solvers)
    if (!s->problem().empty()) out.push_back("RBF solver '" + s->spec().name + "': " + s->problem());
  return out;
}

}  // namespace riglens::core
