// 3DGS .ply scenes: decoded centres, covariances (R S S^T R^T computed here
// by hand for known rotations), SH degree-0 colours with sigmoid opacity,
// the SH degree from the f_rest count, and the refusals.
#include <QtTest/QTest>
#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/matrix.hpp>
#include <optional>
#include <string>

#include "riglens/core/base/color.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/core/splats/spherical_harmonics.h"
#include "riglens/core/splats/splat_orientation.h"
#include "test_checks.h"

using namespace riglens::core;

class TestGaussianPly : public QObject {
  Q_OBJECT
 private slots:
  void decodesKnownGaussians() {
    RawGaussian a;
    a.position = {1, 2, 3};
    a.dc = {0, 0, 0};    // colour 0.5
    a.opacityLogit = 0;  // sigmoid -> 0.5
    a.logScale = {std::log(2.0f), 0, std::log(0.5f)};
    RawGaussian b = a;
    const float h = std::sqrt(0.5f);
    b.rotation = {h, 0, 0, h};          // 90 deg about z: x and y scales swap
    b.dc = {1.0f / 0.28209479f, 0, 0};  // red channel 1.5 -> clamped to 1
    b.opacityLogit = 100;
    const std::vector<RawGaussian> raw{a, b};
    for (int degree : {0, 2}) {
      auto cloud = parseGaussianPly(encodeGaussianPly(raw, degree), "scene.ply");
      QVERIFY_OK(cloud);
      QCOMPARE(cloud->count, std::size_t(2));
      QCOMPARE(cloud->shDegree, degree);
      QCOMPARE(cloud->shRest.size(), std::size_t(2 * 3 * ((degree + 1) * (degree + 1) - 1)));
      QCOMPARE(cloud->positions[2], 3.0f);
      // a: diag(4, 1, 0.25); b: rotated, diag(1, 4, 0.25).
      const float ea[6] = {4, 0, 0, 1, 0, 0.25f}, eb[6] = {1, 0, 0, 4, 0, 0.25f};
      for (int k = 0; k < 6; ++k) {
        QCOMPARE_NEAR(cloud->covariance[std::size_t(k)], ea[k], riglens::core::tolerance::kFloatCoordinate);
        QCOMPARE_NEAR(cloud->covariance[6 + std::size_t(k)], eb[k], riglens::core::tolerance::kFloatCoordinate);
      }
      QCOMPARE(cloud->color[0], packRgba(0.5f, 0.5f, 0.5f, 0.5f));
      QCOMPARE(cloud->color[1], packRgba(1.0f, 0.5f, 0.5f, 1.0f));
    }
  }

  void refusals_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    const std::vector<RawGaussian> one(1);
    const auto good = encodeGaussianPly(one);
    const QByteArray goodBytes(reinterpret_cast<const char*>(good.data()), int(good.size()));
    QTest::newRow("not ply") << QByteArray("hello") << "not a .ply file";
    QTest::newRow("ascii") << QByteArray("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n1\n")
                           << "format 'ascii' is not supported";
    QTest::newRow("missing property") << QByteArray(
                                             "ply\nformat binary_little_endian 1.0\nelement vertex "
                                             "1\nproperty float x\nend_header\n")
                                      << "missing property y";
    QTest::newRow("truncated") << goodBytes.left(goodBytes.size() - 4)
                               << "declares 1 gaussians but the file holds data for 0";
    QByteArray bad = goodBytes;
    bad.replace("property float f_dc_2\n", "property float f_dc_2\nproperty float f_rest_0\n");
    bad.append(QByteArray(4, 0));  // the extra property's data
    QTest::newRow("sh count") << bad << "1 f_rest properties match no SH degree";
    QTest::newRow("no header end") << QByteArray("ply\nformat binary_little_endian 1.0\n") << "no end_header";
  }
  void refusals() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    QVERIFY_REFUSED(parseGaussianPly(riglens::test::byteSpan(bytes), "scene.ply"), "scene.ply", expected);
  }

  // The view-dependent colour of degrees 1-3: band 1 by hand (Y = -C1 y, C1 z,
  // -C1 x), the higher bands through the degree-3 value at a direction where
  // only one basis function of band 2 and one of band 3 are non-zero; the
  // .ply keeps f_dc and f_rest (channel-major) for the renderer.
  void sphericalHarmonicsFollowTheReference() {
    const double C0 = 0.28209479177387814, C1 = 0.4886025119029199;
    const float dc[3] = {0.4f, -0.2f, 0.0f};
    const float rest1[9] = {0.1f, 0.2f, 0.3f, -0.1f, 0.0f, 0.5f, 0.0f, 0.0f, 0.0f};  // R: k=0..2, G, B
    const glm::vec3 dir = glm::normalize(glm::vec3(1, 2, -2));
    const glm::vec3 got = riglens::core::shColor(dc, rest1, 1, dir);
    const double x = dir.x, y = dir.y, z = dir.z;
    const double r = 0.5 + C0 * 0.4 + (-C1 * y) * 0.1 + (C1 * z) * 0.2 + (-C1 * x) * 0.3;
    const double g = 0.5 + C0 * -0.2 + (-C1 * y) * -0.1 + (-C1 * x) * 0.5;
    QCOMPARE_NEAR(got.x, r, riglens::core::tolerance::kFloatUnit);
    QCOMPARE_NEAR(got.y, g, riglens::core::tolerance::kFloatUnit);
    QCOMPARE_NEAR(got.z, 0.5, riglens::core::tolerance::kFloatUnit);  // blue: dc 0, no rest
    // Along +z only the zonal functions are non-zero: Y20 = C2[2] * 2, Y30 = C3[3] * 2.
    std::vector<float> rest3(45, 0.0f);
    rest3[5] = 1.0f;       // red, band 2, m = 0
    rest3[11] = 1.0f;      // red, band 3, m = 0
    rest3[15 + 2] = 1.0f;  // green, band 1, x: zero along z
    const glm::vec3 zonal = riglens::core::shColor(dc, rest3.data(), 3, glm::vec3(0, 0, 1));
    QCOMPARE_NEAR(zonal.x, (0.5 + C0 * 0.4 + 0.31539156525252005 * 2 + 0.3731763325901154 * 2),
                  riglens::core::tolerance::kFloatUnit);
    QCOMPARE_NEAR(zonal.y, (0.5 + C0 * -0.2), riglens::core::tolerance::kFloatUnit);
    // Negative sums clamp at 0.
    const float dark[3] = {-5, -5, -5};
    QCOMPARE(riglens::core::shColor(dark, rest3.data(), 3, glm::vec3(0, 1, 0)), glm::vec3(0.0f));
    // The .ply carries them.
    riglens::core::RawGaussian raw;
    raw.dc = {dc[0], dc[1], dc[2]};
    raw.shRest = rest3;
    auto cloud = riglens::core::parseGaussianPly(
        riglens::core::encodeGaussianPly(std::vector<riglens::core::RawGaussian>{raw}, 3), "sh.ply");
    QVERIFY(cloud);
    QCOMPARE(cloud->shDegree, 3);
    QCOMPARE(cloud->shRest, rest3);
    QCOMPARE(cloud->shDc, (std::vector<float>{0.4f, -0.2f, 0.0f}));
  }

  // The up axis: RigLens's header line read back; a file without one (a
  // trainer's) stands -y up, turned half about z as SuperSplat turns it.
  void upAxisFromTheFileElseColmaps() {
    const std::vector<RawGaussian> one(1);
    for (const SplatUp up : {SplatUp::PlusY, SplatUp::MinusY}) {
      auto cloud = parseGaussianPly(encodeGaussianPly(one, 0, up), "up.ply");
      QVERIFY_OK(cloud);
      QCOMPARE(defaultSplatUp(*cloud), up);
    }
    std::vector<std::uint8_t> trainer = encodeGaussianPly(one);
    const std::string line = "comment up +y\n";
    const auto at = std::search(trainer.begin(), trainer.end(), line.begin(), line.end());
    QVERIFY(at != trainer.end());
    trainer.erase(at, at + std::ptrdiff_t(line.size()));
    auto cloud = parseGaussianPly(trainer, "trainer.ply");
    QVERIFY_OK(cloud);
    QVERIFY(!cloud->declaredUp);
    QCOMPARE(defaultSplatUp(*cloud), SplatUp::MinusY);
    // -y up: (x, y, z) -> (-x, -y, z), a rotation (det +1); +y: as stored.
    const glm::mat4 turn = splatToWorld(SplatUp::MinusY);
    QCOMPARE(glm::vec3(turn * glm::vec4(1, 2, 3, 1)), glm::vec3(-1, -2, 3));
    QCOMPARE(glm::determinant(turn), 1.0f);
    QCOMPARE(splatToWorld(SplatUp::PlusY), glm::mat4(1.0f));
    QCOMPARE(flippedUp(SplatUp::PlusY), SplatUp::MinusY);
    QCOMPARE(parseSplatUp("-y"), std::optional<SplatUp>(SplatUp::MinusY));
    QCOMPARE(parseSplatUp("+y"), std::optional<SplatUp>(SplatUp::PlusY));
    QVERIFY(!parseSplatUp("z"));
  }

  // Framing: a subject of 20,000 centres in a 2 x 1 x 1 box and 60 floaters
  // 100-300 units out. The framed box is the subject's (the floaters cut
  // off), where the whole cloud's box is ~150x larger.
  void framesTheDenseCloudNotItsFloaters() {
    std::vector<RawGaussian> raw;
    std::uint32_t state = 12345;
    const auto next = [&] {  // a fixed LCG: the same cloud every run
      state = state * 1664525u + 1013904223u;
      return float(state >> 8) / float(1u << 24);
    };
    for (int i = 0; i < 20000; ++i) {
      RawGaussian g;
      g.position = {2 * next() - 1, next() - 0.5f, next() - 0.5f};
      raw.push_back(g);
    }
    for (int i = 0; i < 60; ++i) {
      RawGaussian g;
      const float r = 100 + 200 * next(), a = 6.2831853f * next();
      g.position = {r * std::cos(a), r * (next() - 0.5f), r * std::sin(a)};
      raw.push_back(g);
    }
    auto cloud = parseGaussianPly(encodeGaussianPly(raw), "floaters.ply");
    QVERIFY_OK(cloud);
    const Bounds all = cloudBounds(*cloud), dense = denseCloudBounds(*cloud);
    QVERIFY(all.radius() > 100);
    // Within the subject, and cutting no more than the outlier share off each side of it.
    const glm::vec3 subjectMin(-1, -0.5f, -0.5f), subjectMax(1, 0.5f, 0.5f);
    for (int c = 0; c < 3; ++c) {
      const float size = subjectMax[c] - subjectMin[c], cut = kDenseCut * size;
      QVERIFY2(dense.min[c] >= subjectMin[c] - kFloatSlack && dense.min[c] <= subjectMin[c] + cut,
               qPrintable(QString("axis %1 min %2").arg(c).arg(dense.min[c])));
      QVERIFY2(dense.max[c] <= subjectMax[c] + kFloatSlack && dense.max[c] >= subjectMax[c] - cut,
               qPrintable(QString("axis %1 max %2").arg(c).arg(dense.max[c])));
    }
    // A small cloud is framed whole.
    raw.resize(kFramingQuantileMinimum - 1);
    raw.back().position = {50, 0, 0};
    auto small = parseGaussianPly(encodeGaussianPly(raw), "small.ply");
    QVERIFY_OK(small);
    QCOMPARE(denseCloudBounds(*small).max.x, 50.0f);
  }

 private:
  // The quantile cut of the dense box: kFramingOutlierShare of the centres
  // each side plus the 60 floaters' share, as a fraction of a uniform
  // subject's size (with margin for the sampling).
  static constexpr float kDenseCut = 0.04f;
  static constexpr float kFloatSlack = riglens::core::tolerance::kFloatCoordinate;
};

QTEST_APPLESS_MAIN(TestGaussianPly)
#include "tst_core_gaussian_ply.moc"
