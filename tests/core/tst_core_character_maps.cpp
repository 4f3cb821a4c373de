// ARKit / MetaHuman / GNM mapping against the tables in resources/character
// (evaluated here independently from the JSON), expression-space refusals,
// tints, the slot allocator, the 96-byte lift uniform and the CPU lift.
#include <QtCore/QFile>
#include <QtTest/QTest>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <random>

#include "riglens/core/base/color.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/character/debug_lift.h"
#include "riglens/core/character/expressions.h"
#include "riglens/core/character/slot_allocator.h"
#include "riglens/core/character/vertex_tints.h"
#include "test_checks.h"

using namespace riglens::core;
using nlohmann::json;

namespace {

json tableJson(const char* relative) {
  QFile file(QStringLiteral(RIGLENS_SOURCE_DIR "/resources/") + relative);
  if (!file.open(QIODevice::ReadOnly)) qFatal("missing table resources/%s", relative);
  return json::parse(file.readAll().toStdString());
}

HeadExtLayout fullLayout() {
  HeadExtLayout l;
  l.regions = {{"left_eye", 100}, {"right_eye", 100}, {"lower_face", 150}, {"tongue", 32}, {"pupils", 1}};
  return l;
}

}  // namespace

class TestCharacterMaps : public QObject {
  Q_OBJECT
 private slots:
  void namesMatchTheTables() {
    QCOMPARE(arkitNames(), tableJson("character/arkit52.json").get<std::vector<std::string>>());
    QCOMPARE(mhRigNames(), tableJson("character/mh188.json").get<std::vector<std::string>>());
    QCOMPARE(arkitNames().front(), std::string("EyeBlinkLeft"));
  }

  void arkitToMhMatchesTheTable() {
    const json table = tableJson("character/arkit_to_mh.json");
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> weight(-0.2f, 1.2f);
    for (int round = 0; round < 50; ++round) {
      std::vector<float> a(52);
      for (auto& w : a) w = weight(rng);
      if (round == 1) a[17] = 0.0f;  // JawOpen 0: MouthClose passes through
      std::array<float, 188> out{};
      arkitToMh(a, out);
      std::array<double, 188> expected{};
      for (const auto& e : table["linear"]) {
        double sum = 0;
        for (const auto& t : e["terms"]) sum += t["gain"].get<double>() * a[t["arkit"].get<std::size_t>()];
        expected[e["out"].get<std::size_t>()] = sum;
      }
      const double j = a[17], c = a[18];
      for (int o : {73, 74, 147, 148}) expected[std::size_t(o)] = j > 0 ? std::min(1.0, c / j) : c;
      for (std::size_t i = 0; i < 188; ++i)
        QVERIFY2(std::abs(out[i] - expected[i]) < riglens::core::tolerance::kFloatCoordinate,
                 qPrintable(QString::number(i)));
    }
    std::array<float, 188> zero{};
    arkitToMh(std::vector<float>(52, 0.0f), zero);
    QVERIFY(std::all_of(zero.begin(), zero.end(), [](float v) { return v == 0.0f; }));
  }

  void gatherAndRig() {
    const std::vector<std::string> names{mhRigNames()[5], mhRigNames()[42]};
    auto gather = gatherFromRigNames(names);
    QVERIFY(gather);
    QCOMPARE(*gather, (std::vector<int>{5, 42}));
    QVERIFY(!gatherFromRigNames(std::vector<std::string>{"CTRL_nope"}));
    QVERIFY(!gatherFromRigNames(std::vector<std::string>{}));
    std::vector<float> a(52, 0.0f);
    a[0] = 1.0f;  // EyeBlinkLeft -> out 42 (+1)
    std::vector<float> out(2);
    arkitToRig(a, *gather, out);
    QCOMPARE(out, (std::vector<float>{0.0f, 1.0f}));
    const std::vector<float> rest{0.5f, 0.5f};
    const std::vector<std::pair<float, float>> range{{-3.0f, 3.0f}, {0.0f, 1.2f}};
    arkitToRig(a, *gather, out, rest, range);
    QCOMPARE(out, (std::vector<float>{0.5f, 1.2f}));  // rest + delta, clamped per control
  }

  void arkitToGnmDefault() {
    const HeadExtLayout layout = fullLayout();
    const ArkitToGnmMap map = ArkitToGnmMap::create(layout);
    QCOMPARE(map.termCount(), std::size_t(26));
    QVERIFY(map.dropped().empty());
    std::vector<float> a(52, 0.0f), out(387, 1.0f);
    a[0] = 1.0f;  // EyeBlinkLeft: left_eye[2] += 3.5, left_eye[5] += 2
    map.apply(a, out);
    QCOMPARE(out[2], 3.5f);
    QCOMPARE(out[5], 2.0f);
    QCOMPARE(out[100 + 2], 0.0f);
    a[0] = 2.0f;  // 7 -> clamped to 4
    map.apply(a, out);
    QCOMPARE(out[2], 4.0f);
    // Gaze: (EyeLookDownLeft - EyeLookUpLeft) * 20 degrees.
    std::fill(a.begin(), a.end(), 0.0f);
    a[std::size_t(std::find(arkitNames().begin(), arkitNames().end(), "EyeLookDownLeft") - arkitNames().begin())] =
        1.0f;
    map.apply(a, out);
    QCOMPARE_NEAR(out[383], float(kGazeFullScale), riglens::core::tolerance::kFloatUnit);
    // A truncated pack: terms past a region's end are dropped and reported.
    HeadExtLayout small;
    small.regions = {{"left_eye", 3}, {"right_eye", 3}, {"lower_face", 3}};
    small.exprDim = 9;
    small.dim = 13;
    const ArkitToGnmMap truncated = ArkitToGnmMap::create(small);
    QVERIFY(!truncated.dropped().empty());
    QVERIFY(truncated.termCount() < 26);
  }

  void expressionSpacesRefuseArkitWithoutAMap() {
    const HeadExtLayout layout = fullLayout();
    const ExpressionSpace bare = gnmExpressionSpace(layout, false);
    QCOMPARE(bare.segments.back().name, std::string("gaze"));
    QCOMPARE(bare.segments[2].start, 200);
    auto refused = toRigVector(bare, ExpressionKind::Arkit52, std::vector<float>(52, 0.1f));
    QVERIFY(!refused);
    QVERIFY(QString::fromStdString(refused.error().message).startsWith("refused: an ARKit-52 frame"));
    const ExpressionSpace mapped = gnmExpressionSpace(layout, true);
    auto ok = toRigVector(mapped, ExpressionKind::Arkit52, std::vector<float>(52, 0.0f));
    QVERIFY(ok);
    QCOMPARE(ok->size(), std::size_t(387));
    QVERIFY(!toRigVector(mapped, ExpressionKind::Gnm, std::vector<float>(400, 0.0f)));
  }

  void tints() {
    QCOMPARE(packRgba(1, 0, 0, 1), 0xff0000ffu);
    QCOMPARE(packRgba(2, -1, 0.5f), 0xff8000ffu);
    // Vertex 0 on joint 1 at weight 1 -> palette[1]; vertex 1 an eye -> cyan;
    // vertex 2 half on joint 0 -> palette[0] halfway to grey.
    const std::vector<std::uint16_t> idx{1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0};
    const std::vector<float> w{1, 0, 0, 0, 1, 0, 0, 0, 0.5f, 0.3f, 0.2f, 0};
    const std::vector<float> eyes{0, 0.9f, 0, 0, 0, 0};
    const auto t = jointTint(idx, w, eyes, 3);
    QCOMPARE(t[0], packRgba(0.4f, 0.7f, 0.95f));
    QCOMPARE(t[1], packRgba(0.25f, 0.95f, 1.0f));
    QCOMPARE(t[2], packRgba(0.85f * 0.5f + 0.225f, 0.55f * 0.5f + 0.225f, 0.35f * 0.5f + 0.225f));
    const auto h = heightTint(std::vector<float>{0, 0, 0, 0, 2, 0});
    QCOMPARE(h[0], packRgba(0.25f, 0.4f, 0.95f));
    QCOMPARE(h[1], packRgba(0.95f, 0.4f, 0.35f));
    QCOMPARE(heightTint(std::vector<float>{0, 1, 0})[0], packRgba(0.6f, 0.75f, 0.65f));
    QCOMPARE(uvTint(std::vector<float>{0.25f, 0.75f}, 1)[0], packRgba(0.25f, 0.75f, 0.55f));
    const auto noUv = uvTint({}, 3);
    QVERIFY(noUv[0] == noUv[1] && noUv[1] == noUv[2]);
  }

  void slotAllocator() {
    SlotAllocator s(100);
    QCOMPARE(*s.allocate(10), 0u);
    QCOMPARE(*s.allocate(20), 10u);
    QCOMPARE(s.available(), 70u);
    QVERIFY(s.release(0, 10));
    QCOMPARE(s.blocks(), (std::vector<SlotAllocator::Block>{{0, 10}, {30, 70}}));
    QCOMPARE(*s.allocate(5), 0u);   // first fit carves the front of the first block
    QCOMPARE(*s.allocate(8), 30u);  // 5 left in the first block: the next one
    QVERIFY(!s.release(3, 4));      // overlaps free [5, 10): a double release
    QVERIFY(!s.release(95, 10));    // outside the capacity
    QVERIFY(!s.allocate(90));       // nothing fits
    QVERIFY(s.release(10, 20));     // coalesces with [5, 10)
    QCOMPARE(s.blocks().front(), (SlotAllocator::Block{5, 25}));
    QVERIFY(s.release(0, 5));
    QVERIFY(s.release(30, 8));
    QCOMPARE(s.blocks(), (std::vector<SlotAllocator::Block>{{0, 100}}));
  }

  void liftUniformLayoutAndCpuLift() {
    DebugLiftParams p;
    p.vertexCount = 3;
    p.slotOffset = 2;
    p.slotCount = 5;
    p.shading = LiftShading::Normal;
    p.affine = {2, 0, 0, 1, 0, 2, 0, 0, 0, 0, 2, 0};
    p.sigma = 0.01f;
    p.opacity = 0.5f;
    p.centroid = {1, 0, 0};
    const auto bytes = writeDebugLiftParams(p);
    const auto u32 = [&](std::size_t at) {
      std::uint32_t v;
      std::memcpy(&v, bytes.data() + at, 4);
      return v;
    };
    const auto f32 = [&](std::size_t at) {
      float v;
      std::memcpy(&v, bytes.data() + at, 4);
      return v;
    };
    QCOMPARE(u32(0), 3u);
    QCOMPARE(u32(4), 2u);
    QCOMPARE(u32(8), 5u);
    QCOMPARE(u32(12), 1u);
    QCOMPARE(f32(16), 2.0f);
    QCOMPARE(f32(28), 1.0f);
    QCOMPARE(f32(36), 2.0f);
    QCOMPARE(f32(56), 2.0f);
    QCOMPARE(f32(64), 0.01f);
    QCOMPARE(f32(68), 0.5f);
    QCOMPARE(u32(72), 0u);
    QCOMPARE(f32(80), 1.0f);
    QCOMPARE(f32(92), 1.0f);
    QCOMPARE((17821 + kDebugLiftWorkgroup - 1) / kDebugLiftWorkgroup, 279u);

    SplatSink sink(8);
    std::fill(sink.color.begin(), sink.color.end(), 0xdeadbeefu);
    const std::vector<float> pos{0, 0, 0, 1, 0, 0, NAN, 0, 0};
    debugLiftCpu(p, pos, {}, sink);
    QCOMPARE(sink.color[0], 0xdeadbeefu);    // outside the branch's range: untouched
    QCOMPARE(sink.center[2 * 4 + 0], 1.0f);  // slot 2 = vertex 0: M p = (1, 0, 0)
    QCOMPARE(sink.covarianceA[2 * 4 + 0], 0.0001f);
    QCOMPARE(sink.covarianceB[2 * 4 + 1], 0.0001f);
    QCOMPARE(sink.color[2], packRgba(0.5f, 0.5f, 0.5f, 0.5f));  // at the centroid: no direction
    QCOMPARE(sink.color[3], packRgba(1.0f, 0.5f, 0.5f, 0.5f));  // vertex 1 -> (3,0,0): +x
    QCOMPARE(sink.color[4], 0u);                                // NaN vertex: cleared
    QCOMPARE(sink.center[4 * 4 + 3], 1.0f);
    QCOMPARE(sink.color[5], 0u);  // past the vertex count
    QCOMPARE(sink.color[6], 0u);

    const FitTransform fit = fitVertsTransform(std::vector<float>{0, 0, 0, 0, 2, 0, 1, 1, 1});
    QCOMPARE_NEAR(fit.scale, 0.175f, riglens::core::tolerance::kFloatUnit);
    QCOMPARE_NEAR(fit.rows[7], (-0.175f), riglens::core::tolerance::kFloatUnit);  // y: -scale * centre.y
  }
};

QTEST_APPLESS_MAIN(TestCharacterMaps)
#include "tst_core_character_maps.moc"
