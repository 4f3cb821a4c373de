// A DNA's behaviour evaluated with RigLogic's semantics (contract/ORL.md 2.4
// and 2.5): GUI or raw controls in; per frame GUI->raw (GUI mode only), RBF
// solvers, PSD correctives, joint groups, blendshape channels and animated
// maps at the chosen LOD; out come exactly what the ORL deform takes: 9
// floats per joint (translation delta in DNA units, rotation delta in
// degrees or radians as the DNA says, scale delta) and one weight per
// blendshape channel, plus the animated maps.
//
// State persists across calculate() calls as in RigLogic: raw controls stay
// as set, and a PSD that reads another PSD sees that PSD's previous value
// (the snapshot quirk). Everything calculate() touches is allocated by
// create() and setLod(), so a frame allocates nothing.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/dna/dna.h"

namespace riglens::core {

namespace dna_detail {
class RbfSolver;
}

enum class DnaControlMode { Gui, Raw };

class DnaRig {
 public:
  // Prepares the solvers (an interpolative solver's kernel inverse) and LOD 0.
  static Expected<std::unique_ptr<DnaRig>> create(std::shared_ptr<const Dna> dna);
  ~DnaRig();

  const Dna& dna() const { return *m_dna; }
  std::size_t lod() const { return m_lod; }
  Expected<void> setLod(std::size_t lod);  // refused at or past the descriptor's LOD count

  // Every control back to its initial value (0; 1 for a .w/.qw raw control an RBF solver reads).
  void reset();
  std::span<float> guiControls() { return m_gui; }
  std::span<float> rawControls() { return {m_controls.data(), m_dna->rawCount()}; }
  // GUI -> raw: raw controls zeroed, the first matching row of each
  // consecutive (input, output) run applied, every raw control clamped to [0, 1].
  void mapGuiToRaw();
  void calculate();

  std::span<const float> controls() const { return m_controls; }  // raw | psd | rbf pose controls
  std::span<const float> jointOutputs() const { return m_joints; }
  std::span<const float> blendShapeOutputs() const { return m_blendShapes; }
  std::span<const float> animatedMapOutputs() const { return m_animatedMaps; }

  // One whole evaluation: reset, the values by name in `mode` (GUI values
  // then mapped), calculate. Unknown names are refused, naming them.
  Expected<void> evaluate(DnaControlMode mode, const std::vector<std::pair<std::string, float>>& values);
  std::optional<std::size_t> guiIndex(std::string_view name) const;
  std::optional<std::size_t> rawIndex(std::string_view name) const;
  // What the solvers could not do (a solver with one target and an automatic radius), for Problems.
  std::vector<std::string> problems() const;

 private:
  explicit DnaRig(std::shared_ptr<const Dna> dna);
  struct QuaternionJoint;
  void prepareLod();
  void solveRbf();
  void evaluatePsds();
  void evaluateJoints();
  void evaluateBlendShapes();
  void evaluateAnimatedMaps();

  std::shared_ptr<const Dna> m_dna;
  std::size_t m_lod = 0;
  std::vector<float> m_gui, m_controls, m_initial, m_joints, m_blendShapes, m_animatedMaps;
  std::vector<std::size_t> m_guiRunEnd, m_mapRunEnd;  // per row: the row after its consecutive (in, out) run
  DnaConditionals m_guiToRaw, m_maps;                 // from <= to
  // PSD p: its input columns and the product of its values.
  std::vector<std::vector<std::uint16_t>> m_psdInputs;
  std::vector<float> m_psdWeights;
  std::vector<std::unique_ptr<dna_detail::RbfSolver>> m_solvers;
  std::vector<std::vector<std::uint16_t>> m_solverOutputs;  // per solver: every control a pose of it writes
  std::vector<bool> m_quaternionJoint;
  // Per LOD (prepareLod): what this LOD evaluates, and the snapshot scratch.
  std::vector<std::size_t> m_lodSolvers, m_lodPsds;
  std::vector<std::uint16_t> m_snapshotInputs;
  std::vector<float> m_snapshot, m_poseWeights, m_columns;
  std::vector<QuaternionJoint> m_lodQuaternionJoints;
};

}  // namespace riglens::core
