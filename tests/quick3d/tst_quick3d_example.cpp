// The RigLens.Quick3D example as a user runs it, under Xvfb with a shown
// window (Qt Quick 3D grabs hidden windows black): the tank drawn with the
// part tint has, where it projects, the hues of core::partTints - every part
// that shows, lit by the scene's light; the colour tint draws the same
// silhouette with other pixels. A skinned tank (its parts as one skinned
// mesh.glb, skinned by Qt Quick 3D on the GPU) and the tank exported to one
// glTF draw, posed, what the rig's own parts draw.
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtGui/QColor>
#include <QtGui/QImage>
#include <QtTest/QTest>
#include <cmath>

#include "pbr_fixture.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/rig_tints.h"
#include "riglens/core/rig/run_loader.h"
#include "skinned_run_fixture.h"
#include "test_paths.h"

namespace {
// A pixel visibly differs from another when its RGB differs by more than the
// golden-image tolerance in each of its three channels, summed.
constexpr int kVisiblyDifferent = 3 * riglens::core::tolerance::kGoldenChannel;
}  // namespace

namespace {

const QString kExample = QStringLiteral(RIGLENS_EXAMPLE_EXE);
const QString kCli = QStringLiteral(RIGLENS_CLI_EXE);
const QColor kClear(0x20, 0x24, 0x2c);  // Main.qml's clearColor

bool run(const QString& program, const QStringList& args, QString* err = nullptr) {
  QProcess process;
  process.start(program, args);
  const bool ok =
      process.waitForFinished(120000) && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
  if (err) *err = QString::fromUtf8(process.readAllStandardError());
  return ok;
}

bool isModel(QRgb p) {
  return std::abs(qRed(p) - kClear.red()) + std::abs(qGreen(p) - kClear.green()) + std::abs(qBlue(p) - kClear.blue()) >
         kVisiblyDifferent;
}

// Where pixels of one colour lie: how many, and their mean row.
struct ColourSpot {
  int pixels = 0;
  double meanRow = 0;
};

// The pixels of the view (the window less its joint panel) within the
// golden-image tolerance of `colour` in every channel: Qt's rasteriser and
// 8-bit rounding, as for our own renderer's goldens.
ColourSpot spotOf(const QImage& image, QColor colour) {
  constexpr int kNear = riglens::core::tolerance::kGoldenChannel;
  ColourSpot spot;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width() - 300; ++x) {
      const QRgb p = image.pixel(x, y);
      if (std::abs(qRed(p) - colour.red()) > kNear || std::abs(qGreen(p) - colour.green()) > kNear ||
          std::abs(qBlue(p) - colour.blue()) > kNear)
        continue;
      ++spot.pixels;
      spot.meanRow += y;
    }
  if (spot.pixels) spot.meanRow /= spot.pixels;
  return spot;
}

// sRGB's transfer function: a linear value 0..1 as the screen shows it.
double srgbEncode(double c) {
  c = std::clamp(c, 0.0, 1.0);
  return c <= 0.0031308 ? c * 12.92 : 1.055 * std::pow(c, 1 / 2.4) - 0.055;
}

// A linear colour as the 8-bit sRGB a linear tone mapping shows.
QColor srgb(const double linear[3], double scale) {
  const auto encode = [](double c) { return int(std::lround(255.0 * srgbEncode(c))); };
  return QColor(encode(linear[0] * scale), encode(linear[1] * scale), encode(linear[2] * scale));
}

double hueDistance(double a, double b) {
  const double d = std::fmod(std::abs(a - b), 360.0);
  return std::min(d, 360.0 - d);
}

}  // namespace

class TestQuick3dExample : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;

  QImage shot(const QString& tint, const QString& source = QStringLiteral("tank-cubes"), const QStringList& pose = {}) {
    const QString png = m_dir.filePath(QStringLiteral("%1-%2-%3.png").arg(source, tint).arg(pose.size()));
    QString err;
    if (!run(kExample, QStringList{m_dir.filePath(source), "--tint", tint, "--screenshot", png} + pose, &err)) {
      qWarning("%s", qPrintable(err));
      return {};
    }
    return QImage(png).convertToFormat(QImage::Format_RGB32);
  }

 private slots:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    QVERIFY(run(kCli, {"samples", "--out", m_dir.path(), "--name", "tank-cubes"}));
    const std::string problem = riglens::test::writeSkinnedRun(m_dir.filePath("tank-cubes").toStdString(),
                                                               m_dir.filePath("tank-skinned").toStdString(), false);
    QVERIFY2(problem.empty(), problem.c_str());
    QVERIFY(run(kCli, {"export", m_dir.filePath("tank-cubes"), "--out", m_dir.filePath("tank.glb")}));
  }

  // Posed (the turret turned, the gun raised, the recoil 0.2 s into "fire"),
  // the skinned tank and the exported one cover the rig's own silhouette and
  // colours: Qt's skinning, the joints the node hands it and the normals
  // tint's own skinning stage agree with the rig's part nodes.
  void skinnedMeshesDrawLikeTheRig_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("tint");
    QTest::addColumn<QStringList>("pose");
    // One camera for all (the rig's parts and its skinned forms frame on
    // slightly different boxes).
    const QStringList posed{"--set", "turret_yaw=0.9", "--set", "gun_pitch=0.4", "--play",
                            "fire",  "--time",         "0.2",   "--fixed-camera"};
    const QStringList fire{"--play", "fire", "--time", "0.2", "--fixed-camera"};
    for (const char* tint : {"color", "normals"}) {
      QTest::newRow(qPrintable(QStringLiteral("skinned %1").arg(tint))) << "tank-skinned" << tint << posed;
      QTest::newRow(qPrintable(QStringLiteral("exported %1").arg(tint))) << "tank.glb" << tint << fire;
    }
  }
  void skinnedMeshesDrawLikeTheRig() {
    QFETCH(QString, source);
    QFETCH(QString, tint);
    QFETCH(QStringList, pose);
    const QImage rig = shot(tint, "tank-cubes", pose);
    const QImage skinned = shot(tint, source, pose);
    QVERIFY(!rig.isNull() && !skinned.isNull());
    int both = 0, either = 0, close = 0;
    for (int y = 0; y < rig.height(); ++y)
      for (int x = 0; x < rig.width() - 300; ++x) {
        const QRgb a = rig.pixel(x, y), b = skinned.pixel(x, y);
        both += isModel(a) && isModel(b);
        either += isModel(a) || isModel(b);
        if (isModel(a) && isModel(b) &&
            std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b))}) <=
                8)
          ++close;
      }
    QVERIFY2(either > 20000, qPrintable(QString::number(either)));
    QVERIFY2(both * 100 >= either * 97, qPrintable(QStringLiteral("%1 / %2").arg(both).arg(either)));
    QVERIFY2(close * 100 >= both * 95, qPrintable(QStringLiteral("%1 / %2").arg(close).arg(both)));
  }

  void partTintShowsEachPartsHue() {
    const QImage image = shot("part");
    QVERIFY(!image.isNull());
    auto loaded = riglens::core::loadRun(m_dir.filePath("tank-cubes").toStdString());
    QVERIFY(loaded.hasValue());
    const auto tints = riglens::core::partTints(loaded->rig);
    std::vector<double> hues;
    // The tints are linear; the material gets them sRGB-encoded, as the
    // screen shows them (lighting scales them, which moves hue little).
    for (const auto& t : tints)
      hues.push_back(
          QColor::fromRgbF(float(srgbEncode(t.r)), float(srgbEncode(t.g)), float(srgbEncode(t.b))).hsvHueF() * 360.0);
    // The view is the window's left part (the joint panel is 260 px wide).
    std::vector<int> matched(tints.size(), 0);
    int model = 0, unmatched = 0;
    for (int y = 0; y < image.height(); ++y)
      for (int x = 0; x < image.width() - 300; ++x) {
        const QRgb p = image.pixel(x, y);
        if (!isModel(p)) continue;
        ++model;
        const QColor c = QColor::fromRgb(p);
        if (c.hsvSaturationF() < 0.2) continue;  // edges blended with the background
        std::size_t best = 0;
        for (std::size_t i = 1; i < hues.size(); ++i)
          if (hueDistance(c.hsvHueF() * 360.0, hues[i]) < hueDistance(c.hsvHueF() * 360.0, hues[best])) best = i;
        if (hueDistance(c.hsvHueF() * 360.0, hues[best]) <= 15.0)
          ++matched[best];
        else
          ++unmatched;
      }
    QVERIFY2(model > 20000, qPrintable(QString::number(model)));  // the tank fills a good part of the view
    QVERIFY2(unmatched * 20 < model, qPrintable(QStringLiteral("%1 of %2").arg(unmatched).arg(model)));
    for (const char* part : {"hull", "turret", "barrel", "radar"}) {
      const int p = loaded->rig.findPart(part);
      QVERIFY2(matched[std::size_t(p)] > 300, part);
    }
  }

  // The PBR look draws the file's materials (quick3d/pbr_materials.h): an
  // unlit quad shows its base colour texels as they are (sRGB in, sRGB out)
  // and the right way up; a black metal, which reflects nothing, shows its
  // emissive factor x KHR_materials_emissive_strength alone, sRGB-encoded
  // (the example's scene tone-maps linearly). The review look shows no glow.
  void pbrLookDrawsTheFilesMaterials() {
    using riglens::test::Glow;
    const QColor upper(200, 60, 30), lower(30, 90, 200);
    const std::vector<Glow> glows = {{{0.5, 0.2, 0.1}, 1.0}, {{0.1, 0.3, 0.2}, 2.0}};
    const auto bytes = riglens::test::makeUnlitAndGlowingQuads(upper, lower, glows).glb();
    QFile file(m_dir.filePath("looks.glb"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size()));
    file.close();
    const QImage pbr = shot("color", "looks.glb", {"--look", "pbr"}), review = shot("color", "looks.glb");
    QVERIFY(!pbr.isNull() && !review.isNull());
    pbr.save(riglens::test::outputPath("quick3d-look-pbr.png"));
    review.save(riglens::test::outputPath("quick3d-look-review.png"));
    constexpr int kSeen = 500;  // a quad covers thousands of pixels; edges and noise far fewer
    const ColourSpot top = spotOf(pbr, upper), bottom = spotOf(pbr, lower);
    QVERIFY2(top.pixels > kSeen && bottom.pixels > kSeen,
             qPrintable(QStringLiteral("%1, %2").arg(top.pixels).arg(bottom.pixels)));
    QVERIFY2(top.meanRow < bottom.meanRow, "the texture is upside down");
    for (const Glow& glow : glows) {
      const QColor expected = srgb(glow.emissive, glow.strength);
      const int inPbr = spotOf(pbr, expected).pixels, inReview = spotOf(review, expected).pixels;
      QVERIFY2(inPbr > kSeen, qPrintable(QStringLiteral("%1: %2 pixels").arg(expected.name()).arg(inPbr)));
      QVERIFY2(inReview < kSeen,
               qPrintable(QStringLiteral("%1 in review: %2 pixels").arg(expected.name()).arg(inReview)));
    }
  }

  void tintsChangeThePixelsNotTheShape() {
    const QImage part = shot("part"), color = shot("color"), normals = shot("normals");
    QVERIFY(!part.isNull() && !color.isNull() && !normals.isNull());
    int both = 0, either = 0, differ = 0, differNormals = 0;
    for (int y = 0; y < part.height(); ++y)
      for (int x = 0; x < part.width() - 300; ++x) {
        const bool a = isModel(part.pixel(x, y)), b = isModel(color.pixel(x, y));
        both += a && b;
        either += a || b;
        if (a && b && part.pixel(x, y) != color.pixel(x, y)) ++differ;
        if (a && b && normals.pixel(x, y) != color.pixel(x, y)) ++differNormals;
      }
    QVERIFY(either > 0);
    QVERIFY2(both * 100 >= either * 97, qPrintable(QStringLiteral("%1 / %2").arg(both).arg(either)));
    QVERIFY2(differ * 10 >= both * 9, qPrintable(QStringLiteral("%1 / %2").arg(differ).arg(both)));
    QVERIFY2(differNormals * 10 >= both * 9, qPrintable(QStringLiteral("%1 / %2").arg(differNormals).arg(both)));
  }
};

QTEST_MAIN(TestQuick3dExample)
#include "tst_quick3d_example.moc"
