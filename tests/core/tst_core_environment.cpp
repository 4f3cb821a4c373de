// Environment maps (core/view/environment.h): the equirectangular mapping,
// the procedural studio, and the readers — .hdr files encoded here (RGBE,
// as Greg Ward's format describes it) and .exr files written here by
// OpenEXR itself, read back to the values written; malformed files refused
// with the file and the place named, odd ones warned about.
#include <QtTest/QTest>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <glm/geometric.hpp>

#include "environment_fixture.h"
#include "riglens/core/view/environment.h"
#include "test_paths.h"

using namespace riglens;

namespace {

constexpr double kPi = 3.14159265358979323846;
// An RGBE texel keeps 8 bits of mantissa under a shared exponent: the
// largest channel is within 1/256 of its value (truncated), the others
// within that step of the largest.
constexpr double kRgbeStep = 1.0 / 256;
// Allowed between a written and a read-back channel, relative to the
// texel's largest: one step truncated when encoding, half a step added back
// by the decoder (stb adds 0.5 to each mantissa): under two steps.
constexpr double kRgbeTolerance = 2 * kRgbeStep;
// The mapping's float32 round trip (atan2/acos of a unit vector).
constexpr double kMappingTolerance = 1e-5;

std::vector<std::uint8_t> bytesOf(const std::string& s) {
  return {s.begin(), s.end()};
}

std::filesystem::path writeExr(const QString& name, int width, int height, const std::vector<float>& rgb) {
  const std::filesystem::path path = test::outputPath(name).toStdString();
  test::writeExr(path, width, height, rgb);
  return path;
}

}  // namespace

class TestCoreEnvironment : public QObject {
  Q_OBJECT

 private slots:
  void theMappingRoundTrips() {
    // The centre column looks along -z, a quarter to its right along +x, the top row up.
    const glm::vec3 forward = core::equirectDirection({0.5f, 0.5f});
    QVERIFY(glm::distance(forward, glm::vec3(0, 0, -1)) < kMappingTolerance);
    QVERIFY(glm::distance(core::equirectDirection({0.75f, 0.5f}), glm::vec3(1, 0, 0)) < kMappingTolerance);
    QVERIFY(core::equirectDirection({0.3f, 0.0f}).y > 1 - kMappingTolerance);
    for (float u : {0.05f, 0.3f, 0.62f, 0.97f})
      for (float v : {0.1f, 0.45f, 0.8f}) {
        const glm::vec2 back = core::equirectCoordinates(core::equirectDirection({u, v}));
        QVERIFY(std::abs(back.x - u) < kMappingTolerance && std::abs(back.y - v) < kMappingTolerance);
      }
    double sphere = 0;
    for (int y = 0; y < 32; ++y) sphere += 64 * core::equirectTexelSolidAngle(y, 64, 32);
    QVERIFY(std::abs(sphere - 4 * kPi) < kMappingTolerance);
  }

  void theStudioIsLitFromAboveFrontRight() {
    const core::EnvironmentMap studio = core::studioEnvironment(256);
    QCOMPARE(studio.width, 256);
    QCOMPARE(studio.height, 128);
    const auto at = [&](glm::vec3 d) {
      const glm::vec2 uv = core::equirectCoordinates(d);
      return studio.texel(std::min(int(uv.x * studio.width), studio.width - 1),
                          std::min(int(uv.y * studio.height), studio.height - 1));
    };
    const glm::vec3 key = at(glm::vec3(0.5f, 0.75f, 0.45f)), floor = at(glm::vec3(0, -1, 0));
    const glm::vec3 wall = at(glm::vec3(0, 0.2f, -1));
    QVERIFY(key.g > 10 * wall.g);  // the softbox outshines the room
    QVERIFY(wall.g > floor.g);     // the floor is darker than the walls
    QVERIFY(std::all_of(studio.rgb.begin(), studio.rgb.end(), [](float v) { return v >= 0 && std::isfinite(v); }));
  }

  void hdrFilesReadBackTheirValues() {
    const std::vector<float> rgb = test::environmentGradient(8, 4);
    auto map = core::decodeEnvironment(bytesOf(test::hdrFile(8, 4, rgb)), "gradient.hdr");
    QVERIFY2(map, map ? "" : map.error().message.c_str());
    QCOMPARE(map->width, 8);
    QCOMPARE(map->height, 4);
    QCOMPARE(map->name, std::string("gradient.hdr"));
    for (std::size_t t = 0; t < 32; ++t) {
      const float largest = std::max({rgb[t * 3], rgb[t * 3 + 1], rgb[t * 3 + 2]});
      for (int c = 0; c < 3; ++c) QVERIFY(std::abs(map->rgb[t * 3 + c] - rgb[t * 3 + c]) <= kRgbeTolerance * largest);
    }
    QVERIFY(map->warnings.empty());  // 2:1
    const std::vector<float> wide = test::environmentGradient(16, 8);
    auto coded = core::decodeEnvironment(bytesOf(test::hdrRleFile(16, 8, wide)), "coded.hdr");
    QVERIFY2(coded, coded ? "" : coded.error().message.c_str());
    for (std::size_t i = 0; i < wide.size(); ++i) {
      const std::size_t t = i / 3 * 3;
      const float largest = std::max({wide[t], wide[t + 1], wide[t + 2]});
      QVERIFY(std::abs(coded->rgb[i] - wide[i]) <= kRgbeTolerance * largest);
    }
  }

  void exrFilesReadBackTheirValues() {
    const std::vector<float> rgb = test::environmentGradient(16, 8);
    const auto path = writeExr("environment-gradient.exr", 16, 8, rgb);
    auto map = core::readEnvironment(path);
    QVERIFY2(map, map ? "" : map.error().message.c_str());
    QCOMPARE(map->width, 16);
    for (std::size_t i = 0; i < rgb.size(); ++i) QCOMPARE(map->rgb[i], float(half(rgb[i])));
  }

  void oddMapsAreTakenWithAWarning() {
    std::vector<float> rgb = test::environmentGradient(12, 4);
    rgb[4] = -0.5f;  // a filter's ringing
    const auto path = writeExr("environment-odd.exr", 12, 4, rgb);
    auto map = core::readEnvironment(path);
    QVERIFY(map);
    QCOMPARE(map->rgb[4], 0.0f);
    QCOMPARE(int(map->warnings.size()), 2);
    QVERIFY(QString::fromStdString(map->warnings[0]).contains("1 negative values were set to 0"));
    QVERIFY(QString::fromStdString(map->warnings[1]).contains("12 x 4, not 2:1"));
  }

  void malformedMapsAreRefused_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("problem");
    const std::string good = test::hdrFile(8, 4, test::environmentGradient(8, 4));
    QTest::newRow("not radiance") << QByteArray("P6 8 4 255\n") << "x.hdr"
                                  << "x.hdr: byte 0: not a Radiance RGBE image";
    QTest::newRow("claims more than its bytes")
        << QByteArray::fromStdString(test::hdrFile(4, 2, test::environmentGradient(4, 2), "-Y 30000 +X 60000\n"))
        << "big.hdr"
        << "big.hdr: byte 0: the image is 60000 x 30000 texels, more than the viewer takes";
    QTest::newRow("claims a few too many")
        << QByteArray::fromStdString(test::hdrFile(4, 2, test::environmentGradient(4, 2), "-Y 200 +X 400\n"))
        << "many.hdr"
        << "more than 81 bytes can encode";
    QTest::newRow("truncated") << QByteArray::fromStdString(good.substr(0, good.size() - 20)) << "cut.hdr"
                               << "cut.hdr: byte 45: the texels (128 bytes) end early: the file ends at byte 153";
    // 46 header bytes, then scanlines of 4 + 4 x (1 + 16) = 72 bytes: 622 in all.
    const std::string coded = test::hdrRleFile(16, 8, test::environmentGradient(16, 8));
    QTest::newRow("run-length coded, truncated")
        << QByteArray::fromStdString(coded.substr(0, coded.size() - 30)) << "cut.hdr"
        << "cut.hdr: byte 550: scanline 7 ends early: the file ends at byte 592";
    QTest::newRow("not exr") << QByteArray("not an exr at all") << "x.exr"
                             << "x.exr: byte 0: not an OpenEXR image (no magic number)";
    QTest::newRow("other format") << QByteArray("abc") << "x.png"
                                  << "an environment is a .hdr";
  }

  void malformedMapsAreRefused() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, name);
    QFETCH(QString, problem);
    const std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
    auto map = core::decodeEnvironment(data, name.toStdString());
    QVERIFY(!map);
    QVERIFY2(QString::fromStdString(map.error().message).contains(problem), map.error().message.c_str());
  }

  void exrHeadersAreCheckedBeforeOpenExrReadsThem() {
    // OpenEXR allocates what an attribute claims before reading it, and the
    // image at its data window's size: both are checked against the file first.
    const auto path = writeExr("environment-header.exr", 8, 4, test::environmentGradient(8, 4));
    QFile file(QString::fromStdString(path.string()));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray good = file.readAll();
    const auto patched = [&](const char* attribute, int offset, std::uint32_t value) {
      QByteArray bytes = good;
      const qsizetype at = bytes.indexOf(QByteArray(attribute, qsizetype(std::strlen(attribute)) + 1)) +
                           qsizetype(std::strlen(attribute)) + 1 + offset;
      for (int i = 0; i < 4; ++i) bytes[at + i] = char((value >> (8 * i)) & 0xff);
      return std::vector<std::uint8_t>(bytes.begin(), bytes.end());
    };
    // "channels\0chlist\0" then the size: claimed 1.3 GB.
    auto claims = core::decodeEnvironment(patched("channels", 7, 0x52400000u), "claims.exr");
    QVERIFY(!claims);
    QVERIFY2(QString::fromStdString(claims.error().message)
                 .contains("attribute 'channels' claims 1379926016 bytes, past the end of the file"),
             claims.error().message.c_str());
    // "dataWindow\0box2i\0", the size (4 bytes), then xMin yMin xMax yMax: xMax 60000.
    auto wide = core::decodeEnvironment(patched("dataWindow", 6 + 4 + 8, 60000u), "wide.exr");
    QVERIFY(!wide);
    QVERIFY2(QString::fromStdString(wide.error().message).contains("the data window: the image is 60001 x 4 texels"),
             wide.error().message.c_str());
  }

  void nonFiniteRadianceIsRefused() {
    std::vector<float> rgb = test::environmentGradient(8, 4);
    rgb[3 * 9 + 1] = std::numeric_limits<float>::infinity();
    const auto path = writeExr("environment-infinite.exr", 8, 4, rgb);
    auto map = core::readEnvironment(path);
    QVERIFY(!map);
    QVERIFY2(QString::fromStdString(map.error().message).contains("texel (1, 1) is not a finite radiance"),
             map.error().message.c_str());
  }

  void largeMapsAreBoxFilteredForTheGpu() {
    const core::EnvironmentMap studio = core::studioEnvironment(64);
    const core::EnvironmentMap halved = core::downsampledEnvironment(studio, 32);
    QCOMPARE(halved.width, 32);
    QCOMPARE(halved.height, 16);
    const glm::vec3 mean = (studio.texel(2, 4) + studio.texel(3, 4) + studio.texel(2, 5) + studio.texel(3, 5)) / 4.0f;
    QVERIFY(glm::distance(halved.texel(1, 2), mean) < kMappingTolerance);
  }
};

QTEST_MAIN(TestCoreEnvironment)
#include "tst_core_environment.moc"
