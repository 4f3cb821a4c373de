// A MetaHuman DNA's behaviour, as the ORL rig evaluates it (the facts are in
// contract/ORL.md section 2). Only what evaluation and inspection need is
// kept: the descriptor, the definition's names and LOD mappings, the
// behaviour layer (GUI->raw conditionals, PSDs, joint groups, blendshape
// channels, animated maps), the RBF solvers and their pose outputs, the joint
// representations and the rotation convention. Geometry, machine-learned
// behaviour and twist/swing layers are skipped by the reader.
//
// Control index space (one vector, length controlCount()):
//   [ raw (R) | psd (P) | ml (M, always 0 here) | rbf pose controls (B) ]
// GUI controls live in a separate vector of G values.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "riglens/core/base/diagnostic.h"

namespace riglens::core {

// Per LOD an index into `indices`; each list names the elements kept at it.
struct DnaLodMapping {
  std::vector<std::uint16_t> lods;
  std::vector<std::vector<std::uint16_t>> indices;
  // The list for `lod` (empty when the mapping has no entry for it).
  const std::vector<std::uint16_t>* at(std::size_t lod) const;
};

// Rows (input, output, from, to, slope, cut): GUI->raw and animated maps.
struct DnaConditionals {
  std::vector<std::uint16_t> inputs, outputs;
  std::vector<float> from, to, slope, cut;
  std::size_t size() const { return inputs.size(); }
};

struct DnaJointGroup {
  std::vector<std::uint16_t> lods;     // rows used per LOD (a prefix)
  std::vector<std::uint16_t> inputs;   // columns -> control index
  std::vector<std::uint16_t> outputs;  // rows -> joint attribute (9 * joint + k)
  std::vector<float> values;           // rows x columns, row-major
  std::vector<std::uint16_t> joints;
};

enum class RbfSolverType : std::uint16_t { Additive = 0, Interpolative = 1 };
enum class RbfFunction : std::uint16_t { Gaussian = 0, Exponential = 1, Linear = 2, Cubic = 3, Quintic = 4 };
enum class RbfDistance : std::uint16_t { Euclidean = 0, Quaternion = 1, SwingAngle = 2, TwistAngle = 3 };
enum class RbfNormalize : std::uint16_t { OnlyAboveOne = 0, Always = 1 };

struct DnaRbfSolver {
  std::string name;
  std::vector<std::uint16_t> rawControls;  // the solver's inputs (control indices)
  std::vector<std::uint16_t> poses;        // indices into Dna::rbfPoses
  std::vector<float> targets;              // poses x inputs, pose-major
  float radius = 0, weightThreshold = 0;
  RbfSolverType type = RbfSolverType::Additive;
  bool automaticRadius = false;  // stored as On = 0, Off = 1
  RbfDistance distance = RbfDistance::Euclidean;
  RbfNormalize normalize = RbfNormalize::OnlyAboveOne;
  RbfFunction function = RbfFunction::Gaussian;
  std::uint16_t twistAxis = 0;  // X, Y, Z
};

struct DnaRbfPose {
  std::string name;
  float scale = 1;
  // From rbfe, or implicit (one output: the pose's own control, weight 1).
  std::vector<std::uint16_t> inputControls;
  std::vector<std::uint16_t> outputControls;
  std::vector<float> outputWeights;
};

enum class JointRotation : std::uint16_t { Euler = 0, Quaternion = 1 };

struct Dna {
  std::uint16_t generation = 2, version = 0;
  std::vector<std::string> layers;  // the layers present, in file order ("desc", "defn", ...)
  // desc
  std::string name, complexity, dbName;
  std::uint16_t archetype = 0, gender = 0, age = 0;
  std::vector<std::pair<std::string, std::string>> metadata;
  std::uint16_t translationUnit = 0;  // 0 cm, 1 m
  std::uint16_t rotationUnit = 0;     // 0 degrees, 1 radians
  std::array<std::uint16_t, 3> coordinateSystem{};
  std::uint16_t lodCount = 1, maxLod = 0;
  // dsce: Euler order of quaternion-represented joints (xyz, xzy, yxz, yzx, zxy, zyx = 0..5) and signs
  std::uint32_t rotationSequence = 0;
  std::array<float, 3> rotationSign{1, 1, 1};
  // defn
  DnaLodMapping lodJoints, lodBlendShapes, lodAnimatedMaps, lodMeshes;
  std::vector<std::string> guiControlNames, rawControlNames, jointNames, blendShapeNames, animatedMapNames, meshNames;
  std::vector<std::uint16_t> jointParents;                   // root = itself
  std::vector<float> neutralTranslations, neutralRotations;  // 3 per joint
  // bhvr
  std::uint16_t psdCount = 0;
  DnaConditionals guiToRaw;
  std::vector<std::uint16_t> psdRows, psdColumns;
  std::vector<float> psdValues;
  std::uint16_t jointRowCount = 0, jointColumnCount = 0;
  std::vector<DnaJointGroup> jointGroups;
  std::vector<std::uint16_t> blendShapeLods, blendShapeInputs, blendShapeOutputs;
  std::vector<std::uint16_t> animatedMapLods;
  DnaConditionals animatedMaps;
  // rbfb / rbfe
  DnaLodMapping lodSolvers;
  std::vector<DnaRbfSolver> rbfSolvers;
  std::vector<DnaRbfPose> rbfPoses;
  std::vector<std::string> poseControlNames;  // rbfe's, else the poses' names
  bool hasRbfe = false;
  // jbmd (empty: every joint Euler)
  std::vector<JointRotation> jointRotations;

  Diagnostics warnings;  // what the reader accepted but found odd

  std::size_t rawCount() const { return rawControlNames.size(); }
  std::size_t controlCount() const { return rawCount() + psdCount + poseControlNames.size(); }
  std::size_t jointCount() const { return jointNames.size(); }
  std::size_t blendShapeCount() const { return blendShapeNames.size(); }
  std::size_t animatedMapCount() const { return animatedMapNames.size(); }
  bool rotationInDegrees() const { return rotationUnit == 0; }
  bool hasLayer(const std::string& id) const;
  // The range of each GUI and raw control the GUI->raw table implies
  // (GUI: the union of its rows' intervals; raw: [0, 1], the mapping's clamp).
  std::pair<float, float> guiRange(std::size_t gui) const;
};

}  // namespace riglens::core
