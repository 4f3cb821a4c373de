// The rig controller (the seed's VoxelRig semantics) and skinning: caller
// values, layering of autoPlay and playable animations, one-shot clips
// holding their last frame, refusals, and bone matrices / LBS against
// hand-derived results.
#include <QtTest/QTest>
#include <cmath>
#include <limits>

#include "reference_math.h"
#include "rig_fixtures.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/skinning.h"
#include "test_checks.h"

using namespace riglens::core;
using namespace riglens::test;

namespace {

// A turret with a caller yaw, a barrel with an auto recoil driven by a
// one-shot `fire` clip, and a radar spun by an autoPlay loop.
const char* kRig =
    R"({"parts":[{"name":"hull"},{"name":"turret","parent":"hull"},{"name":"barrel","parent":"turret"},
    {"name":"radar","parent":"turret"}],
  "joints":[
    {"name":"turret_yaw","part":"turret","kind":"rotation","axis":"y","pivot":[0,0,0],"min":-1,"max":1,"rest":0.25,"drive":"caller"},
    {"name":"recoil","part":"barrel","kind":"translation","axis":"z","min":-3,"max":0,"rest":0,"drive":"auto"},
    {"name":"spin","part":"radar","kind":"rotation","axis":"y","pivot":[0,0,0],"min":0,"max":10,"rest":0,"drive":"auto"}],
  "animations":[
    {"name":"radar","periodMs":1000,"looping":true,"autoPlay":true,"tracks":[{"joint":"spin","keyframes":[{"tMs":0,"value":0},{"tMs":1000,"value":4}]}]},
    {"name":"fire","periodMs":400,"looping":false,"autoPlay":false,"tracks":[
      {"joint":"recoil","keyframes":[{"tMs":0,"value":0},{"tMs":100,"value":-3},{"tMs":400,"value":-1}]},
      {"joint":"turret_yaw","keyframes":[{"tMs":0,"value":0.5},{"tMs":400,"value":0.5}]}]}]})";

Rig buildFixture() {
  auto built = buildRigFromJson(kRig);
  if (!built) qFatal("%s", built.error().message.c_str());
  return std::move(built->rig);
}

}  // namespace

class TestController : public QObject {
  Q_OBJECT
  Rig m_rig = buildFixture();

 private slots:
  // What a user set, carried onto another load of the rig by name (live
  // reload): a joint that was renamed is dropped and named, the clip keeps
  // its time (clamped to a shorter period), pause, loop and speed carry.
  void stateCarriesOverByName() {
    RigController before(m_rig);
    QVERIFY(before.setCaller("turret_yaw", 0.5));
    QVERIFY(before.play("fire"));
    before.seekPlayable(300);
    before.setPaused(true);
    before.setLoopOverride(true);
    before.setSpeed(2.0);
    before.setClockMs(1234);
    const RigControllerState state = before.saveState();

    RigController same(m_rig);
    QVERIFY(same.restoreState(state).empty());
    QCOMPARE(same.playing(), std::optional<std::string>("fire"));
    QCOMPARE(same.playableTimeMs(), 300.0);
    QVERIFY(same.paused());
    QVERIFY(same.playableLooping());
    QCOMPARE(same.speed(), 2.0);
    QCOMPARE(same.clockMs(), 1234.0);
    same.evaluate();
    before.evaluate();
    QCOMPARE(same.jointValues(), before.jointValues());

    // The next load: the turret's joint renamed, the clip shortened to 250 ms.
    std::string edited = kRig;
    for (std::size_t at; (at = edited.find("turret_yaw")) != std::string::npos;) edited.replace(at, 10, "turret_turn");
    const std::string fireLength = "\"periodMs\":400";
    edited.replace(edited.find(fireLength), fireLength.size(), "\"periodMs\":250");
    auto next = buildRigFromJson(edited);
    QVERIFY2(next, next ? "" : next.error().message.c_str());
    RigController after(next->rig);
    QCOMPARE(after.restoreState(state), std::vector<std::string>{"turret_yaw"});
    QCOMPARE(after.playing(), std::optional<std::string>("fire"));
    QCOMPARE(after.playableTimeMs(), 250.0);
    QVERIFY(after.play(std::nullopt));  // (the clip drives the turret too)
    after.evaluate();
    QCOMPARE(after.jointValues()[0], 0.25);  // turret_turn: its rest, nobody set it

    RigController stopped(m_rig);
    QVERIFY(stopped.play("fire"));
    QVERIFY(stopped.restoreState(RigControllerState{}).empty());  // nothing playing carries as nothing
    QCOMPARE(stopped.playing(), std::nullopt);
  }

  void restAndCallerValuesAreClamped() {
    RigController c(m_rig);
    QCOMPARE(c.jointValues()[0], 0.25);  // rest
    QVERIFY(c.setCaller("turret_yaw", 5.0));
    c.evaluate();
    QCOMPARE(c.jointValues()[0], 1.0);  // clamped to max
    QVERIFY(maxAbsDiff(c.partWorlds()[1], rotY(1.0)) <= tolerance::kPoseMatrix);
    c.resetCaller("turret_yaw");
    c.evaluate();
    QCOMPARE(c.jointValues()[0], 0.25);
  }

  void refusesBadCallerValues() {
    RigController c(m_rig);
    auto unknown = c.setCaller("turret_pitch", 0.1);
    QVERIFY(!unknown);
    QCOMPARE(unknown.error().code, ErrorCode::Usage);
    QVERIFY(!c.setCaller("turret_yaw", std::numeric_limits<double>::quiet_NaN()));
    QVERIFY(!c.setCaller("turret_yaw", std::numeric_limits<double>::infinity()));
    QVERIFY(!c.setCaller("recoil", -1));  // an auto joint
    c.evaluate();
    QCOMPARE(c.jointValues()[0], 0.25);  // nothing changed
    QVERIFY(!c.play("dance"));
  }

  void autoPlayRunsByDefaultOnItsClock() {
    RigController c(m_rig);
    QCOMPARE(c.jointValues()[2], 0.0);
    c.update(0.25);
    c.evaluate();
    QCOMPARE_NEAR(c.jointValues()[2], 1.0, riglens::core::tolerance::kDouble);
    c.update(1.0);  // looping: 1250 ms wraps to 250
    c.evaluate();
    QCOMPARE_NEAR(c.jointValues()[2], 1.0, riglens::core::tolerance::kDouble);
    c.setAutoPlayEnabled(false);
    c.evaluate();
    QCOMPARE(c.jointValues()[2], 0.0);  // muted: back to rest
  }

  void playableOverlaysOnlyItsJointsAndHoldsItsLastFrame() {
    RigController c(m_rig);
    QVERIFY(c.setCaller("turret_yaw", -0.5));
    QVERIFY(c.play("fire"));
    QCOMPARE(*c.playing(), std::string("fire"));
    c.update(0.1);
    c.evaluate();
    QCOMPARE_NEAR(c.jointValues()[1], -3.0, riglens::core::tolerance::kDouble);
    QCOMPARE_NEAR(c.jointValues()[0], 0.5,
                  riglens::core::tolerance::kDouble);  // the clip overlays the caller joint it drives
    QCOMPARE_NEAR(c.jointValues()[2], 0.4, riglens::core::tolerance::kDouble);  // autoPlay still runs underneath
    QVERIFY(!c.finished());
    c.update(1.0);  // past the end of a one-shot
    QVERIFY(c.finished());
    c.evaluate();
    QCOMPARE_NEAR(c.jointValues()[1], -1.0, riglens::core::tolerance::kDouble);  // holds the last frame
    QCOMPARE(c.playableTimeMs(), 400.0);
    QVERIFY(c.play(std::nullopt));
    QVERIFY(!c.playing());
    c.evaluate();
    QCOMPARE(c.jointValues()[1], 0.0);
    QCOMPARE(c.jointValues()[0], -0.5);  // the caller value is back
  }

  void reviewControlsPauseLoopAndSpeed() {
    RigController c(m_rig);
    QVERIFY(c.play("fire"));
    c.setSpeed(2.0);
    c.update(0.05);  // 100 ms of clip time at 2x
    QCOMPARE(c.playableTimeMs(), 100.0);
    c.evaluate();
    QCOMPARE_NEAR(c.jointValues()[1], -3.0, riglens::core::tolerance::kDouble);
    c.setPaused(true);
    c.update(0.05);
    QCOMPARE(c.playableTimeMs(), 100.0);                                   // frozen
    QCOMPARE_NEAR(c.clockMs(), 200.0, riglens::core::tolerance::kDouble);  // the autoPlay clock runs on
    c.setPaused(false);
    c.setLoopOverride(true);  // loop the one-shot: 100 + 400 -> 500 wraps to 100
    c.update(0.2);
    QCOMPARE(c.playableTimeMs(), 100.0);
    QVERIFY(!c.finished());
    c.setLoopOverride(false);
    c.update(1.0);
    QVERIFY(c.finished());
    c.evaluate();
    QCOMPARE_NEAR(c.jointValues()[1], -1.0, riglens::core::tolerance::kDouble);
    c.setSpeed(100);
    QCOMPARE(c.speed(), 4.0);
    c.setSpeed(0);
    QCOMPARE(c.speed(), 0.1);
  }

  void namesAndRanges() {
    RigController c(m_rig);
    QCOMPARE(c.jointNames(Drive::Caller), (std::vector<std::string>{"turret_yaw"}));
    QCOMPARE(c.jointNames(Drive::Auto), (std::vector<std::string>{"recoil", "spin"}));
    auto range = c.jointRange("recoil");
    QVERIFY(range);
    QCOMPARE(range->min, -3.0);
    QCOMPARE(range->max, 0.0);
    QVERIFY(!c.jointRange("nope"));
  }

  void nonFiniteSamplesNeverReachThePose() {
    // A looping two-key Bezier track: the reference's wrap segment divides by
    // zero; the joint keeps its rest value instead of posing NaN.
    auto built = buildRigFromJson(R"({"parts":[{"name":"p"}],"joints":[
      {"name":"j","part":"p","kind":"translation","axis":"x","min":-5,"max":5,"rest":1,"drive":"auto"}],
      "animations":[{"name":"a","periodMs":1000,"looping":true,"autoPlay":true,"tracks":[{"joint":"j","keyframes":[
        {"tMs":0,"value":0,"interp":"bezier"},{"tMs":500,"value":2,"interp":"bezier"}]}]}]})");
    QVERIFY(built);
    RigController c(built->rig);
    c.setClockMs(750);
    c.evaluate();
    QCOMPARE(c.jointValues()[0], 1.0);
    QVERIFY(std::isfinite(c.partWorlds()[0][3][0]));
  }

  void skinningBlendsBoneMatrices() {
    // Two bones = two parts; vertex 0 on bone 0, vertex 1 on bone 1, vertex 2 half/half.
    PartMesh rest;
    rest.positions = {1, 0, 0, 0, 0, 1, 0, 0, 2};
    rest.normals = {1, 0, 0, 0, 0, 1, 0, 0, 1};
    rest.colors = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    rest.indices = {0, 1, 2};
    SkinData skin;
    skin.boneNames = {"hull", "turret"};
    skin.inverseBinds = {glm::mat4(1.0f), glm::translate(glm::mat4(1.0f), glm::vec3(0, -1, 0))};
    skin.joints = {0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
    skin.weights = {1, 0, 0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0};
    const std::vector<glm::mat4> worlds{glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 5)),
                                        glm::mat4(rotY(3.14159265358979 / 2))};
    const std::vector<int> boneParts{0, 1};
    const auto bones = boneMatrices(skin, boneParts, worlds);
    QVERIFY(maxAbsDiff(bones[1], rotY(3.14159265358979 / 2) * trans(0, -1, 0)) < riglens::core::tolerance::kFloatUnit);
    const PartMesh posed = skinMesh(rest, skin, bones);
    // v0: + (0,0,5). v1: turn (0,-1,1) about y by 90 deg -> (1,-1,0).
    // v2: half of (0,0,7) and half of R(0,-1,2) = (2,-1,0) -> (1,-0.5,3.5).
    const std::vector<float> expected{1, 0, 5, 1, -1, 0, 1, -0.5f, 3.5f};
    for (std::size_t i = 0; i < expected.size(); ++i)
      QCOMPARE_NEAR(posed.positions[i], expected[i], riglens::core::tolerance::kFloatCoordinate);
    QCOMPARE_NEAR(posed.normals[3], 1.0f, riglens::core::tolerance::kFloatCoordinate);  // (0,0,1) turned to (1,0,0)
    QCOMPARE(posed.indices, rest.indices);
  }
};

QTEST_APPLESS_MAIN(TestController)
#include "tst_core_controller.moc"
