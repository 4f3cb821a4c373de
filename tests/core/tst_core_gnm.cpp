// .aosrig packs and the GNM CPU reference: bake -> parse round trips,
// byte-identical repacking, every refusal, half-float rounding, head_ext
// helpers, and hand-checkable GNM cases (one coefficient, one eye, one joint,
// an override).
#include <QtTest/QTest>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <numbers>

#include "riglens/core/base/half_float.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/character/gnm.h"
#include "riglens/core/character/head_ext.h"
#include "riglens/samples/gnm_bake.h"
#include "test_checks.h"

using namespace riglens::core;
using namespace riglens::samples;

namespace {

// Four vertices, three coefficients (one per region), four joints: root,
// head, eye_l, eye_r. Values are exact in fp16.
GnmBake tinyHead() {
  GnmBake b;
  b.vertexCount = 4;
  b.coeffCount = 3;
  b.regions = {{"left_eye", 1}, {"right_eye", 1}, {"lower_face", 1}};
  b.reduced = {{"left_eye", 1}, {"right_eye", 0}, {"lower_face", 1}};
  b.joints = {{"root", -1}, {"head", 0}, {"eye_l", 1}, {"eye_r", 1}};
  b.eyeNames = {"eye_l", "eye_r"};
  b.neutral = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  b.basis.assign(4 * 3 * 3, 0.0f);
  b.basis[(0 * 3 + 2) * 3 + 1] = 0.5f;   // vertex 0, coefficient 2 (lower_face): +0.5 y
  b.basis[(3 * 3 + 0) * 3 + 0] = 0.25f;  // vertex 3, coefficient 0 (left_eye): +0.25 x
  for (int v = 0; v < 4; ++v) {
    b.skinIndex.insert(b.skinIndex.end(), {1, 0, 0, 0});
    b.skinWeight.insert(b.skinWeight.end(), {1, 0, 0, 0});
  }
  b.eyePositions = {0, 0, 0, 5, 5, 5};
  b.eyeWeights = {0, 1, 0, 0, 0, 0, 0, 0};  // vertex 1 rides the left eye
  const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  for (int j = 0; j < 4; ++j) b.restWorld.insert(b.restWorld.end(), identity, identity + 16);
  b.faces = {0, 1, 2, 0, 2, 3};
  return b;
}

std::shared_ptr<const std::vector<std::uint8_t>> share(std::vector<std::uint8_t> bytes) {
  return std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes));
}

AosRigPack parseOrDie(const std::vector<std::uint8_t>& bytes) {
  auto pack = parseAosRig(share(bytes), "tiny.aosrig");
  if (!pack) qFatal("%s", pack.error().message.c_str());
  return std::move(pack).value();
}

}  // namespace

class TestGnm : public QObject {
  Q_OBJECT
 private slots:
  void halfFloatRounding() {
    QCOMPARE(floatToHalf(1.0f), std::uint16_t(0x3c00));
    QCOMPARE(floatToHalf(-2.0f), std::uint16_t(0xc000));
    QCOMPARE(floatToHalf(65504.0f), std::uint16_t(0x7bff));                      // the largest half
    QCOMPARE(floatToHalf(65520.0f), std::uint16_t(0x7c00));                      // rounds up to infinity
    QCOMPARE(floatToHalf(1.0f + std::ldexp(1.0f, -11)), std::uint16_t(0x3c00));  // tie -> even
    QCOMPARE(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)),
             std::uint16_t(0x3c02));                                      // tie -> even (up)
    QCOMPARE(floatToHalf(std::ldexp(1.0f, -24)), std::uint16_t(0x0001));  // smallest subnormal
    QCOMPARE(floatToHalf(std::ldexp(1.0f, -26)), std::uint16_t(0x0000));  // below: zero
    QVERIFY(std::isnan(halfToFloat(floatToHalf(std::nanf("")))));
    for (std::uint32_t h = 0; h < 0x7c00; ++h) QCOMPARE(floatToHalf(halfToFloat(std::uint16_t(h))), std::uint16_t(h));
  }

  void bakeParseRoundTripAndByteIdenticalRepack() {
    const GnmBake bake = tinyHead();
    auto a = bakeAosRig(bake);
    auto b = bakeAosRig(bake);
    QVERIFY(a && b);
    QCOMPARE(*a, *b);
    const AosRigPack pack = parseOrDie(*a);
    QCOMPARE(pack.vertexCount, std::size_t(4));
    QCOMPARE(pack.headExt.dim, 7);
    QCOMPARE(pack.joints[2].name, std::string("eye_l"));
    QCOMPARE(pack.basis(0, 2, 1), 0.5f);
    QCOMPARE(pack.basis(3, 0, 0), 0.25f);
    QVERIFY(pack.neutral.zeroCopy());
    QCOMPARE(pack.skinWeight[0], 1.0f);
    QCOMPARE(pack.faces.size(), std::size_t(6));
    // The i8 basis with its dequantisation folded into basisScale.
    GnmBake i8 = bake;
    i8.basisAsI8 = true;
    const AosRigPack q = parseOrDie(*bakeAosRig(i8));
    QCOMPARE(q.basis(0, 2, 1) * q.basisScale[2], 0.5f);
    // A lighter pack: neutral stored as f16 is widened on load.
    auto parts = bakeAosRigParts(bake);
    std::vector<std::uint16_t> half;
    for (float f : bake.neutral) half.push_back(floatToHalf(f));
    parts->blobs[0] = makeBlob("neutral", DType::F16, {4, 3}, half);
    const AosRigPack light = parseOrDie(*packAosRig(parts->header, parts->blobs));
    QVERIFY(!light.neutral.zeroCopy());
    QCOMPARE(light.neutral[3], 1.0f);
  }

  void refusals_data() {
    QTest::addColumn<QString>("mutation");
    QTest::addColumn<QString>("expected");
    QTest::newRow("short") << "short"
                           << "file too short";
    QTest::newRow("magic") << "magic"
                           << "bad magic";
    QTest::newRow("totalLen") << "truncate"
                              << "does not match the file size";
    QTest::newRow("header not json") << "header-garbage"
                                     << "is not JSON";
    QTest::newRow("version") << "version"
                             << "/version: 2 is not 1";
    QTest::newRow("model") << "model"
                           << "/model: 'flame' is not gnm";
    QTest::newRow("missing blob") << "drop-basisScale"
                                  << "required blob basisScale is missing";
    QTest::newRow("byteLength") << "bytelength"
                                << "byteLength";
    QTest::newRow("contradicts V") << "neutral-short"
                                   << "blob neutral has 9 values, but V*3 needs 12";
    QTest::newRow("joint list") << "restworld-short"
                                << "J*16 (the joint list)";
    QTest::newRow("skin joint") << "skin-joint"
                                << "skinIndex names joint 9";
    QTest::newRow("face vertex") << "face-vertex"
                                 << "faces name vertex 7";
    QTest::newRow("huge counts") << "huge"
                                 << "/vertexCount: 1099511627776 is outside [0, ";
    QTest::newRow("mouth vertex") << "mouth-vertex"
                                  << "mouth group lips names vertex 99";
    QTest::newRow("mouth part") << "mouth-part"
                                << "faceParts names part 3";
    QTest::newRow("regions") << "regions"
                             << "regions sum to 2";
  }
  void refusals() {
    QFETCH(QString, mutation);
    QFETCH(QString, expected);
    auto parts = bakeAosRigParts(tinyHead());
    QVERIFY(parts);
    auto& header = parts->header;
    auto& blobs = parts->blobs;
    const auto blob = [&](const std::string& name) -> AosBlob& {
      for (auto& b : blobs)
        if (b.name == name) return b;
      qFatal("no blob %s", name.c_str());
    };
    std::vector<std::uint8_t> bytes;
    if (mutation == "version") header["version"] = 2;
    if (mutation == "model") header["model"] = "flame";
    if (mutation == "drop-basisScale")
      blobs.erase(std::remove_if(blobs.begin(), blobs.end(), [](auto& b) { return b.name == "basisScale"; }),
                  blobs.end());
    if (mutation == "neutral-short")
      blob("neutral") = makeBlob("neutral", DType::F32, {3, 3}, std::vector<float>(9, 0.0f));
    if (mutation == "restworld-short")
      blob("restWorld") = makeBlob("restWorld", DType::F32, {3, 4, 4}, std::vector<float>(48, 0.0f));
    if (mutation == "skin-joint") {
      auto idx = std::vector<std::uint16_t>(16, 0);
      idx[4] = 9;
      blob("skinIndex") = makeBlob("skinIndex", DType::U16, {4, 4}, idx);
    }
    if (mutation == "face-vertex")
      blob("faces") = makeBlob("faces", DType::U32, {1, 3}, std::vector<std::uint32_t>{0, 1, 7});
    if (mutation == "huge") header["vertexCount"] = std::size_t(1) << 40;
    if (mutation == "regions") {
      using oj = nlohmann::ordered_json;
      header["headExt"]["regions"] =
          oj::array({oj::array({"left_eye", 1}), oj::array({"right_eye", 1}), oj::array({"lower_face", 0})});
    }
    if (mutation.startsWith("mouth")) {
      blobs.push_back(
          makeBlob("mouthLips", DType::U32, {2}, std::vector<std::uint32_t>{0, mutation == "mouth-vertex" ? 99u : 1u}));
      blobs.push_back(makeBlob("mouthFaces", DType::U32, {1, 3}, std::vector<std::uint32_t>{0, 1, 2}));
      blobs.push_back(
          makeBlob("mouthParts", DType::U32, {1}, std::vector<std::uint32_t>{mutation == "mouth-part" ? 3u : 1u}));
      header["mouth"] = {
          {"groups",
           {{{"name", "lips"}, {"vertices", "mouthLips"}, {"look", {{"color", {0.7, 0.3, 0.3}}, {"gloss", 0.4}}}}}},
          {"faces", "mouthFaces"},
          {"faceParts", "mouthParts"}};
    }
    auto packed = packAosRig(header, blobs);
    QVERIFY(packed);
    bytes = *packed;
    if (mutation == "short") bytes.resize(10);
    if (mutation == "magic") bytes[3] = 'X';
    if (mutation == "truncate") bytes.resize(bytes.size() - 8);
    if (mutation == "header-garbage") bytes[16] = '#';
    if (mutation == "bytelength") {
      // Claim a longer neutral than its shape says.
      std::string text(reinterpret_cast<char*>(bytes.data()) + 16, bytes[8] | bytes[9] << 8);
      const auto at = text.find("\"byteLength\":48");
      QVERIFY(at != std::string::npos);
      bytes[16 + at + 14] = '9';  // 48 -> 98
    }
    auto pack = parseAosRig(share(bytes), "head.aosrig");
    QVERIFY2(!pack, qPrintable(mutation));
    const QString message = QString::fromStdString(pack.error().message);
    QVERIFY2(message.startsWith("head.aosrig: ") && message.contains(expected), qPrintable(message));
  }

  void headExtHelpers() {
    const AosRigPack pack = parseOrDie(*bakeAosRig(tinyHead()));
    const auto slices = regionSlices(pack.headExt);
    QCOMPARE(slices.at("lower_face").start, 2);
    QCOMPARE(slices.at("lower_face").end, 3);
    QCOMPARE(headExtNames(pack.headExt),
             (std::vector<std::string>{"left_eye_000", "right_eye_000", "lower_face_000", "gaze_pitch_l", "gaze_yaw_l",
                                       "gaze_pitch_r", "gaze_yaw_r"}));
    const std::vector<float> frame{1, 2, 3, 0.1f, 0.2f, 0.3f, 0.4f, 99};
    auto unpacked = unpackHeadExt(frame, pack.headExt);
    QVERIFY(unpacked);
    QCOMPARE(unpacked->expr, (std::vector<float>{1, 2, 3}));
    QCOMPARE(unpacked->gaze, (std::vector<float>{0.1f, 0.2f, 0.3f, 0.4f}));
    QVERIFY(!unpackHeadExt(std::vector<float>(3, 0.0f), pack.headExt));
    auto wide = widenReducedHeadExt(std::vector<float>{7, 8, 0.1f, 0.2f, 0.3f, 0.4f}, pack.headExt);
    QVERIFY_OK(wide);
    QCOMPARE(*wide, (std::vector<float>{7, 0, 8, 0.1f, 0.2f, 0.3f, 0.4f}));
    QVERIFY(!widenReducedHeadExt(std::vector<float>(3, 0.0f), pack.headExt));
    // controlsToJson names every control in layout order; controlsFromJson reads it back exactly.
    const std::vector<float> controls{0.25f, -1.5f, 3.0f, 0.1f, 0.2f, 0.3f, 0.4f};
    const auto doc = controlsToJson(pack.headExt, controls);
    QCOMPARE(doc.size(), headExtNames(pack.headExt).size());
    QCOMPARE(doc.begin().key(), headExtNames(pack.headExt).front());
    auto back = controlsFromJson(pack.headExt, nlohmann::json::parse(doc.dump()), "controls.json");
    QVERIFY(back);
    QCOMPARE(*back, controls);
    // q = qx(pitch) * qy(yaw): compose with glm and compare.
    const std::array<float, 4> gaze{0.3f, -0.5f, 0.0f, 0.2f};
    const auto q = gazeToEyeRotations(gaze);
    const glm::dquat expected = glm::angleAxis(0.3, glm::dvec3(1, 0, 0)) * glm::angleAxis(-0.5, glm::dvec3(0, 1, 0));
    QCOMPARE_NEAR_ALL(glm::vec4(q[0].w, q[0].x, q[0].y, q[0].z),
                      glm::vec4(expected.w, expected.x, expected.y, expected.z), riglens::core::tolerance::kFloatUnit);
  }

  void gazeAtAPoint() {
    // Eyes at (+-0.03, 0, 0): the gaze that looks at a point, rotated onto the
    // rest direction +Z by gazeToEyeRotations, points each eye at it.
    const std::array<float, 6> eyes{0.03f, 0.0f, 0.0f, -0.03f, 0.0f, 0.0f};
    for (const glm::vec3 target :
         {glm::vec3(0.2f, -0.1f, 0.5f), glm::vec3(-0.4f, 0.3f, 0.2f), glm::vec3(0.0f, 0.0f, 1.0f)}) {
      const auto gaze = gazeAt(eyes, target);
      const auto q = gazeToEyeRotations(gaze);
      for (std::size_t e = 0; e < 2; ++e) {
        const glm::dvec3 eye(eyes[e * 3], eyes[e * 3 + 1], eyes[e * 3 + 2]);
        const glm::dvec3 want = glm::normalize(glm::dvec3(target) - eye);
        const glm::dvec3 got = q[e] * glm::dvec3(0, 0, 1);
        QVERIFY2(glm::length(got - want) < riglens::core::tolerance::kFloatUnit,
                 qPrintable(QString("eye %1: off by %2").arg(e).arg(glm::length(got - want))));
      }
    }
    // Straight ahead of the left eye: no rotation for it; down means pitch > 0, left (+X) yaw > 0.
    QCOMPARE(gazeAt(eyes, {0.03f, 0.0f, 1.0f})[0], 0.0f);
    QVERIFY(gazeAt(eyes, {0.03f, -1.0f, 1.0f})[0] > 0.0f);
    QVERIFY(gazeAt(eyes, {1.0f, 0.0f, 1.0f})[1] > 0.0f);
    QCOMPARE(gazeAt(eyes, {0.03f, 0.0f, 0.0f})[1], 0.0f);  // at the eye centre: unchanged
  }

  void expressionMatchesADoubleSum_data() {
    QTest::addColumn<int>("active");
    QTest::newRow("all: rows read whole") << 41;
    QTest::newRow("4 of 41 (every 13th): by columns") << 3;
  }
  void expressionMatchesADoubleSum() {
    // Every coefficient active: the dense path reads each fp16 row whole
    // (vectorised with F16C where the CPU has it, 24 values a step; 41
    // coefficients leave a tail of 3 per row). A few: each one's values from
    // the coefficient-major copy. Against a double-precision sum of the same
    // fp16 values worked out here; every thread count alike.
    QFETCH(int, active);
    GnmBake b = tinyHead();
    const int V = 40, E = 41;
    b.vertexCount = V;
    b.coeffCount = E;
    b.regions = {{"left_eye", 1}, {"right_eye", 1}, {"lower_face", E - 2}};
    b.reduced.clear();
    b.neutral.assign(std::size_t(V * 3), 0.25f);
    b.basis.resize(std::size_t(V * E * 3));
    for (std::size_t i = 0; i < b.basis.size(); ++i)
      b.basis[i] = float(int(i * 37 % 129) - 64) / 64.0f;  // exact in fp16
    b.skinIndex.assign(std::size_t(V * 4), 0);
    b.skinWeight.clear();
    for (int v = 0; v < V; ++v) b.skinWeight.insert(b.skinWeight.end(), {1, 0, 0, 0});
    b.eyeWeights.assign(std::size_t(2 * V), 0.0f);
    b.faces = {0, 1, 2};
    const AosRigPack pack = parseOrDie(*bakeAosRig(b));
    std::vector<float> controls(static_cast<std::size_t>(E));
    for (int c = 0; c < E; ++c) controls[std::size_t(c)] = c % (E / active) == 0 ? float(c % 7) / 7.0f - 0.4f : 0.0f;
    auto one = gnmForward(pack, controls, 1), two = gnmForward(pack, controls, 2);
    QVERIFY(one && two);
    QCOMPARE(*one, *two);
    for (int v = 0; v < V; ++v)
      for (int k = 0; k < 3; ++k) {
        double sum = 0.25;
        for (int c = 0; c < E; ++c)
          sum += double(controls[std::size_t(c)]) * pack.basisScale[std::size_t(c)] *
                 halfToFloat(pack.basisHalf[std::size_t((v * E + c) * 3 + k)]);
        QVERIFY2(
            std::abs((*one)[std::size_t(v * 3 + k)] - sum) < riglens::core::tolerance::kFloatCoordinate,
            qPrintable(
                QString("vertex %1 axis %2: %3 vs %4").arg(v).arg(k).arg((*one)[std::size_t(v * 3 + k)]).arg(sum)));
      }
  }

  void gnmHandCheckableCases() {
    const AosRigPack pack = parseOrDie(*bakeAosRig(tinyHead()));
    // One coefficient: vertex 0 moves by 2 * 0.5 in y; the others do not.
    auto one = gnmForward(pack, std::vector<float>{0, 0, 2});
    QVERIFY(one);
    QCOMPARE((*one)[1], 1.0f);
    QCOMPARE((*one)[3], 1.0f);
    // One eye: vertex 1 (weight 1 on the left eye at the origin) pitched by
    // +90 deg about +x: (1,0,0) stays; yaw +90 about +y: (1,0,0) -> (0,0,-1).
    auto eye = gnmForward(pack, std::vector<float>{0, 0, 0, 0, float(std::numbers::pi / 2), 0, 0});
    QVERIFY(eye);
    QCOMPARE_NEAR((*eye)[3], 0.0, riglens::core::tolerance::kFloatUnit);
    QCOMPARE_NEAR((*eye)[5], -1.0, riglens::core::tolerance::kFloatUnit);
    QVERIFY(!gnmForward(pack, std::vector<float>(8, 0.0f)));  // longer than dim: refused
    // Skinning at rest is the identity; one joint moved carries every vertex (all on head).
    auto rest = gnmPose(pack, std::vector<float>{});
    QVERIFY(rest);
    for (std::size_t i = 0; i < 12; ++i) QCOMPARE((*rest)[i], pack.neutral[i]);
    GnmJointState joints(pack);
    std::vector<float> worlds(pack.restWorld.data(), pack.restWorld.data() + 64);
    worlds[16 + 3] = 2.0f;  // head (row-major): translate x by 2
    QVERIFY(joints.setJointWorlds(worlds));
    auto moved = gnmPose(pack, std::vector<float>{}, &joints);
    QCOMPARE((*moved)[0], 2.0f);
    QCOMPARE((*moved)[3], 3.0f);
    QVERIFY(!joints.setJointWorlds(std::vector<float>(10, 0.0f)));
    // An override: the head turned 90 deg about +y (q = (cos45, 0, sin45, 0)):
    // (1,0,0) -> (0,0,-1); unknown names skipped; no accumulation.
    const double h = std::sqrt(0.5);
    joints.setJointOverrides({{"head", glm::dquat(h, 0, h, 0)}, {"nobody", glm::dquat(1, 0, 0, 0)}});
    joints.setJointOverrides({{"head", glm::dquat(h, 0, h, 0)}});
    auto turned = gnmPose(pack, std::vector<float>{}, &joints);
    QCOMPARE_NEAR((*turned)[3], 0.0, riglens::core::tolerance::kFloatUnit);
    QCOMPARE_NEAR((*turned)[5], -1.0, riglens::core::tolerance::kFloatUnit);
  }
};

QTEST_APPLESS_MAIN(TestGnm)
#include "tst_core_gnm.moc"
