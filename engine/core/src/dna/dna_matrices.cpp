#include "riglens/core/dna/dna_matrices.h"

#include <cstdint>

namespace riglens::core {
namespace {

constexpr std::size_t kIndex = sizeof(std::uint16_t), kValue = sizeof(float);

DnaMatrix conditionals(std::string name, const DnaConditionals& c) {
  // A row: input and output indices, then from, to, slope and cut.
  return {std::move(name), c.size(), 6, c.size(), c.size() * (2 * kIndex + 4 * kValue)};
}

}  // namespace

std::vector<DnaMatrix> dnaMatrices(const Dna& dna) {
  std::vector<DnaMatrix> out;
  if (dna.guiToRaw.size()) out.push_back(conditionals("GUI to raw conditionals", dna.guiToRaw));
  if (!dna.psdValues.empty())
    out.push_back({"PSD products", dna.psdCount, dna.rawCount(), dna.psdValues.size(),
                   dna.psdRows.size() * kIndex + dna.psdColumns.size() * kIndex + dna.psdValues.size() * kValue});
  if (!dna.jointGroups.empty()) {
    DnaMatrix joints{"joint groups (" + std::to_string(dna.jointGroups.size()) + ")", dna.jointRowCount,
                     dna.jointColumnCount, 0, 0};
    for (const DnaJointGroup& g : dna.jointGroups) {
      joints.values += g.values.size();
      joints.bytes +=
          g.values.size() * kValue + (g.lods.size() + g.inputs.size() + g.outputs.size() + g.joints.size()) * kIndex;
    }
    out.push_back(std::move(joints));
  }
  if (!dna.blendShapeInputs.empty())
    out.push_back({"blendshape channels", dna.blendShapeCount(), dna.controlCount(), dna.blendShapeInputs.size(),
                   (dna.blendShapeInputs.size() + dna.blendShapeOutputs.size() + dna.blendShapeLods.size()) * kIndex});
  if (dna.animatedMaps.size()) out.push_back(conditionals("animated map conditionals", dna.animatedMaps));
  if (!dna.rbfSolvers.empty()) {
    const std::size_t n = dna.rbfSolvers.size();
    DnaMatrix targets{"RBF solver targets (" + std::to_string(n) + (n == 1 ? " solver)" : " solvers)"), 0, 0, 0, 0};
    for (const DnaRbfSolver& s : dna.rbfSolvers) {
      targets.rows += s.poses.size();
      targets.columns += s.rawControls.size();
      targets.values += s.targets.size();
      targets.bytes += s.targets.size() * kValue + (s.poses.size() + s.rawControls.size()) * kIndex;
    }
    out.push_back(std::move(targets));
    DnaMatrix poses{"RBF pose outputs", dna.rbfPoses.size(), dna.controlCount(), 0, 0};
    for (const DnaRbfPose& p : dna.rbfPoses) {
      poses.values += p.outputWeights.size();
      poses.bytes += p.outputWeights.size() * kValue + (p.inputControls.size() + p.outputControls.size()) * kIndex;
    }
    out.push_back(std::move(poses));
  }
  return out;
}

}  // namespace riglens::core
