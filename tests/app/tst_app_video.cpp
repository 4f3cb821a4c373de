// `riglens-cli render --video`: a turntable, a clip and a character's
// expression sweep encoded as H.264 and VP9, read back with FFmpeg's
// demuxers and decoders (frame count, duration, size, frame rate) and
// compared frame by frame with the PNGs `render` writes on its own;
// progress on stderr; the refusals.
#include <QtCore/QDir>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtGui/QImage>
#include <QtTest/QTest>

#include "image_psnr.h"
#include "riglens/media/video_reader.h"
#include "run_program.h"
#include "test_paths.h"

using riglens::test::runProgram;
namespace media = riglens::media;

namespace {

const QString kCli = QStringLiteral(RIGLENS_CLI_EXE);

// A decoded frame of the walker against the PNG of the same view. Measured
// 35.1-38.5 dB (H.264, CRF 18) and 32.4-39.6 dB (VP9, CRF 30) at 160x120: at
// that size the voxels' one-pixel edges and the grid's lines are where 4:2:0
// and the codecs lose most. The same frame against the next shot's PNG (45
// degrees on) measures 14.6-15.2 dB, so 30 dB tells them apart with room.
constexpr double kMinFramePsnrDb = 30.0;
// WebM stores times in whole milliseconds (the last frame's start and
// length each rounded); MP4 in the frame rate's ticks.
constexpr double kTimestampSeconds = 0.0015;

double psnr(const media::RgbaFrame& frame, const QImage& png) {
  const QImage rgba = png.convertToFormat(QImage::Format_RGBA8888);
  return riglens::test::rgbPsnr(frame.pixels.data(), std::size_t(frame.width) * 4, rgba.constBits(),
                                std::size_t(rgba.bytesPerLine()), frame.width, frame.height);
}

}  // namespace

class TestAppVideo : public QObject {
  Q_OBJECT

  QTemporaryDir m_dir;
  QString m_walker;

 private slots:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    const auto made = runProgram(kCli, {"samples", "--out", m_dir.path(), "--name", "walker-cubes"});
    QVERIFY2(made.exitCode == 0, qPrintable(made.err));
    m_walker = m_dir.filePath("walker-cubes");
  }

  void turntableFramesAreTheStills_data() {
    QTest::addColumn<QString>("extension");
    QTest::addColumn<QString>("codec");
    QTest::newRow("mp4") << ".mp4"
                         << "h264";
    QTest::newRow("webm") << ".webm"
                          << "vp9";
  }

  // Shot k of an 8-shot turntable is the still at yaw 35 + 45 k.
  void turntableFramesAreTheStills() {
    QFETCH(QString, extension);
    QFETCH(QString, codec);
    const QString video = m_dir.filePath("turn" + extension), poster = m_dir.filePath("poster" + extension + ".png");
    const auto run = runProgram(kCli, {"render", m_walker, "--turntable", "8", "--video", video, "--fps", "10",
                                       "--size", "160x120", "--out", poster});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.err.contains("frame 8/8"), qPrintable(run.err));  // progress, on stderr
    QVERIFY2(run.out.contains(QDir(video).absolutePath()), qPrintable(run.out));
    auto info = media::probeVideo(video.toStdString());
    QVERIFY2(info, info ? "" : info.error().message.c_str());
    QCOMPARE(info->frameCount, std::int64_t(8));
    QCOMPARE(info->width, 160);
    QCOMPARE(info->height, 120);
    QCOMPARE(info->fps, 10.0);
    QCOMPARE(QString::fromStdString(info->codec), codec);
    QCOMPARE(QString::fromStdString(info->pixelFormat), QString("yuv420p"));
    QVERIFY2(std::abs(info->durationSeconds - 0.8) <= kTimestampSeconds,
             qPrintable(QString::number(info->durationSeconds)));
    for (int shot : {0, 3}) {
      const QString still = m_dir.filePath(QString("still%1.png").arg(shot));
      const auto one = runProgram(
          kCli, {"render", m_walker, "--yaw", QString::number(35 + 45 * shot), "--size", "160x120", "--out", still});
      QVERIFY2(one.exitCode == 0, qPrintable(one.err));
      auto frame = media::decodeVideoFrame(video.toStdString(), shot);
      QVERIFY2(frame, frame ? "" : frame.error().message.c_str());
      const double same = psnr(*frame, QImage(still));
      qInfo("%s shot %d: %.2f dB", qPrintable(extension), shot, same);
      QVERIFY2(same >= kMinFramePsnrDb, qPrintable(QString("shot %1: %2 dB").arg(shot).arg(same)));
      const auto next = runProgram(kCli, {"render", m_walker, "--yaw", QString::number(35 + 45 * (shot + 1)), "--size",
                                          "160x120", "--out", still + ".next.png"});
      QVERIFY(next.exitCode == 0);
      const double neighbour = psnr(*frame, QImage(still + ".next.png"));
      qInfo("%s shot %d against shot %d: %.2f dB", qPrintable(extension), shot, shot + 1, neighbour);
      QVERIFY(neighbour < kMinFramePsnrDb);
      // For a person to look at: the decoded frame beside the still.
      QImage(frame->pixels.data(), frame->width, frame->height, QImage::Format_RGBA8888)
          .save(riglens::test::outputPath(QString("video-%1-shot%2.png").arg(extension.mid(1)).arg(shot)));
    }
    // --out with --video: the first frame as a PNG, the poster.
    QCOMPARE(QImage(poster), QImage(m_dir.filePath("still0.png")));
  }

  // --play walk: the 1 s clip at 12 fps, each frame also to --out-pattern.
  void clipPlaysAtTheFrameRate() {
    const QString video = m_dir.filePath("walk.mp4"), pattern = m_dir.filePath("walk{i}.png");
    const auto run = runProgram(kCli, {"render", m_walker, "--play", "walk", "--video", video, "--fps", "12", "--size",
                                       "160x120", "--out-pattern", pattern});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    auto info = media::probeVideo(video.toStdString());
    QVERIFY2(info, info ? "" : info.error().message.c_str());
    QCOMPARE(info->frameCount, std::int64_t(12));
    QVERIFY2(std::abs(info->durationSeconds - 1.0) <= kTimestampSeconds,
             qPrintable(QString::number(info->durationSeconds)));
    const QImage first(m_dir.filePath("walk0.png")), quarter(m_dir.filePath("walk3.png"));
    QVERIFY(!first.isNull() && !quarter.isNull() && !QFile::exists(m_dir.filePath("walk12.png")));
    QVERIFY2(first != quarter, "the clip does not move");
    for (int frame : {0, 3, 11}) {
      auto decoded = media::decodeVideoFrame(video.toStdString(), frame);
      QVERIFY2(decoded, decoded ? "" : decoded.error().message.c_str());
      const double same = psnr(*decoded, QImage(m_dir.filePath(QString("walk%1.png").arg(frame))));
      qInfo("clip frame %d: %.2f dB", frame, same);
      QVERIFY2(same >= kMinFramePsnrDb, qPrintable(QString("frame %1: %2 dB").arg(frame).arg(same)));
    }
  }

  // --sweep of a GNM face: each of its expressions (inspect's exprDim) in
  // turn; at 4 fps a channel takes two frames, rest then peak, and a peak is
  // the still rendered with that one control at 1.
  void sweepPeaksAreTheStills() {
    const auto made = runProgram(kCli, {"character", "make-sample", "--out", m_dir.filePath("chars")});
    QVERIFY2(made.exitCode == 0, qPrintable(made.err));
    const QString face = m_dir.filePath("chars/sample-face.aosrig");
    const auto inspect = runProgram(kCli, {"inspect", face, "--json"});
    const QJsonObject headExt = QJsonDocument::fromJson(inspect.out.toUtf8()).object().value("headExt").toObject();
    const int expressions = headExt.value("exprDim").toInt(), dim = headExt.value("dim").toInt();
    QVERIFY2(expressions > 0 && dim >= expressions, qPrintable(inspect.out));
    const QString video = m_dir.filePath("sweep.mp4"), pattern = m_dir.filePath("sweep{i}.png");
    const auto run = runProgram(kCli, {"render", face, "--sweep", "--video", video, "--fps", "4", "--size", "160x120",
                                       "--out-pattern", pattern});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    auto info = media::probeVideo(video.toStdString());
    QVERIFY2(info, info ? "" : info.error().message.c_str());
    QCOMPARE(info->frameCount, std::int64_t(2 * expressions));
    QVERIFY(std::abs(info->durationSeconds - expressions / 2.0) <= kTimestampSeconds);
    const auto shot = [&](int i) { return QImage(m_dir.filePath(QString("sweep%1.png").arg(i))); };
    QCOMPARE(shot(0), shot(2));  // every channel starts from rest
    // The first lower-face expression: after both eyes' regions.
    const QJsonArray regions = headExt.value("regions").toArray();
    const int channel = regions[0].toObject().value("count").toInt() + regions[1].toObject().value("count").toInt();
    QJsonArray controls;
    for (int i = 0; i < dim; ++i) controls.append(i == channel ? 1.0 : 0.0);
    QFile file(m_dir.filePath("peak.json"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(controls).toJson());
    file.close();
    const QString still = m_dir.filePath("peak.png");
    const auto one =
        runProgram(kCli, {"render", face, "--controls", file.fileName(), "--size", "160x120", "--out", still});
    QVERIFY2(one.exitCode == 0, qPrintable(one.err));
    const int peak = 2 * channel + 1;
    QCOMPARE(shot(peak), QImage(still));
    QVERIFY2(shot(peak) != shot(0), "the expression does not move the face");
    auto decoded = media::decodeVideoFrame(video.toStdString(), peak);
    QVERIFY2(decoded, decoded ? "" : decoded.error().message.c_str());
    QVERIFY(psnr(*decoded, QImage(still)) >= kMinFramePsnrDb);
  }

  void refusals_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("says");
    QTest::newRow("no shots") << QStringList{"--video", "v.mp4"}
                              << "--video needs --turntable N, --play CLIP or --sweep";
    QTest::newRow("sweep of a run") << QStringList{"--sweep", "--video", "v.mp4"} << "sweeps a character's expressions";
    QTest::newRow("container") << QStringList{"--turntable", "4", "--video", "v.avi"} << ".mp4 (H.264) or .webm (VP9)";
    QTest::newRow("odd size") << QStringList{"--turntable", "4", "--video", "v.mp4", "--size", "161x120"}
                              << "even width and height";
    QTest::newRow("frame rate") << QStringList{"--turntable", "4", "--video", "v.mp4", "--fps", "0"} << "--fps needs";
    QTest::newRow("unknown clip") << QStringList{"--play", "dance", "--video", "v.mp4"} << "dance";
    QTest::newRow("pattern without {i}") << QStringList{"--play", "walk", "--video", "v.mp4", "--out-pattern", "f.png"}
                                         << "{i}";
  }

  // Each refused with its reason, and no video left behind.
  void refusals() {
    QFETCH(QStringList, args);
    QFETCH(QString, says);
    QTemporaryDir out;
    QStringList full{"render", m_walker, "--size", "160x120"};
    for (const QString& a : args) full << (a.startsWith("v.") || a == "f.png" ? out.filePath(a) : a);
    const auto run = runProgram(kCli, full);
    QVERIFY2(run.exitCode != 0, qPrintable(run.out));
    QVERIFY2(run.err.contains(says), qPrintable(run.err));
    QCOMPARE(QDir(out.path()).entryList(QDir::Files | QDir::Hidden).size(), 0);
  }
};

QTEST_GUILESS_MAIN(TestAppVideo)
#include "tst_app_video.moc"
