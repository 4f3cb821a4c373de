// riglens::media: videos written with FFmpeg's encoders and read back with
// its demuxers and decoders (frame count, duration, size, the frames), and
// the writer's refusals, which leave no file behind.
#include <QtTest/QTest>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <vector>

#include "image_psnr.h"
#include "riglens/media/video_reader.h"
#include "riglens/media/video_writer.h"
#include "test_paths.h"

using namespace riglens;
namespace fs = std::filesystem;

namespace {

// A decoded frame against the one encoded. H.264 at CRF 18 and VP9 at CRF 30
// both measured 38.0-40.2 dB on these frames, the two codecs within 0.5 dB of
// each other: the loss is mostly 4:2:0's, which gives the yellow square's
// edges on the gradient one colour per 2x2 block (flat areas come back within
// 2-3 steps, below). 36 dB leaves room for another build of the encoders; a
// frame decoded from the wrong place fails the neighbour checks instead.
constexpr double kMinRoundTripPsnrDb = 36.0;
// A flat colour away from any edge comes back within this many 8-bit steps:
// rounding in RGB -> limited-range YUV (219 luma steps for 255) and back. A
// BT.601 / BT.709 mix-up moves saturated colours by 10 steps or more; a
// range mix-up by ~30.
constexpr int kFlatColourSteps = 3;

// WebM stores times in whole milliseconds: the last frame's start and its
// length are each rounded (12 frames at 24 fps end at 458 + 41 = 499 ms).
constexpr double kTimestampSeconds = 0.0015;

constexpr int kWidth = 160, kHeight = 96, kFrames = 12, kFps = 24;

// Frame `i`: a gradient with a yellow square moving right, 8 pixels a frame.
std::vector<std::uint8_t> syntheticFrame(int i) {
  std::vector<std::uint8_t> rgba(std::size_t(kWidth * kHeight * 4));
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      std::uint8_t* p = &rgba[std::size_t((y * kWidth + x) * 4)];
      const bool square = x >= 8 + 8 * i && x < 32 + 8 * i && y >= 36 && y < 60;
      p[0] = square ? 230 : std::uint8_t(x * 255 / kWidth);
      p[1] = square ? 220 : std::uint8_t(y * 255 / kHeight);
      p[2] = square ? 40 : 96;
      p[3] = 255;
    }
  return rgba;
}

fs::path freshDir(const char* name) {
  const fs::path dir = fs::path(test::outputPath(name).toStdString());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::size_t filesIn(const fs::path& dir) {
  return std::size_t(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

double psnrAgainstSource(const media::RgbaFrame& decoded, int sourceFrame) {
  const auto source = syntheticFrame(sourceFrame);
  return test::rgbPsnr(decoded.pixels.data(), std::size_t(decoded.width) * 4, source.data(), kWidth * 4, kWidth,
                       kHeight);
}

void writeVideo(const fs::path& path, const std::vector<std::vector<std::uint8_t>>& frames, int width, int height) {
  auto writer = media::VideoWriter::open({path, width, height, kFps});
  QVERIFY2(writer, writer ? "" : writer.error().message.c_str());
  for (const auto& frame : frames) {
    auto added = (*writer)->addFrame(frame.data(), std::size_t(width) * 4);
    QVERIFY2(added, added ? "" : added.error().message.c_str());
  }
  auto done = (*writer)->finish();
  QVERIFY2(done, done ? "" : done.error().message.c_str());
}

}  // namespace

class TestMediaVideo : public QObject {
  Q_OBJECT
 private slots:
  void framesComeBackInOrder_data();
  void framesComeBackInOrder();
  void flatColoursKeepTheirValues_data() { framesComeBackInOrder_data(); }
  void flatColoursKeepTheirValues();
  void refusalsLeaveNoFile();
  void abandonedVideoLeavesNoFile();
  void readerRefusesWhatIsNotAVideo();
};

void TestMediaVideo::framesComeBackInOrder_data() {
  QTest::addColumn<QString>("extension");
  QTest::addColumn<QString>("codec");
  QTest::addColumn<QString>("container");
  QTest::newRow("mp4") << ".mp4"
                       << "h264"
                       << "mov,mp4,m4a,3gp,3g2,mj2";
  QTest::newRow("webm") << ".webm"
                        << "vp9"
                        << "matroska,webm";
}

void TestMediaVideo::framesComeBackInOrder() {
  QFETCH(QString, extension);
  QFETCH(QString, codec);
  QFETCH(QString, container);
  const fs::path dir = freshDir("media-order");
  const fs::path path = dir / ("moving" + extension.toStdString());
  std::vector<std::vector<std::uint8_t>> frames;
  for (int i = 0; i < kFrames; ++i) frames.push_back(syntheticFrame(i));
  writeVideo(path, frames, kWidth, kHeight);
  QCOMPARE(filesIn(dir), std::size_t(1));  // the temporary file is gone

  auto info = media::probeVideo(path);
  QVERIFY2(info, info ? "" : info.error().message.c_str());
  QCOMPARE(info->width, kWidth);
  QCOMPARE(info->height, kHeight);
  QCOMPARE(info->frameCount, std::int64_t(kFrames));
  QVERIFY2(std::abs(info->durationSeconds - double(kFrames) / kFps) <= kTimestampSeconds,
           qPrintable(QString::number(info->durationSeconds)));
  QCOMPARE(info->fps, double(kFps));
  QCOMPARE(QString::fromStdString(info->codec), codec);
  QCOMPARE(QString::fromStdString(info->pixelFormat), QString("yuv420p"));
  QCOMPARE(QString::fromStdString(info->container), container);

  for (int i : {0, 5, kFrames - 1}) {
    auto decoded = media::decodeVideoFrame(path, i);
    QVERIFY2(decoded, decoded ? "" : decoded.error().message.c_str());
    QCOMPARE(decoded->width, kWidth);
    QCOMPARE(decoded->height, kHeight);
    const double own = psnrAgainstSource(*decoded, i);
    qInfo("%s frame %d: %.2f dB", qPrintable(extension), i, own);
    QVERIFY2(own >= kMinRoundTripPsnrDb, qPrintable(QString("frame %1: %2 dB").arg(i).arg(own)));
    // The frame is that frame, not a neighbour: the square has moved 8 pixels.
    if (i > 0) QVERIFY(own > psnrAgainstSource(*decoded, i - 1));
    if (i + 1 < kFrames) QVERIFY(own > psnrAgainstSource(*decoded, i + 1));
  }
  QVERIFY(!media::decodeVideoFrame(path, kFrames));
}

void TestMediaVideo::flatColoursKeepTheirValues() {
  QFETCH(QString, extension);
  // Four quadrants: saturated red, green, blue and a mid grey.
  const std::uint8_t colours[4][3] = {{200, 40, 40}, {40, 200, 40}, {40, 40, 200}, {128, 128, 128}};
  std::vector<std::uint8_t> frame(std::size_t(kWidth * kHeight * 4));
  auto quadrant = [](int x, int y) { return (x >= kWidth / 2 ? 1 : 0) + (y >= kHeight / 2 ? 2 : 0); };
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x)
      for (int c = 0; c < 4; ++c)
        frame[std::size_t((y * kWidth + x) * 4 + c)] = c == 3 ? 255 : colours[quadrant(x, y)][c];
  const fs::path path = freshDir("media-colour") / ("flat" + extension.toStdString());
  writeVideo(path, {frame, frame, frame}, kWidth, kHeight);
  auto decoded = media::decodeVideoFrame(path, 2);
  QVERIFY2(decoded, decoded ? "" : decoded.error().message.c_str());
  constexpr int kMargin = 8;  // away from the quadrants' edges, where 4:2:0 blends them
  int worst = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      if (std::abs(x - kWidth / 2) < kMargin || std::abs(y - kHeight / 2) < kMargin) continue;
      for (int c = 0; c < 3; ++c)
        worst = std::max(worst, std::abs(int(decoded->pixels[std::size_t((y * kWidth + x) * 4 + c)]) -
                                         int(colours[quadrant(x, y)][c])));
    }
  qInfo("%s: worst step %d", qPrintable(extension), worst);
  QVERIFY2(worst <= kFlatColourSteps, qPrintable(QString("a flat colour moved %1 steps").arg(worst)));
}

void TestMediaVideo::refusalsLeaveNoFile() {
  const fs::path dir = freshDir("media-refusals");
  struct Case {
    const char* name;
    media::VideoSpec spec;
    const char* says;
  };
  const Case cases[] = {
      {"odd width", {dir / "a.mp4", 161, 96, 24}, "even"},
      {"too small", {dir / "a.mp4", 8, 8, 24}, "at least 16"},
      {"unknown container", {dir / "a.avi", 160, 96, 24}, ".mp4 (H.264) or .webm (VP9)"},
      {"no frame rate", {dir / "a.webm", 160, 96, 0}, "frame rate"},
      {"missing folder", {dir / "missing" / "a.mp4", 160, 96, 24}, "cannot open"},
  };
  for (const Case& c : cases) {
    auto writer = media::VideoWriter::open(c.spec);
    QVERIFY2(!writer, c.name);
    const std::string& message = writer.error().message;
    QVERIFY2(message.find(c.spec.path.string()) != std::string::npos, message.c_str());
    QVERIFY2(message.find(c.says) != std::string::npos, message.c_str());
  }
  // Opened, but no frame given: finishing refuses, and nothing is left.
  {
    auto writer = media::VideoWriter::open({dir / "empty.mp4", 160, 96, 24});
    QVERIFY(writer);
    auto done = (*writer)->finish();
    QVERIFY(!done);
    QVERIFY(done.error().message.find("needs a frame") != std::string::npos);
  }
  QCOMPARE(filesIn(dir), std::size_t(0));
}

void TestMediaVideo::abandonedVideoLeavesNoFile() {
  const fs::path dir = freshDir("media-abandoned");
  {
    auto writer = media::VideoWriter::open({dir / "cut.webm", kWidth, kHeight, kFps});
    QVERIFY(writer);
    for (int i = 0; i < 3; ++i) QVERIFY((*writer)->addFrame(syntheticFrame(i).data(), kWidth * 4));
    QCOMPARE(filesIn(dir), std::size_t(1));  // the temporary file, under another name
    QVERIFY(!fs::exists(dir / "cut.webm"));
  }  // destroyed unfinished, as when a render fails mid-way
  QCOMPARE(filesIn(dir), std::size_t(0));
}

void TestMediaVideo::readerRefusesWhatIsNotAVideo() {
  const fs::path dir = freshDir("media-reader");
  const fs::path text = dir / "notes.mp4";
  std::ofstream(text) << "not a video\n";
  auto info = media::probeVideo(text);
  QVERIFY(!info);
  QVERIFY2(info.error().message.find(text.string()) != std::string::npos, info.error().message.c_str());
  QVERIFY(!media::decodeVideoFrame(text, 0));
  QVERIFY(!media::probeVideo(dir / "absent.mp4"));

  // A video cut in half: read as far as it goes, or refused; never a crash.
  const fs::path whole = dir / "whole.mp4";
  std::vector<std::vector<std::uint8_t>> frames;
  for (int i = 0; i < kFrames; ++i) frames.push_back(syntheticFrame(i));
  writeVideo(whole, frames, kWidth, kHeight);
  const auto size = fs::file_size(whole);
  fs::copy_file(whole, dir / "half.mp4");
  fs::resize_file(dir / "half.mp4", size / 2);
  auto half = media::probeVideo(dir / "half.mp4");
  if (half) QVERIFY(half->frameCount < kFrames);
}

QTEST_GUILESS_MAIN(TestMediaVideo)
#include "tst_media_video.moc"
