// core/base/png_encoder.h: the PNG a screenshot or a render is written as.
// Read back by Qt's PNG reader; the expected pixels come from the input
// (and, for premultiplied input, from what premultiplying does), the colour
// type from the file's IHDR chunk.
#include <QtGui/QImage>
#include <QtTest/QTest>
#include <cstdint>
#include <random>
#include <vector>

#include "riglens/core/base/png_encoder.h"

using namespace riglens::core;

namespace {

// A width x height picture, `stride` bytes a row, the padding after each
// row filled with noise the encoder must not read into the picture.
struct Picture {
  int width = 0, height = 0;
  std::size_t stride = 0;
  std::vector<std::uint8_t> bytes;
  std::uint8_t* pixel(int x, int y) { return bytes.data() + std::size_t(y) * stride + std::size_t(x) * 4; }
  PixelRows rows(PixelRows::Order order = PixelRows::Order::Rgba, bool premultiplied = false) const {
    return {width, height, stride, bytes.data(), order, premultiplied};
  }
};

Picture noise(int width, int height, std::size_t padding, bool opaque, unsigned seed) {
  Picture picture{width, height, std::size_t(width) * 4 + padding, {}};
  picture.bytes.resize(picture.stride * std::size_t(height));
  std::mt19937 random(seed);
  for (auto& byte : picture.bytes) byte = std::uint8_t(random());
  if (opaque)
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) picture.pixel(x, y)[3] = 255;
  return picture;
}

// IHDR's colour type: byte 25 of the file (8 signature, 8 chunk header, 9 into IHDR).
int colourType(const std::vector<std::uint8_t>& png) {
  return png.size() > 25 ? png[25] : -1;
}
constexpr int kPngRgb = 2;
constexpr int kPngRgba = 6;

QImage decoded(const std::vector<std::uint8_t>& png) {
  QImage image;
  image.loadFromData(png.data(), int(png.size()), "PNG");
  return image.convertToFormat(QImage::Format_RGBA8888);
}

// The decoded pixel (x, y) as RGBA bytes.
const std::uint8_t* at(const QImage& image, int x, int y) {
  return image.constScanLine(y) + x * 4;
}

}  // namespace

class TestCorePngEncoder : public QObject {
  Q_OBJECT

 private slots:
  void opaquePictureIsWrittenAsRgbPixelForPixel() {
    Picture picture = noise(37, 23, 12, true, 1);
    const auto png = encodePng(picture.rows());
    QVERIFY2(png, png ? "" : png.error().message.c_str());
    QCOMPARE(colourType(png.value()), kPngRgb);
    const QImage image = decoded(png.value());
    QCOMPARE(image.size(), QSize(37, 23));
    for (int y = 0; y < 23; ++y)
      for (int x = 0; x < 37; ++x)
        for (int c = 0; c < 4; ++c) QCOMPARE(at(image, x, y)[c], picture.pixel(x, y)[c]);
  }

  void transparencyKeepsItsAlphaChannel() {
    Picture picture = noise(19, 11, 0, false, 2);
    picture.pixel(3, 4)[3] = 0;  // at least one, whatever the noise gave
    const auto png = encodePng(picture.rows());
    QVERIFY(png);
    QCOMPARE(colourType(png.value()), kPngRgba);
    const QImage image = decoded(png.value());
    for (int y = 0; y < 11; ++y)
      for (int x = 0; x < 19; ++x)
        for (int c = 0; c < 4; ++c) QCOMPARE(at(image, x, y)[c], picture.pixel(x, y)[c]);
  }

  void bgraBytesAreSwappedIntoPlace() {
    Picture picture = noise(16, 9, 4, true, 3);
    const auto png = encodePng(picture.rows(PixelRows::Order::Bgra));
    QVERIFY(png);
    const QImage image = decoded(png.value());
    for (int y = 0; y < 9; ++y)
      for (int x = 0; x < 16; ++x) {
        QCOMPARE(at(image, x, y)[0], picture.pixel(x, y)[2]);
        QCOMPARE(at(image, x, y)[1], picture.pixel(x, y)[1]);
        QCOMPARE(at(image, x, y)[2], picture.pixel(x, y)[0]);
        QCOMPARE(at(image, x, y)[3], std::uint8_t(255));
      }
  }

  // Premultiplied input is stored straight: premultiplying what was written
  // (rounded) gives back every byte the caller passed, and a fully
  // transparent pixel is stored as zero.
  void premultipliedPixelsAreStoredStraight() {
    Picture picture = noise(64, 8, 0, false, 4);
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 64; ++x) {
        std::uint8_t* p = picture.pixel(x, y);
        if (x == 0) p[3] = 0;
        for (int c = 0; c < 3; ++c) p[c] = std::uint8_t((p[c] * p[3] + 127) / 255);  // a valid premultiplied pixel
      }
    const auto png = encodePng(picture.rows(PixelRows::Order::Rgba, true));
    QVERIFY(png);
    QCOMPARE(colourType(png.value()), kPngRgba);
    const QImage image = decoded(png.value());
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 64; ++x) {
        const std::uint8_t* stored = at(image, x, y);
        const unsigned alpha = picture.pixel(x, y)[3];
        QCOMPARE(unsigned(stored[3]), alpha);
        for (int c = 0; c < 3; ++c) {
          if (alpha == 0) {
            QCOMPARE(stored[c], std::uint8_t(0));
            continue;
          }
          QCOMPARE(unsigned((stored[c] * alpha + 127) / 255), unsigned(picture.pixel(x, y)[c]));
        }
      }
  }

  void refusesWhatIsNotAPicture() {
    Picture picture = noise(8, 8, 0, true, 5);
    PixelRows empty = picture.rows();
    empty.width = 0;
    auto refused = encodePng(empty);
    QVERIFY(!refused);
    QVERIFY(refused.error().message.find("0x8") != std::string::npos);
    PixelRows shortRows = picture.rows();
    shortRows.stride = 31;
    refused = encodePng(shortRows);
    QVERIFY(!refused);
    QVERIFY(refused.error().message.find("31 bytes cannot hold 8 pixels") != std::string::npos);
    PixelRows tooWide = picture.rows();
    tooWide.width = 2'000'000;
    tooWide.stride = std::size_t(tooWide.width) * 4;
    QVERIFY(!encodePng(tooWide));
    PixelRows nothing = picture.rows();
    nothing.data = nullptr;
    QVERIFY(!encodePng(nothing));
  }
};

QTEST_APPLESS_MAIN(TestCorePngEncoder)
#include "tst_core_png_encoder.moc"
