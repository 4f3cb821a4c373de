// The DNA evaluator against outputs derived by hand from contract/ORL.md 2.5,
// one tiny DNA per feature, written by our writer and read back by the reader.
#include <QtTest/QTest>
#include <cmath>
#include <numbers>

#include "dna_fixtures.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/character/expressions.h"
#include "riglens/core/character/orl_pack.h"
#include "riglens/samples/orl_sample.h"
#include "test_checks.h"

using namespace riglens;
using core::Dna;
using core::DnaRig;
using test::baseDna;
using test::rigOf;
namespace tol = core::tolerance;

namespace {

constexpr double kPi = std::numbers::pi;

// x, y, z, w of a rotation by `angle` about a unit axis.
std::array<double, 4> axisAngle(double ax, double ay, double az, double angle) {
  const double s = std::sin(angle / 2);
  return {ax * s, ay * s, az * s, std::cos(angle / 2)};
}

// The rotation angle between two unit quaternions, from its geometric meaning (2 acos |dot|).
double angleBetween(const std::array<double, 4>& a, const std::array<double, 4>& b) {
  const double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  return 2 * std::acos(std::min(1.0, std::abs(dot)));
}

// One RBF solver over `inputs` raw controls, poses with implicit outputs (no rbfe).
Dna rbfDna(std::size_t inputs, std::vector<float> targets, core::DnaRbfSolver solver) {
  Dna d = baseDna(0, inputs, 0);
  d.rotationUnit = 1;  // radians: the stored radius is used as it is
  const std::size_t poses = targets.size() / inputs;
  for (std::size_t i = 0; i < inputs; ++i) solver.rawControls.push_back(std::uint16_t(i));
  for (std::size_t p = 0; p < poses; ++p) {
    solver.poses.push_back(std::uint16_t(p));
    d.rbfPoses.push_back({"pose" + std::to_string(p), 1.0f, {}, {}, {}});
  }
  solver.targets = std::move(targets);
  solver.name = "solver";
  d.rbfSolvers.push_back(solver);
  d.lodSolvers = {{0}, {{0}}};
  return d;
}

// The pose controls' values after one calculate with these raw inputs.
std::vector<float> poseWeights(DnaRig& rig, const std::vector<float>& inputs) {
  rig.reset();
  std::copy(inputs.begin(), inputs.end(), rig.rawControls().begin());
  rig.calculate();
  const auto c = rig.controls();
  return {c.begin() + std::ptrdiff_t(rig.dna().rawCount() + rig.dna().psdCount), c.end()};
}

}  // namespace

class TestDna : public QObject {
  Q_OBJECT

 private slots:
  void guiToRawTakesTheFirstMatchOfEachRunAndClamps() {
    Dna d = baseDna(1, 3, 0);
    // (in, out, from, to, slope, cut): rows 0-1 one run (reversed from/to in
    // row 0), rows 2-3 a run into raw 1, row 4 a second run into raw 0.
    // Columns: inputs, outputs, from, to, slope, cut.
    d.guiToRaw = core::DnaConditionals{{0, 0, 0, 0, 0}, {0, 0, 1, 1, 0},       {1, -1, -1, 0, -1},
                                       {0, 0, 0, 1, 1}, {2, 10, -1, 3, 0.25f}, {0, 0, 0, 0.5f, 0}};
    auto rig = rigOf(d);
    QVERIFY_OK(rig);
    const auto at = [&](float g) {
      (*rig)->reset();
      (*rig)->guiControls()[0] = g;
      (*rig)->mapGuiToRaw();
      const auto raw = (*rig)->rawControls();
      return std::array<float, 3>{raw[0], raw[1], raw[2]};
    };
    // g = 0.25: row 0 (interval [0, 1] after the swap) 2*0.25 = 0.5; row 1 skipped; row 2 no;
    // row 3 3*0.25+0.5 = 1.25 -> 1; row 4 (a new run) adds 0.25*0.25 = 0.0625 to raw 0.
    auto raw = at(0.25f);
    QCOMPARE_NEAR(raw[0], 0.5625, tol::kFloatUnit);
    QCOMPARE_NEAR(raw[1], 1.0, tol::kFloatUnit);
    QCOMPARE_NEAR(raw[2], 0.0, tol::kFloatUnit);
    // g = -0.5: row 0 no, row 1 (in the same run, [-1, 0]) 10*-0.5 = -5 -> clamped 0;
    // row 2 -1*-0.5 = 0.5; row 4 0.25*-0.5 = -0.125 (after -5: clamp of the sum -5.125 -> 0).
    raw = at(-0.5f);
    QCOMPARE_NEAR(raw[0], 0.0, tol::kFloatUnit);
    QCOMPARE_NEAR(raw[1], 0.5, tol::kFloatUnit);
    // An inclusive bound: g = 1 matches row 0 ([0, 1]) -> 2; clamped to 1.
    raw = at(1.0f);
    QCOMPARE_NEAR(raw[0], 1.0, tol::kFloatUnit);
    // GUI mode zeroes raw controls set by hand; raw mode keeps them unclamped.
    (*rig)->reset();
    (*rig)->rawControls()[2] = 7.0f;
    (*rig)->calculate();
    QCOMPARE((*rig)->rawControls()[2], 7.0f);
    (*rig)->mapGuiToRaw();
    QCOMPARE((*rig)->rawControls()[2], 0.0f);
    QCOMPARE(d.guiRange(0), (std::pair<float, float>(-1.0f, 1.0f)));
  }

  void psdProductsReadAClampedSnapshotTakenBeforeAnyPsd() {
    Dna d = baseDna(0, 2, 0, 2);
    d.psdCount = 2;
    // PSD 0 (control 2) = min(1, 2 * 0.75 * c0 * c1); PSD 1 (control 3) = c(PSD 0) * c0.
    d.psdRows = {2, 2, 3, 3};
    d.psdColumns = {0, 1, 2, 0};
    d.psdValues = {2.0f, 0.75f, 1.0f, 1.0f};
    auto rig = test::rigCalculatedAt(d, 0.8f, 0.5f);
    QVERIFY_OK(rig);
    DnaRig& r = **rig;
    QCOMPARE_NEAR(r.blendShapeOutputs()[0], 1.5 * 0.8 * 0.5, tol::kFloatUnit);
    QCOMPARE_NEAR(r.blendShapeOutputs()[1], 0.0, tol::kFloatUnit);  // read PSD 0 before it was written
    r.calculate();
    QCOMPARE_NEAR(r.blendShapeOutputs()[1], 0.6 * 0.8, tol::kFloatUnit);  // the previous frame's PSD 0
    r.rawControls()[0] = 3.0f, r.rawControls()[1] = 0.9f;                 // inputs clamped to 1 in the snapshot
    r.calculate();
    QCOMPARE_NEAR(r.blendShapeOutputs()[0], 1.0, tol::kFloatUnit);  // 1.5 * 1 * 0.9 = 1.35, upper clamp
    QCOMPARE_NEAR(r.blendShapeOutputs()[1], 0.6, tol::kFloatUnit);  // the previous PSD 0 (0.6) * clamp(3)
  }

  void jointGroupsAreRowMajorWithLodRowPrefixes() {
    Dna d = baseDna(0, 2, 2, 0, 0, 2);
    // Rows: j0.tx, j0.ry, j1.sz; columns: raw 0, raw 1. LOD 0 uses 3 rows, LOD 1 the first.
    d.jointGroups = {{{3, 1}, {0, 1}, {0, 4, 17}, {1, 2, 3, 4, 5, 6}, {0, 1}}};
    auto rig = rigOf(d);
    QVERIFY_OK(rig);
    DnaRig& r = **rig;
    r.rawControls()[0] = 0.5f, r.rawControls()[1] = 0.25f;
    r.calculate();
    auto out = r.jointOutputs();
    QCOMPARE(out.size(), std::size_t(18));
    QCOMPARE_NEAR(out[0], 1 * 0.5 + 2 * 0.25, tol::kFloatUnit);
    QCOMPARE_NEAR(out[4], 3 * 0.5 + 4 * 0.25, tol::kFloatUnit);
    QCOMPARE_NEAR(out[17], 5 * 0.5 + 6 * 0.25, tol::kFloatUnit);
    QVERIFY_OK(r.setLod(1));
    r.calculate();
    out = r.jointOutputs();
    QCOMPARE_NEAR(out[0], 1.0, tol::kFloatUnit);
    QCOMPARE(out[4], 0.0f);  // reset every call, not carried over
    QCOMPARE(out[17], 0.0f);
    QVERIFY(!r.setLod(2));
  }

  void quaternionJointsBlendAsQuaternions() {
    Dna d = baseDna(0, 2, 1);
    d.jointRotations = {core::JointRotation::Quaternion};
    // Rows j0.rx, j0.ry, j0.rz; column 0 rotates 90 degrees about x, column 1 90 degrees about z.
    d.jointGroups = {{{3}, {0, 1}, {3, 4, 5}, {90, 0, 0, 0, 0, 90}, {0}}};
    auto rig = rigOf(d);
    QVERIFY_OK(rig);
    DnaRig& r = **rig;
    // Half weight on a 90-degree rotation: q = (sin45/2, 0, 0, cos45/2 + 1/2) normalised is 45 degrees.
    r.rawControls()[0] = 0.5f;
    r.calculate();
    QCOMPARE_NEAR(r.jointOutputs()[3], 45.0, tol::kFloatCoordinate);
    QCOMPARE_NEAR(r.jointOutputs()[4], 0.0, tol::kFloatCoordinate);
    // Both whole: acc = qz * qx, the matrix Rz(90) Rx(90), whose xyz Euler angles are (90, 0, 90).
    r.rawControls()[0] = 1.0f, r.rawControls()[1] = 1.0f;
    r.calculate();
    QCOMPARE_NEAR(r.jointOutputs()[3], 90.0, tol::kFloatCoordinate);
    QCOMPARE_NEAR(r.jointOutputs()[4], 0.0, tol::kFloatCoordinate);
    QCOMPARE_NEAR(r.jointOutputs()[5], 90.0, tol::kFloatCoordinate);
    // A linear (Euler) joint would have summed the rows instead: the quaternion path differs.
    d.jointRotations.clear();
    auto euler = rigOf(d);
    QVERIFY_OK(euler);
    (*euler)->rawControls()[0] = 0.5f;
    (*euler)->calculate();
    QCOMPARE_NEAR((*euler)->jointOutputs()[3], 45.0, tol::kFloatCoordinate);
  }

  void blendShapesCopyControlsUnclampedAtTheirLod() {
    Dna d = baseDna(0, 3, 0, 3, 0, 2);
    d.blendShapeLods = {3, 1};
    d.blendShapeInputs = {2, 0, 1};
    d.blendShapeOutputs = {1, 2, 0};
    auto rig = rigOf(d);
    QVERIFY_OK(rig);
    DnaRig& r = **rig;
    r.rawControls()[0] = 1.5f, r.rawControls()[1] = -0.25f, r.rawControls()[2] = 0.75f;
    r.calculate();
    QCOMPARE(std::vector<float>(r.blendShapeOutputs().begin(), r.blendShapeOutputs().end()),
             (std::vector<float>{-0.25f, 0.75f, 1.5f}));
    QVERIFY_OK(r.setLod(1));
    r.calculate();
    QCOMPARE(std::vector<float>(r.blendShapeOutputs().begin(), r.blendShapeOutputs().end()),
             (std::vector<float>{0.0f, 0.75f, 0.0f}));
  }

  void animatedMapsUseTheConditionalRuleOverControls() {
    Dna d = baseDna(0, 2, 0, 0, 2, 2);
    d.animatedMapLods = {3, 1};
    // map 0 <- raw 0 on [1, 0] (reversed) * 2; map 1 <- raw 1 * 4 - 1, then a second matching row of
    // the same run (9 * raw 1) that the first match skips.
    d.animatedMaps = {{0, 1, 1}, {0, 1, 1}, {1, 0, 0}, {0, 1, 1}, {2, 4, 9}, {0, -1, 0}};
    auto rig = rigOf(d);
    QVERIFY_OK(rig);
    DnaRig& r = **rig;
    r.rawControls()[0] = 0.75f, r.rawControls()[1] = 0.4f;
    r.calculate();
    QCOMPARE_NEAR(r.animatedMapOutputs()[0], 1.0, tol::kFloatUnit);          // 1.5 clamped
    QCOMPARE_NEAR(r.animatedMapOutputs()[1], 4 * 0.4 - 1, tol::kFloatUnit);  // first row of the run only
    QVERIFY_OK(r.setLod(1));
    r.calculate();
    QCOMPARE_NEAR(r.animatedMapOutputs()[1], 0.0, tol::kFloatUnit);
  }

  void rbfKernelsOverEuclideanDistance() {
    using F = core::RbfFunction;
    const double r = 0.5, d0 = 0.25, d1 = 0.75;  // input 0.25 against targets 0 and 1
    const std::vector<std::pair<F, std::function<double(double)>>> kernels{
        {F::Gaussian, [&](double d) { return std::exp(-d / (r * r)); }},
        {F::Exponential, [&](double d) { return std::exp(-2 * d / r); }},
        {F::Linear, [&](double d) { return std::max(0.0, 1 - d / r); }},
        {F::Cubic, [&](double d) { return std::max(0.0, 1 - std::pow(d / r, 3)); }},
        {F::Quintic, [&](double d) { return std::max(0.0, 1 - std::pow(d / r, 5)); }}};
    for (const auto& [function, phi] : kernels) {
      core::DnaRbfSolver s;
      s.radius = float(r);
      s.function = function;
      auto rig = rigOf(rbfDna(1, {0.0f, 1.0f}, s));
      QVERIFY_OK(rig);
      auto w = poseWeights(**rig, {0.25f});
      double a = phi(d0), b = phi(d1);  // normalised only when the sum is above one
      if (phi(d0) + phi(d1) > 1) a = phi(d0) / (phi(d0) + phi(d1)), b = phi(d1) / (phi(d0) + phi(d1));
      QCOMPARE_NEAR(w[0], a, tol::kFloatUnit);
      QCOMPARE_NEAR(w[1], b, tol::kFloatUnit);
    }
  }

  void rbfRadiusScalesThresholdAndNormalisation() {
    core::DnaRbfSolver s;
    s.radius = 1.0f;
    s.function = core::RbfFunction::Linear;
    s.normalize = core::RbfNormalize::Always;
    s.weightThreshold = 0.2f;
    Dna d = rbfDna(1, {0.0f, 1.0f, 3.0f}, s);
    d.rbfPoses[0].scale = 0.5f;
    auto rig = rigOf(d);
    QVERIFY_OK(rig);
    // Input 0.4: linear weights 0.6, 0.4, 0 -> always normalised (sum 1) -> scales 0.5, 1, 1 -> 0.3, 0.4, 0.
    auto w = poseWeights(**rig, {0.4f});
    QCOMPARE_NEAR(w[0], 0.3, tol::kFloatUnit);
    QCOMPARE_NEAR(w[1], 0.4, tol::kFloatUnit);
    // Input 0.15: 0.85, 0.15 -> 0.425 after the scale, 0.15 at or below the threshold -> 0.
    w = poseWeights(**rig, {0.15f});
    QCOMPARE_NEAR(w[0], 0.425, tol::kFloatUnit);
    QCOMPARE(w[1], 0.0f);
    // A degrees DNA converts the stored radius to radians, even for Euclidean distances.
    d.rotationUnit = 0;
    d.rbfSolvers[0].radius = float(180 / kPi);  // 1 radian
    auto degrees = rigOf(d);
    QVERIFY_OK(degrees);
    w = poseWeights(**degrees, {0.4f});
    QCOMPARE_NEAR(w[1], 0.4, tol::kFloatUnit);
  }

  void rbfQuaternionSwingAndTwistDistances() {
    using M = core::RbfDistance;
    const auto identity = axisAngle(1, 0, 0, 0), x90 = axisAngle(1, 0, 0, kPi / 2), y90 = axisAngle(0, 1, 0, kPi / 2);
    std::vector<float> targets;
    for (const auto& q : {identity, x90, y90})
      for (double v : q) targets.push_back(float(v));
    // The input: a 40-degree swing about y applied after a 30-degree twist about x (q = swing * twist).
    const double a = 0.5 * 40 * kPi / 180, b = 0.5 * 30 * kPi / 180;
    const std::array<double, 4> input{std::cos(a) * std::sin(b), std::sin(a) * std::cos(b), -std::sin(a) * std::sin(b),
                                      std::cos(a) * std::cos(b)};
    const double radius = 4.0;  // a Linear kernel wider than any angle (pi): every weight stays positive
    const auto expect = [&](M method, std::array<double, 3> distances) {
      core::DnaRbfSolver s;
      s.radius = float(radius);
      s.function = core::RbfFunction::Linear;
      s.distance = method;
      s.normalize = core::RbfNormalize::Always;
      auto rig = rigOf(rbfDna(4, targets, s));
      QVERIFY_OK(rig);
      const auto w = poseWeights(**rig, {float(input[0]), float(input[1]), float(input[2]), float(input[3])});
      double sum = 0;
      for (double d : distances) sum += 1 - d / radius;
      for (std::size_t t = 0; t < 3; ++t) QCOMPARE_NEAR(w[t], (1 - distances[t] / radius) / sum, tol::kFloatUnit);
    };
    // Quaternion: the angle between the input and each target.
    expect(M::Quaternion, {angleBetween(input, identity), angleBetween(input, x90), angleBetween(input, y90)});
    // SwingAngle (twist axis x): the input's swing is 40 degrees about y; the targets' swings are identity, identity,
    // y90.
    const auto swing = axisAngle(0, 1, 0, 2 * a);
    expect(M::SwingAngle, {angleBetween(swing, identity), angleBetween(swing, identity), angleBetween(swing, y90)});
    // TwistAngle: the input's twist is 30 degrees about x; the targets' twists are identity, x90, identity.
    const auto twist = axisAngle(1, 0, 0, 2 * b);
    expect(M::TwistAngle, {angleBetween(twist, identity), angleBetween(twist, x90), angleBetween(twist, identity)});
  }

  void interpolativeWeightsSolveTheKernelSystem() {
    core::DnaRbfSolver s;
    s.type = core::RbfSolverType::Interpolative;
    s.automaticRadius = true;
    s.function = core::RbfFunction::Gaussian;
    const std::vector<double> t{0.0, 1.0, 3.0};
    auto rig = rigOf(rbfDna(1, {0.0f, 1.0f, 3.0f}, s));
    QVERIFY_OK(rig);
    // The automatic radius: the mean of the pair distances 1, 3, 2 = 2.
    const double r = 2.0;
    const auto phi = [&](double d) { return std::exp(-d / (r * r)); };
    // Weights w = K^-1 phi(x), i.e. the solution of K w = phi(x), by Cramer's rule.
    const double x = 0.6;
    double K[3][3], f[3];
    for (int i = 0; i < 3; ++i) {
      f[i] = phi(std::abs(x - t[std::size_t(i)]));
      for (int j = 0; j < 3; ++j) K[i][j] = phi(std::abs(t[std::size_t(i)] - t[std::size_t(j)]));
    }
    const auto det = [](double m[3][3]) {
      return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
             m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    };
    double expected[3], sum = 0;
    for (int c = 0; c < 3; ++c) {
      double m[3][3];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) m[i][j] = j == c ? f[i] : K[i][j];
      expected[c] = std::clamp(det(m) / det(K), 0.0, 1.0);
      sum += expected[c];
    }
    const auto w = poseWeights(**rig, {float(x)});
    for (int c = 0; c < 3; ++c)
      QCOMPARE_NEAR(w[std::size_t(c)], sum > 1 ? expected[c] / sum : expected[c], tol::kFloatUnit);
    // At a target the system gives that target alone.
    const auto atTarget = poseWeights(**rig, {1.0f});
    QCOMPARE_NEAR(atTarget[1], 1.0, tol::kFloatUnit);
    QCOMPARE_NEAR(atTarget[0], 0.0, tol::kFloatUnit);
  }

  void rbfeOutputsWeightsAndInputMultipliers() {
    core::DnaRbfSolver s;
    s.radius = 1.0f;
    s.function = core::RbfFunction::Linear;
    Dna d = rbfDna(1, {0.0f, 1.0f}, s);
    d.rawControlNames.push_back("CTRL_expressions.gate");  // raw 1 gates pose 1
    d.hasRbfe = true;
    d.poseControlNames = {"out_a", "out_b"};  // controls 2 and 3
    d.rbfPoses[0].outputControls = {2, 3};
    d.rbfPoses[0].outputWeights = {1.0f, 0.5f};
    d.rbfPoses[1].inputControls = {1};
    d.rbfPoses[1].outputControls = {3};
    d.rbfPoses[1].outputWeights = {2.0f};
    d.blendShapeNames = {"a", "b"};
    auto rig = test::rigCalculatedAt(d, 0.25f, 0.5f);
    QVERIFY_OK(rig);
    DnaRig& r = **rig;
    // Linear weights 0.75, 0.25; out_a = 0.75; out_b = 0.5 * 0.75 + 2 * 0.25 * 0.5.
    QCOMPARE_NEAR(r.blendShapeOutputs()[0], 0.75, tol::kFloatUnit);
    QCOMPARE_NEAR(r.blendShapeOutputs()[1], 0.375 + 0.25, tol::kFloatUnit);
    // Without rbfe each pose writes its own control (R + P + pose) with weight 1.
    d.hasRbfe = false;
    d.poseControlNames.clear();
    auto implicit = test::roundTrip(d);
    QVERIFY_OK(implicit);
    QCOMPARE(implicit->poseControlNames, (std::vector<std::string>{"pose0", "pose1"}));
    QCOMPARE(implicit->rbfPoses[1].outputControls, (std::vector<std::uint16_t>{3}));
  }

  void quaternionInputsStartAsIdentity() {
    core::DnaRbfSolver s;
    s.radius = 1.0f;
    s.distance = core::RbfDistance::Quaternion;
    Dna d = rbfDna(4, {0, 0, 0, 1}, s);
    d.rawControlNames = {"head.qx", "head.qy", "head.qz", "head.qw"};
    auto rig = rigOf(d);
    QVERIFY_OK(rig);
    QCOMPARE(std::vector<float>((*rig)->rawControls().begin(), (*rig)->rawControls().end()),
             (std::vector<float>{0, 0, 0, 1}));
  }

  void bothContainerGenerationsReadTheSame() {
    Dna d = baseDna(1, 2, 1, 1);
    d.guiToRaw = {{0, 0}, {0, 1}, {0, 0}, {1, 1}, {1, -1}, {0, 1}};
    d.jointGroups = {{{2}, {0, 1}, {0, 4}, {1, 2, 3, 4}, {0}}};
    test::channelsRead(d, {1});
    for (std::uint16_t version : {std::uint16_t(1), std::uint16_t(2), std::uint16_t(8)}) {
      auto rig = rigOf(d, {version, {}, 0});
      QVERIFY_OK(rig);
      QCOMPARE((*rig)->dna().version, version);
      QVERIFY_OK((*rig)->evaluate(core::DnaControlMode::Gui, {{"CTRL_g0.ty", 0.5f}}));
      QCOMPARE_NEAR((*rig)->jointOutputs()[0], 1 * 0.5 + 2 * 0.5, tol::kFloatUnit);
      QCOMPARE_NEAR((*rig)->blendShapeOutputs()[0], 0.5, tol::kFloatUnit);
    }
  }

  void unknownLayersAreSkippedWithAWarning() {
    Dna d = baseDna(0, 1, 0, 1);
    test::channelsRead(d, {0});
    auto read = test::roundTrip(d, {8, {{"zzzz", {1, 2, 3, 4, 5}}, {"geom", {9, 9}}, {"twsw", {}}}, 0});
    QVERIFY_OK(read);
    QCOMPARE(read->warnings.size(), std::size_t(1));
    QVERIFY(QString::fromStdString(read->warnings[0].describe()).contains("unknown layer 'zzzz' (5 bytes) skipped"));
    QVERIFY(read->hasLayer("geom"));
  }

  void evaluateRefusesUnknownNames() {
    auto rig = rigOf(baseDna(1, 1, 0));
    QVERIFY_OK(rig);
    const auto refused = (*rig)->evaluate(core::DnaControlMode::Raw, {{"CTRL_g0.ty", 1.0f}});
    QVERIFY(!refused);
    QVERIFY(QString::fromStdString(refused.error().message).contains("'CTRL_g0.ty' is not a raw control"));
  }
};

// The sample ORL character end to end: its mesh takes the skin drive mode,
// the pack carries the DNA, and the jaw widget opens the jaw by the table's
// 22 degrees in GUI, raw and ARKit input alike.
class TestOrlSample : public QObject {
  Q_OBJECT

 private slots:
  void theJawWidgetOpensTheMouth() {
    auto sample = samples::makeSampleOrl(RIGLENS_DATA_DIR "/ict-face");
    QVERIFY_OK(sample);
    QCOMPARE(sample->pack.vertexCount, std::size_t(24049));
    QCOMPARE(core::orlDriveMode(sample->pack.vertexCount), core::OrlDriveMode::Skin);
    auto bytes = samples::writeOrlPack(sample->pack);
    QVERIFY_OK(bytes);
    auto pack = core::parseOrlPack(*bytes, "orl_pack.bin");
    QVERIFY_OK(pack);
    auto dna = core::readDna(pack->behaviorDna, "head_behavior.dna");
    QVERIFY_OK(dna);
    QCOMPARE(dna->jointNames, pack->jointNames);
    QCOMPARE(dna->blendShapeCount(), pack->channelCount);
    auto rig = DnaRig::create(std::make_shared<const Dna>(std::move(dna).value()));
    QVERIFY_OK(rig);
    DnaRig& r = **rig;
    QVERIFY_OK(r.evaluate(core::DnaControlMode::Gui, {{"CTRL_C_jaw.ty", 1.0f}, {"CTRL_C_jaw.tx", -0.5f}}));
    QCOMPARE(r.rawControls()[*r.rawIndex("CTRL_expressions.jawOpen")], 1.0f);
    QCOMPARE(r.rawControls()[*r.rawIndex("CTRL_expressions.jawLeft")], 0.5f);  // a bipolar widget, signed
    QCOMPARE(r.rawControls()[*r.rawIndex("CTRL_expressions.jawRight")], 0.0f);
    const std::vector<float> gui(r.jointOutputs().begin(), r.jointOutputs().end());
    QCOMPARE_NEAR(gui[9 + 3], 22.0, tol::kFloatCoordinate);  // FACIAL_C_Jaw rx: the table's 22 degrees
    QCOMPARE_NEAR(gui[9 + 4], 3.0, tol::kFloatCoordinate);   // ry: 6 degrees per unit of jawLeft
    // Raw mode with the raw values the mapping gave: the same outputs.
    QVERIFY_OK(r.evaluate(core::DnaControlMode::Raw,
                          {{"CTRL_expressions.jawOpen", 1.0f}, {"CTRL_expressions.jawLeft", 0.5f}}));
    QCOMPARE(std::vector<float>(r.jointOutputs().begin(), r.jointOutputs().end()), gui);
    // ARKit JawOpen through the ARKit -> MetaHuman table reaches the same widget.
    std::vector<float> arkit(core::kArkitCount, 0.0f), mh(core::kMhControlCount, 0.0f);
    arkit[std::size_t(std::find(core::arkitNames().begin(), core::arkitNames().end(), "JawOpen") -
                      core::arkitNames().begin())] = 1.0f;
    core::arkitToMh(arkit, std::span<float, core::kMhControlCount>(mh));
    std::vector<std::pair<std::string, float>> values;
    for (std::size_t i = 0; i < mh.size(); ++i) {
      std::string name = core::mhRigNames()[i];
      name.replace(name.find(".translate"), 11, name.ends_with("X") ? ".tx" : ".ty");
      if (mh[i] != 0.0f && r.guiIndex(name)) values.emplace_back(name, mh[i]);
    }
    QVERIFY_OK(r.evaluate(core::DnaControlMode::Gui, values));
    QCOMPARE_NEAR(r.jointOutputs()[9 + 3], 22.0, tol::kFloatCoordinate);
    // The deform: the lowest vertex (weighted to the jaw) moves, the top of the head does not.
    auto rest = core::orlDeform(*pack, std::vector<float>(pack->jointCount * 9, 0.0f),
                                std::vector<float>(pack->channelCount, 0.0f));
    auto open = core::orlDeform(*pack, r.jointOutputs(), r.blendShapeOutputs());
    QVERIFY_OK(rest);
    QVERIFY_OK(open);
    std::size_t low = 0, high = 0;
    for (std::size_t v = 0; v < pack->vertexCount; ++v) {
      if (pack->neutral[v * 3 + 1] < pack->neutral[low * 3 + 1]) low = v;
      if (pack->neutral[v * 3 + 1] > pack->neutral[high * 3 + 1]) high = v;
    }
    const auto moved = [&](std::size_t v) {
      double d = 0;
      for (int k = 0; k < 3; ++k)
        d = std::max(d, double(std::abs((*open)[v * 3 + std::size_t(k)] - (*rest)[v * 3 + std::size_t(k)])));
      return d;
    };
    QVERIFY2(moved(low) > tol::kMoved, "the lowest vertex (jaw-weighted) did not move");
    QCOMPARE_NEAR(moved(high), 0.0, tol::kFloatCoordinate);
  }
};

int main(int argc, char** argv) {
  TestDna dna;
  TestOrlSample sample;
  return QTest::qExec(&dna, argc, argv) | QTest::qExec(&sample, argc, argv);
}
#include "tst_core_dna.moc"
