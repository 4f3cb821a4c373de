// The sample ORL character's DNA (orl_sample.h): MetaHuman board widgets ->
// raw expressions -> PSD correctives, an RBF jaw solver, jaw and eye joint
// groups, blendshape channels named after the ICT shapes they drive, and
// animated maps, at two LODs.
#include <algorithm>

#include "orl_sample_tables.h"
#include "riglens/samples/orl_sample.h"

namespace riglens::samples {
namespace {

using core::Dna;

std::uint16_t indexOf(std::vector<std::string>& names, const std::string& name) {
  auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) it = names.insert(names.end(), name);
  return std::uint16_t(it - names.begin());
}

void addRow(core::DnaConditionals& t, std::uint16_t in, std::uint16_t out, float from, float to, float slope) {
  t.inputs.push_back(in), t.outputs.push_back(out), t.from.push_back(from), t.to.push_back(to);
  t.slope.push_back(slope), t.cut.push_back(0.0f);
}

// GUI -> raw: every widget row of the board table.
void boardWidgets(Dna& d) {
  for (const OrlWidget& w : orlWidgets())
    addRow(d.guiToRaw, indexOf(d.guiControlNames, w.gui), indexOf(d.rawControlNames, kRawPrefix + w.raw), w.from, w.to,
           w.slope);
}

std::uint16_t raw(const Dna& d, const std::string& name) {
  return std::uint16_t(std::find(d.rawControlNames.begin(), d.rawControlNames.end(), kRawPrefix + name) -
                       d.rawControlNames.begin());
}

// Jaw: open rotates about x, sideways slides and turns it, forward slides it;
// the RBF poses (controls after the PSDs) move it back when open, aside when open sideways.
core::DnaJointGroup jawGroup(const Dna& d, std::uint16_t poses) {
  core::DnaJointGroup g;
  g.inputs = {raw(d, "jawOpen"),        raw(d, "jawLeft"),        raw(d, "jawRight"),      raw(d, "jawFwd"),
              std::uint16_t(poses + 1), std::uint16_t(poses + 2), std::uint16_t(poses + 3)};
  g.outputs = {9 + 0, 9 + 2, 9 + 3, 9 + 4};                // FACIAL_C_Jaw tx, tz, rx, ry
  g.values = {0,  0.6f, -0.6f, 0,    0,      0.2f, -0.2f,  // tx (cm)
              0,  0,    0,     0.5f, -0.25f, 0,    0,      // tz (cm)
              22, 0,    0,     0,    0,      0,    0,      // rx (degrees)
              0,  6,    -6,    0,    0,      0,    0};     // ry
  g.lods = {4, 4};
  g.joints = {1};
  return g;
}

// Eyes (quaternion-represented): up/down about x, in/out about y.
core::DnaJointGroup eyeGroup(const Dna& d) {
  core::DnaJointGroup g;
  for (const char* side : {"L", "R"})
    for (const char* look : {"eyeLookUp", "eyeLookDown", "eyeLookIn", "eyeLookOut"})
      g.inputs.push_back(raw(d, std::string(look) + side));
  g.outputs = {18 + 3, 18 + 4, 27 + 3, 27 + 4};     // FACIAL_L_Eye rx, ry; FACIAL_R_Eye rx, ry
  g.values = {-15, 15, 0,   0,  0,   0,  0,  0,     // L rx
              0,   0,  -20, 20, 0,   0,  0,  0,     // L ry: in turns toward the nose (-x)
              0,   0,  0,   0,  -15, 15, 0,  0,     // R rx
              0,   0,  0,   0,  0,   0,  20, -20};  // R ry
  g.lods = {4, 0};
  g.joints = {2, 3};
  return g;
}

void jawSolver(Dna& d) {
  core::DnaRbfSolver s;
  s.name = "jaw_pose";
  s.rawControls = {raw(d, "jawOpen"), raw(d, "jawLeft"), raw(d, "jawRight")};
  s.poses = {0, 1, 2, 3};
  s.targets = {0, 0, 0, 1, 0, 0, 1, 1, 0, 1, 0, 1};
  s.type = core::RbfSolverType::Interpolative;
  s.automaticRadius = true;
  s.function = core::RbfFunction::Gaussian;
  s.weightThreshold = 0.01f;
  d.rbfSolvers = {s};
  d.lodSolvers = {{0, 0}, {{0}}};
  d.hasRbfe = true;
  const std::size_t first = d.rawCount() + d.psdCount;
  for (const char* pose : {"jaw_rest", "jaw_open", "jaw_open_left", "jaw_open_right"}) {
    const auto control = std::uint16_t(first + d.poseControlNames.size());
    d.poseControlNames.push_back(pose);
    d.rbfPoses.push_back({pose, 1.0f, {}, {control}, {1.0f}});
  }
}

}  // namespace

core::Dna sampleOrlDna() {
  Dna d;
  d.name = "sample-orl-face";
  d.dbName = "RigLens sample";
  d.complexity = "sample";
  d.lodCount = 2;
  d.maxLod = 1;
  d.metadata = {{"source", "RigLens sample generator over the ICT-FaceKit face (MIT)"}};
  boardWidgets(d);
  d.jointNames = {"FACIAL_C_FacialRoot", "FACIAL_C_Jaw", "FACIAL_L_Eye", "FACIAL_R_Eye"};
  d.jointParents = {0, 0, 0, 0};
  d.neutralTranslations.assign(12, 0.0f);
  d.neutralRotations.assign(12, 0.0f);
  d.jointRotations = {core::JointRotation::Euler, core::JointRotation::Euler, core::JointRotation::Quaternion,
                      core::JointRotation::Quaternion};
  d.jointRowCount = 36;
  // Correctives: PSD p is control R + p, the product of its two raw inputs.
  const auto& correctives = orlCorrectives();
  d.psdCount = std::uint16_t(correctives.size());
  for (std::size_t p = 0; p < correctives.size(); ++p)
    for (const char* input : {correctives[p].a, correctives[p].b}) {
      d.psdRows.push_back(std::uint16_t(d.rawCount() + p));
      d.psdColumns.push_back(raw(d, input));
      d.psdValues.push_back(1.0f);
    }
  jawSolver(d);
  d.jointColumnCount = std::uint16_t(d.controlCount());
  d.jointGroups = {jawGroup(d, std::uint16_t(d.rawCount() + d.psdCount)), eyeGroup(d)};
  // Blendshape channels: the ICT shapes the raw expressions drive, then the correctives (LOD 0 only).
  for (const OrlChannel& c : orlChannels()) {
    d.blendShapeInputs.push_back(raw(d, c.raw));
    d.blendShapeOutputs.push_back(indexOf(d.blendShapeNames, c.shape));
  }
  const auto lod1 = std::uint16_t(d.blendShapeInputs.size());
  for (std::size_t p = 0; p < correctives.size(); ++p) {
    d.blendShapeInputs.push_back(std::uint16_t(d.rawCount() + p));
    d.blendShapeOutputs.push_back(indexOf(d.blendShapeNames, correctives[p].channel));
  }
  d.blendShapeLods = {std::uint16_t(d.blendShapeInputs.size()), lod1};
  // Animated maps: wrinkle-map weights from blinks and smiles.
  for (const char* side : {"L", "R"}) {
    addRow(d.animatedMaps, raw(d, std::string("eyeBlink") + side),
           indexOf(d.animatedMapNames, std::string("head_wm1_blink_") + side), 0, 1, 1);
    addRow(d.animatedMaps, raw(d, std::string("mouthCornerPull") + side),
           indexOf(d.animatedMapNames, std::string("head_wm2_smile_") + side), 0, 1, 1);
  }
  d.animatedMapLods = {4, 2};
  const auto all = [](std::size_t n) {
    std::vector<std::uint16_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = std::uint16_t(i);
    return v;
  };
  d.lodJoints = {{0, 1}, {all(4), all(2)}};
  d.lodBlendShapes = {{0, 1}, {all(d.blendShapeCount()), all(lod1)}};
  d.lodAnimatedMaps = {{0, 1}, {all(4), all(2)}};
  d.lodMeshes = {{0, 0}, {{}}};
  return d;
}

}  // namespace riglens::samples
