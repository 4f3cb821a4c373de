// Posing against matrices derived by hand with glm's own rotations: the
// x-pitch sign, pivots, translations, mounts, static attachments, chains,
// joint order, clamping, parts declared before their parent, missing parents
// and cycles (with the reference's resolution order).
#include <QtTest/QTest>
#include <numbers>

#include "reference_math.h"
#include "rig_fixtures.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/rig/pose.h"

using namespace riglens::core;
using namespace riglens::test;

namespace {

constexpr double kPi = std::numbers::pi;

Rig mustBuild(std::string_view text, Diagnostics* warnings = nullptr) {
  auto built = buildRigFromJson(text);
  if (!built) qFatal("fixture rig does not build: %s", built.error().message.c_str());
  if (warnings) *warnings = built->warnings;
  return std::move(built->rig);
}

glm::dvec3 apply(const glm::mat4& m, glm::dvec3 p) {
  return glm::dvec3(glm::dmat4(m) * glm::dvec4(p, 1.0));
}

bool nearVec(glm::dvec3 a, glm::dvec3 b) {
  return glm::length(a - b) <= tolerance::kPoseMatrix;
}

const char* kOneJoint = R"({"parts":[{"name":"p","pivot":[0,0,0]}],
  "joints":[{"name":"j","part":"p","kind":"%KIND%","axis":"%AXIS%","pivot":[%PIVOT%],"min":-10,"max":10,"rest":0,"drive":"caller"}]})";

Rig oneJoint(const char* kind, const char* axis, const char* pivot) {
  QString text = QString::fromUtf8(kOneJoint);
  text.replace("%KIND%", kind).replace("%AXIS%", axis).replace("%PIVOT%", pivot);
  return mustBuild(text.toStdString());
}

}  // namespace

#define QVERIFY_NEAR_VEC(a, b) \
  QVERIFY2(nearVec((a), (b)),  \
           qPrintable(         \
               QString("(%1,%2,%3) vs (%4,%5,%6)").arg((a).x).arg((a).y).arg((a).z).arg((b).x).arg((b).y).arg((b).z)))

class TestPose : public QObject {
  Q_OBJECT
 private slots:
  void positivePitchElevatesAForwardPart() {
    const Rig rig = oneJoint("rotation", "x", "0,0,0");
    const std::vector<double> v{kPi / 2};
    const auto worlds = poseRig(rig, v);
    QVERIFY_NEAR_VEC(apply(worlds[0], {0, 0, 1}), glm::dvec3(0, 1, 0));  // +z forward lifts to +y
    QVERIFY(maxAbsDiff(worlds[0], rotX(kPi / 2)) <= tolerance::kPoseMatrix);
  }

  void yawAndRollAreRightHanded() {
    const auto y = poseRig(oneJoint("rotation", "y", "0,0,0"), std::vector<double>{kPi / 2});
    QVERIFY_NEAR_VEC(apply(y[0], {1, 0, 0}), glm::dvec3(0, 0, -1));
    const auto z = poseRig(oneJoint("rotation", "z", "0,0,0"), std::vector<double>{kPi / 2});
    QVERIFY_NEAR_VEC(apply(z[0], {1, 0, 0}), glm::dvec3(0, 1, 0));
  }

  void rotationTurnsAboutThePivot() {
    const auto w = poseRig(oneJoint("rotation", "y", "16,0,16"), std::vector<double>{kPi});
    QVERIFY_NEAR_VEC(apply(w[0], {16, 0, 20}), glm::dvec3(16, 0, 12));
    QVERIFY_NEAR_VEC(apply(w[0], {16, 5, 16}), glm::dvec3(16, 5, 16));  // on the axis: fixed
    QVERIFY(maxAbsDiff(w[0], aboutPivot(rotY(kPi), 16, 0, 16)) <= tolerance::kPoseMatrix);
  }

  void translationIgnoresThePivot() {
    const auto w = poseRig(oneJoint("translation", "z", "16,13,22"), std::vector<double>{-3});
    QVERIFY(maxAbsDiff(w[0], trans(0, 0, -3)) <= tolerance::kPoseMatrix);
  }

  void valuesAreClamped() {
    const Rig rig = mustBuild(R"({"parts":[{"name":"p"}],
      "joints":[{"name":"j","part":"p","kind":"translation","axis":"y","min":-1,"max":2,"rest":0,"drive":"caller"}]})");
    QVERIFY(maxAbsDiff(poseRig(rig, std::vector<double>{5})[0], trans(0, 2, 0)) <= tolerance::kPoseMatrix);
    QVERIFY(maxAbsDiff(poseRig(rig, std::vector<double>{-7})[0], trans(0, -1, 0)) <= tolerance::kPoseMatrix);
  }

  void jointsComposeInDeclaredOrder() {
    // local = joint(first) * joint(second): translate then rotate differs from
    // rotate then translate.
    const Rig rig = mustBuild(R"({"parts":[{"name":"p"}],"joints":[
      {"name":"slide","part":"p","kind":"translation","axis":"x","min":-9,"max":9,"rest":0,"drive":"caller"},
      {"name":"spin","part":"p","kind":"rotation","axis":"y","pivot":[0,0,0],"min":-9,"max":9,"rest":0,"drive":"caller"}]})");
    const auto w = poseRig(rig, std::vector<double>{2, kPi / 2});
    QVERIFY(maxAbsDiff(w[0], trans(2, 0, 0) * rotY(kPi / 2)) <= tolerance::kPoseMatrix);
  }

  void chainComposesParentWorlds() {
    const Rig rig = mustBuild(R"({"parts":[
        {"name":"hull","pivot":[16,0,16]},
        {"name":"turret","parent":"hull","pivot":[16,10,16]},
        {"name":"barrel","parent":"turret","pivot":[16,13,22]}],
      "joints":[
        {"name":"turret_yaw","part":"turret","kind":"rotation","axis":"y","pivot":[16,10,16],"min":-3.2,"max":3.2,"rest":0,"drive":"caller"},
        {"name":"gun_pitch","part":"barrel","kind":"rotation","axis":"x","pivot":[16,13,22],"min":-0.2,"max":0.6,"rest":0,"drive":"caller"},
        {"name":"gun_recoil","part":"barrel","kind":"translation","axis":"z","pivot":[16,13,22],"min":-3,"max":0,"rest":0,"drive":"auto"}]})");
    const auto w = poseRig(rig, std::vector<double>{0.64, 0.3, -2});
    const glm::dmat4 turret = aboutPivot(rotY(0.64), 16, 10, 16);
    const glm::dmat4 barrel = turret * aboutPivot(rotX(0.3), 16, 13, 22) * trans(0, 0, -2);
    QVERIFY(maxAbsDiff(w[0], glm::dmat4(1.0)) <= tolerance::kPoseMatrix);
    QVERIFY(maxAbsDiff(w[1], turret) <= tolerance::kPoseMatrix);
    QVERIFY(maxAbsDiff(w[2], barrel) <= tolerance::kPoseMatrix);
    // At rest every part stays where it was sculpted.
    for (const auto& m : poseRig(rig, restJointValues(rig)))
      QVERIFY(maxAbsDiff(m, glm::dmat4(1.0)) <= tolerance::kPoseMatrix);
  }

  void mountIsOffsetThenEulerXYZAboutThePivot() {
    const Rig rig = mustBuild(R"({"parts":[{"name":"p"}],"joints":[
      {"name":"m","part":"p","kind":"rotation","axis":"z","pivot":[2,0,0],"min":-1,"max":1,"rest":0,
       "offset":[1,2,3],"orient":[0.3,0.5,0.7],"drive":"caller"}]})");
    const glm::dmat4 mount = trans(1, 2, 3) * aboutPivot(rotZ(0.7) * rotY(0.5) * rotX(0.3), 2, 0, 0);
    QVERIFY(maxAbsDiff(poseRig(rig, std::vector<double>{0})[0], mount) <= tolerance::kPoseMatrix);
    QVERIFY(maxAbsDiff(poseRig(rig, std::vector<double>{0.4})[0], mount * aboutPivot(rotZ(0.4), 2, 0, 0)) <=
            tolerance::kPoseMatrix);
  }

  void staticAttachmentHasAnEmptyRange() {
    const Rig rig = mustBuild(R"({"parts":[{"name":"base"},{"name":"gun","parent":"base"}],"joints":[
      {"name":"mount","part":"gun","kind":"rotation","axis":"y","pivot":[0,0,0],"min":0,"max":0,"rest":0,
       "offset":[0,4,0],"orient":[0,1.5707963267948966,0],"drive":"caller"}]})");
    const auto w = poseRig(rig, std::vector<double>{1.0});  // clamped to 0: only the mount remains
    QVERIFY(maxAbsDiff(w[1], trans(0, 4, 0) * rotY(kPi / 2)) <= tolerance::kPoseMatrix);
  }

  void partDeclaredBeforeItsParent() {
    const Rig rig = mustBuild(R"({"parts":[{"name":"child","parent":"root"},{"name":"root"}],"joints":[
      {"name":"lift","part":"root","kind":"translation","axis":"y","min":0,"max":5,"rest":0,"drive":"caller"},
      {"name":"yaw","part":"child","kind":"rotation","axis":"y","pivot":[0,0,0],"min":-4,"max":4,"rest":0,"drive":"caller"}]})");
    const auto w = poseRig(rig, std::vector<double>{3, kPi});
    QVERIFY(maxAbsDiff(w[1], trans(0, 3, 0)) <= tolerance::kPoseMatrix);
    QVERIFY(maxAbsDiff(w[0], trans(0, 3, 0) * rotY(kPi)) <= tolerance::kPoseMatrix);
    QCOMPARE(rig.evaluationOrder(), (std::vector<int>{1, 0}));
  }

  void missingParentIsARootWithAWarning() {
    Diagnostics warnings;
    const Rig rig = mustBuild(R"({"parts":[{"name":"a","parent":"ghost"}],"joints":[]})", &warnings);
    QCOMPARE(rig.parts()[0].parent, kNoIndex);
    QCOMPARE(warnings.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(warnings[0].describe()),
             QString("rig.json: /parts/0/parent: parent 'ghost' does not exist; the part is posed "
                     "as a root"));
  }

  void cycleBreaksWhereTheReferenceBreaksIt() {
    // a -> b -> a: resolving a (declared first) walks to b, whose parent a is
    // already on the chain, so b becomes the root and a stays b's child.
    Diagnostics warnings;
    const Rig rig = mustBuild(
        R"({"parts":[{"name":"a","parent":"b"},{"name":"b","parent":"a"},{"name":"c","parent":"c"}],
      "joints":[{"name":"lift","part":"b","kind":"translation","axis":"y","min":0,"max":5,"rest":0,"drive":"caller"}]})",
        &warnings);
    QCOMPARE(rig.parts()[0].parent, 1);
    QCOMPARE(rig.parts()[1].parent, kNoIndex);
    QCOMPARE(rig.parts()[2].parent, kNoIndex);  // its own parent
    QCOMPARE(warnings.size(), std::size_t(2));
    QVERIFY(QString::fromStdString(warnings[0].describe()).contains("/parts/1/parent: parent 'a' closes a cycle"));
    const auto w = poseRig(rig, std::vector<double>{2});
    QVERIFY(maxAbsDiff(w[0], trans(0, 2, 0)) <= tolerance::kPoseMatrix);  // a follows b
  }
};

QTEST_APPLESS_MAIN(TestPose)
#include "tst_core_pose.moc"
