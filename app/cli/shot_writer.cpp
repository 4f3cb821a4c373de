#include "shot_writer.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtGui/QImage>
#include <cstdio>
#include <cstring>
#include <memory>

#include "cli_common.h"
#include "progress_line.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/stage_timings.h"
#include "riglens/media/video_writer.h"
#include "riglens/render/device/png_image.h"
#include "riglens/render/rig/rig_renderer.h"

namespace riglens::cli {

namespace {

// The first frame's share of the start-up (--timings).
void recordFirstFrameTimings(const render::OffscreenCanvas& canvas, const render::FrameDrawable& drawable) {
  const auto times = canvas.lastFrameTimes();
  auto& timings = core::StageTimings::instance();
  if (const auto* rig = dynamic_cast<const render::RigRenderer*>(&drawable)) {
    const auto prepare = rig->modelPrepareTimes();
    timings.add("first frame: upload (recorded)", prepare.uploadMs);
    timings.add("first frame: pipelines", prepare.pipelinesMs);
    timings.add("first frame: rest of prepare",
                std::max(0.0, times.prepareMs - prepare.uploadMs - prepare.pipelinesMs));
  } else {
    timings.add("first frame: prepare", times.prepareMs);
  }
  timings.add("first frame: draw, GPU done", times.gpuMs);
  timings.add("first frame: readback copy", times.readbackMs);
}

// Encoded in memory (render/device/png_image.h), then written whole or not
// at all (core/base/file_io.h).
int writePng(const QImage& image, const QString& file) {
  const auto written = core::StageTimings::instance().time("PNG encode and write", [&]() -> core::Expected<void> {
    const auto png = render::encodePng(image);
    if (!png)
      return core::makeError(png.error().code,
                             file.toStdString() + ": cannot encode the PNG (" + png.error().message + ")");
    return core::writeFileAtomically(QFile::encodeName(file).toStdString(), png.value());  // names the file
  });
  if (!written) return inputError(written.error().message);
  std::printf("%s\n", qPrintable(QDir(file).absolutePath()));
  return kExitOk;
}

// The PNG a shot goes to, if any: its --out-pattern name (a turntable's
// shots, a clip's frames); --out for a single shot, or a video's first frame.
QString pngFor(const Shots& shots, int shot) {
  if (!shots.pattern.isEmpty() && (shots.turntable || shots.clip || shots.sweep))
    return QString(shots.pattern).replace("{i}", QString::number(shot));
  const bool sequence = shots.turntable || shots.clip || shots.sweep;
  if (!shots.out.isEmpty() && shot == 0 && (!sequence || !shots.video.isEmpty())) return shots.out;
  return {};
}

}  // namespace

float shotYaw(const Shots& shots, float yaw, int shot) {
  return shots.turntable ? yaw + 360.0f * float(shot) / float(shots.count) : yaw;
}

double shotTimeMs(const Shots& shots, double startMs, int shot) {
  return shots.clip ? startMs + 1000.0 * double(shot) / double(shots.fps) : startMs;
}

int writeShots(render::OffscreenCanvas& canvas, render::FrameDrawable& drawable, QSize size, const Shots& shots,
               const std::function<render::FrameState(int)>& stateAt, const std::function<void()>& afterFirst) {
  std::unique_ptr<media::VideoWriter> video;
  if (!shots.video.isEmpty()) {
    auto opened = media::VideoWriter::open({shots.video.toStdString(), size.width(), size.height(), shots.fps});
    if (!opened) return inputError(opened.error().message);
    video = std::move(opened).value();
  }
  ProgressLine progress(shots.count, "frame");
  QImage stripImage;
  if (!shots.strip.isEmpty()) {
    stripImage = QImage(size.width() * shots.count, size.height(), QImage::Format_RGBA8888);
    stripImage.fill(Qt::transparent);
  }
  for (int i = 0; i < shots.count; ++i) {
    auto image = canvas.render(drawable, stateAt(i));
    if (!image) return inputError(image.error().message);
    if (i == 0 && afterFirst) afterFirst();
    if (i == 0) recordFirstFrameTimings(canvas, drawable);
    if (!stripImage.isNull())
      for (int y = 0; y < size.height(); ++y)
        std::memcpy(stripImage.scanLine(y) + 4 * size.width() * i, image->constScanLine(y),
                    4 * std::size_t(size.width()));
    if (video) {
      // The writer takes RGBA rows; the canvas reads back RGBA8888 today, any other format is converted.
      const bool rgba =
          image->format() == QImage::Format_RGBA8888 || image->format() == QImage::Format_RGBA8888_Premultiplied;
      const QImage frame = rgba ? *image : image->convertToFormat(QImage::Format_RGBA8888);
      auto added = core::StageTimings::instance().time(
          "video encode", [&] { return video->addFrame(frame.constBits(), std::size_t(frame.bytesPerLine())); });
      if (!added) return inputError(added.error().message);
      progress.update(i + 1);
    }
    if (const QString png = pngFor(shots, i); !png.isEmpty())
      if (int written = writePng(*image, png); written != kExitOk) return written;
  }
  if (!stripImage.isNull())
    if (int written = writePng(stripImage, shots.strip); written != kExitOk) return written;
  if (video) {
    // The encoder's last frames come out of its look-ahead here.
    if (auto done = core::StageTimings::instance().time("video encode", [&] { return video->finish(); }); !done)
      return inputError(done.error().message);
    std::printf("%s\n", qPrintable(QDir(shots.video).absolutePath()));
  }
  return kExitOk;
}

}  // namespace riglens::cli
