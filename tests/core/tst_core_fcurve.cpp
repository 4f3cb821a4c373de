// F-curve sampling against values derived independently: the reference's
// published clip values, hand-computed Bezier values where the handles make
// x(s) linear, and Newton's method for the ease presets.
#include <QtTest/QTest>
#include <cmath>
#include <vector>

#include "reference_math.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/rig/fcurve.h"

using namespace riglens::core;
using riglens::test::bezierAtX;

namespace {

Keyframe k(double t, double v, Interp interp = Interp::Linear) {
  Keyframe key;
  key.tMs = t;
  key.value = v;
  key.interp = interp;
  return key;
}

bool near(double a, double b, double tol = tolerance::kCurveValue) {
  return std::abs(a - b) <= tol;
}

}  // namespace

#define QNEAR(a, b)                    \
  QVERIFY2(near(double(a), double(b)), \
           qPrintable(QString("%1 vs %2").arg(double(a), 0, 'g', 12).arg(double(b), 0, 'g', 12)))

class TestFCurve : public QObject {
  Q_OBJECT
 private slots:
  void emptyAndSingleKey() {
    QCOMPARE(sampleKeyframes({}, 100, 1000, true), 0.0);
    const std::vector<Keyframe> one{k(300, 4.5)};
    QCOMPARE(sampleKeyframes(one, 0, 1000, true), 4.5);
    QCOMPARE(sampleKeyframes(one, 900, 0, false), 4.5);
  }

  void referencePublishedClip() {
    // The reference's own example: keys (0,0),(800,2) linear, period 1000, looping.
    const std::vector<Keyframe> keys{k(0, 0), k(800, 2)};
    QNEAR(sampleKeyframes(keys, 250, 1000, true), 0.625);
    QNEAR(sampleKeyframes(keys, 900, 1000, true), 1.0);     // the wrap segment back to 0
    QNEAR(sampleKeyframes(keys, 1250, 1000, true), 0.625);  // wraps
    QNEAR(sampleKeyframes(keys, -750, 1000, true), 0.625);  // negative times wrap too
    QNEAR(sampleKeyframes(keys, 900, 1000, false), 2.0);    // not looping: hold
    QNEAR(sampleKeyframes(keys, -5, 1000, false), 0.0);
  }

  void constantHoldsUntilNextKey() {
    const std::vector<Keyframe> keys{k(0, 1, Interp::Constant), k(100, 5)};
    QNEAR(sampleKeyframes(keys, 0, 0, false), 1);
    QNEAR(sampleKeyframes(keys, 99.9, 0, false), 1);
    QNEAR(sampleKeyframes(keys, 100, 0, false), 5);
  }

  void duplicateKeyTimesTakeTheLaterValue() {
    const std::vector<Keyframe> keys{k(0, 0), k(50, 1), k(50, 3), k(100, 3)};
    QNEAR(sampleKeyframes(keys, 50, 0, false), 1);  // first segment containing t: 0..50
    QNEAR(sampleKeyframes(keys, 75, 0, false), 3);
  }

  void easePresetsMatchCssCurves() {
    struct Case {
      Interp interp;
      double x1, y1, x2, y2;
    };
    const Case cases[] = {
        {Interp::EaseIn, 0.42, 0, 1, 1}, {Interp::EaseOut, 0, 0, 0.58, 1}, {Interp::EaseInOut, 0.42, 0, 0.58, 1}};
    for (const Case& c : cases) {
      Keyframe a = k(100, 2, c.interp);
      a.outHandle = Handle{500, 500};  // presets ignore explicit handles
      const std::vector<Keyframe> keys{a, k(300, -2)};
      for (double t : {110.0, 150.0, 200.0, 260.0, 299.0}) {
        const double x = (t - 100) / 200;
        const double expected = 2 + (-4) * bezierAtX(0, 0, c.x1, c.y1, c.x2, c.y2, 1, 1, x);
        QNEAR(sampleKeyframes(keys, t, 0, false), expected);
      }
    }
    // A well-known anchor: CSS ease-in-out at half time is exactly one half.
    const std::vector<Keyframe> keys{k(0, 0, Interp::EaseInOut), k(1000, 1)};
    QNEAR(sampleKeyframes(keys, 500, 0, false), 0.5);
  }

  void explicitHandles() {
    // Handles at dt/3 in time make x(s) linear, so y is the Bezier at s = t/dt.
    Keyframe a = k(0, 0, Interp::Bezier);
    a.outHandle = Handle{100.0 / 3, 3};
    Keyframe b = k(100, 1);
    b.inHandle = Handle{-100.0 / 3, 0};
    const std::vector<Keyframe> keys{a, b};
    // s = 0.5: 0.375 * 3 + 0.375 * 1 + 0.125 * 1
    QNEAR(sampleKeyframes(keys, 50, 0, false), 1.625);
    // Handles that bend time: compare with Newton on the same control points.
    Keyframe c = k(0, 0, Interp::Bezier);
    c.outHandle = Handle{60, -1};
    Keyframe d = k(100, 2);
    d.inHandle = Handle{-10, 0.5};
    const std::vector<Keyframe> bent{c, d};
    for (double t : {10.0, 33.0, 50.0, 80.0})
      QNEAR(sampleKeyframes(bent, t, 0, false), bezierAtX(0, 0, 60, -1, 90, 2.5, 100, 2, t));
  }

  void autoTangents() {
    // Out at the first key: no prev -> chord slope 1/100: P1 = (33.3, 0.333).
    // In at the middle key: slope (next - a) = (0 - 0) / 200 = 0: P2 = (66.7, 1).
    const std::vector<Keyframe> keys{k(0, 0, Interp::Bezier), k(100, 1, Interp::Bezier), k(200, 0, Interp::Bezier)};
    QNEAR(sampleKeyframes(keys, 50, 0, false), 0.375 * (1.0 / 3) + 0.375 * 1 + 0.125 * 1);
    // Second segment: out slope (b - prev) = (0 - 0) / 200 = 0, in at the last key: chord -1/100.
    QNEAR(sampleKeyframes(keys, 150, 0, false), 0.125 * 1 + 0.375 * 1 + 0.375 * (1.0 / 3));
  }

  void loopingAutoTangentsUseShiftedNeighbours() {
    // Keys (0,0) (500,1) (700,0.5), period 1000, looping.
    // Segment 0->500: prev = last shifted back (-300, 0.5): slope (1 - 0.5) / 800.
    const std::vector<Keyframe> keys{k(0, 0, Interp::Bezier), k(500, 1, Interp::Bezier), k(700, 0.5, Interp::Bezier)};
    const double h = 500.0 / 3;
    const double out = 0.5 / 800, in = (0.5 - 0) / (700 - 0);
    const double expected = bezierAtX(0, 0, h, out * h, 500 - h, 1 - in * h, 500, 1, 250);
    QNEAR(sampleKeyframes(keys, 250, 1000, true), expected);
    // Segment 500->700: next = first shifted forward (1000, 0): in slope (0 - 1) / 500.
    const double h2 = 200.0 / 3;
    const double out2 = (0.5 - 0) / 700, in2 = (0 - 1) / 500.0;
    QNEAR(sampleKeyframes(keys, 600, 1000, true),
          bezierAtX(500, 1, 500 + h2, 1 + out2 * h2, 700 - h2, 0.5 - in2 * h2, 700, 0.5, 600));
  }

  void wrapSegmentKeepsTheReferenceQuirk() {
    // Wrap 700 -> synthetic (1000, first value 0), neighbours keys[n-2] = (500,1)
    // and keys[1] = (500,1) UNSHIFTED: out slope (0 - 1)/(1000 - 500),
    // in slope (1 - 0.5)/(500 - 700).
    const std::vector<Keyframe> keys{k(0, 0, Interp::Bezier), k(500, 1, Interp::Bezier), k(700, 0.5, Interp::Bezier)};
    const double h = 300.0 / 3;
    const double out = (0 - 1) / 500.0, in = (1 - 0.5) / (500 - 700.0);
    QNEAR(sampleKeyframes(keys, 850, 1000, true),
          bezierAtX(700, 0.5, 700 + h, 0.5 + out * h, 1000 - h, 0 - in * h, 1000, 0, 850));
    // A linear last key wraps linearly.
    const std::vector<Keyframe> lin{k(0, 0), k(500, 1), k(700, 0.5)};
    QNEAR(sampleKeyframes(lin, 850, 1000, true), 0.25);
    // The wrap uses the last key's out-handle.
    Keyframe last = k(700, 0.5, Interp::Bezier);
    last.outHandle = Handle{100, 0};
    const std::vector<Keyframe> handled{k(0, 0), k(500, 1), last};
    const double inH = (1 - 0.5) / (500 - 700.0);
    QNEAR(sampleKeyframes(handled, 900, 1000, true), bezierAtX(700, 0.5, 800, 0.5, 900, -inH * 100, 1000, 0, 900));
  }

  void sampleAnimationGivesOneValuePerTrack() {
    Animation anim;
    anim.periodMs = 1000;
    anim.looping = true;
    anim.tracks = {{3, {k(0, 0), k(800, 2)}}, {1, {k(0, 5)}}};
    const auto values = sampleAnimation(anim, 250);
    QCOMPARE(values.size(), std::size_t(2));
    QCOMPARE(values[0].first, 3);
    QNEAR(values[0].second, 0.625);
    QCOMPARE(values[1].first, 1);
    QNEAR(values[1].second, 5);
    QCOMPARE(animationKeyTimes(anim), (std::vector<double>{0, 800}));
  }
};

QTEST_APPLESS_MAIN(TestFCurve)
#include "tst_core_fcurve.moc"
