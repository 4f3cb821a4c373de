// 3DGS .ply scenes: decoded centres, covariances (R S S^T R^T computed here
// by hand for known rotations), SH degree-0 colours with sigmoid opacity,
// the SH degree from the f_rest count, and the refusals.
#include <QtTest/QtTest>
#include <cmath>
#include <string>

#include "riglens/core/base/color.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/splats/gaussian_ply.h"
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
        QVERIFY(std::abs(cloud->covariance[std::size_t(k)] - ea[k]) < riglens::core::tolerance::kFloatCoordinate);
        QVERIFY(std::abs(cloud->covariance[6 + std::size_t(k)] - eb[k]) < riglens::core::tolerance::kFloatCoordinate);
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
    auto cloud = parseGaussianPly({reinterpret_cast<const std::uint8_t*>(bytes.constData()), std::size_t(bytes.size())},
                                  "scene.ply");
    QVERIFY(!cloud);
    const QString message = QString::fromStdString(cloud.error().message);
    QVERIFY2(message.startsWith("scene.ply: ") && message.contains(expected), qPrintable(message));
  }
};

QTEST_APPLESS_MAIN(TestGaussianPly)
#include "tst_core_gaussian_ply.moc"
