#include "riglens/render/device/offscreen_canvas.h"

#include <QtGui/private/qrhi_p.h>

#include <chrono>

namespace riglens::render {

using core::ErrorCode;
using core::makeError;

struct OffscreenCanvas::Impl {
  std::unique_ptr<QRhiTexture> resolve;         // what is read back
  std::unique_ptr<QRhiRenderBuffer> msaaColor;  // when samples > 1
  std::unique_ptr<QRhiRenderBuffer> depth;
  std::unique_ptr<QRhiTextureRenderTarget> target;
  std::unique_ptr<QRhiRenderPassDescriptor> pass;
};

OffscreenCanvas::OffscreenCanvas(RhiDevice& device, QSize size, int samples)
    : m_device(device), m_size(size), m_samples(samples), m_impl(std::make_unique<Impl>()) {}

OffscreenCanvas::~OffscreenCanvas() = default;

core::Expected<std::unique_ptr<OffscreenCanvas>> OffscreenCanvas::create(RhiDevice& device, QSize size, int samples) {
  QRhi* rhi = device.rhi();
  if (size.isEmpty() || size.width() > 16384 || size.height() > 16384)
    return makeError(ErrorCode::Usage, "canvas size must be between 1x1 and 16384x16384");
  if (samples <= 0) samples = rhi->supportedSampleCounts().contains(4) ? 4 : 1;
  std::unique_ptr<OffscreenCanvas> canvas(new OffscreenCanvas(device, size, samples));
  Impl& d = *canvas->m_impl;
  d.resolve.reset(
      rhi->newTexture(QRhiTexture::RGBA8, size, 1, QRhiTexture::RenderTarget | QRhiTexture::UsedAsTransferSource));
  d.depth.reset(rhi->newRenderBuffer(QRhiRenderBuffer::DepthStencil, size, samples));
  if (!d.resolve->create() || !d.depth->create())
    return makeError(ErrorCode::Gpu, "cannot create a " + std::to_string(size.width()) + "x" +
                                         std::to_string(size.height()) + " target");
  QRhiColorAttachment color;
  if (samples > 1) {
    d.msaaColor.reset(rhi->newRenderBuffer(QRhiRenderBuffer::Color, size, samples, {}, QRhiTexture::RGBA8));
    if (!d.msaaColor->create()) return makeError(ErrorCode::Gpu, "cannot create the multisampled colour buffer");
    color.setRenderBuffer(d.msaaColor.get());
    color.setResolveTexture(d.resolve.get());
  } else {
    color.setTexture(d.resolve.get());
  }
  QRhiTextureRenderTargetDescription desc(color);
  desc.setDepthStencilBuffer(d.depth.get());
  d.target.reset(rhi->newTextureRenderTarget(desc));
  d.pass.reset(d.target->newCompatibleRenderPassDescriptor());
  d.target->setRenderPassDescriptor(d.pass.get());
  if (!d.target->create()) return makeError(ErrorCode::Gpu, "cannot create the offscreen render target");
  return canvas;
}

core::Expected<void> OffscreenCanvas::frame(FrameDrawable& renderer, const FrameState& state, QImage* out) {
  QRhi* rhi = m_device.rhi();
  QRhiCommandBuffer* cb = nullptr;
  if (rhi->beginOffscreenFrame(&cb) != QRhi::FrameOpSuccess)
    return makeError(ErrorCode::Gpu, "cannot begin an offscreen GPU frame");
  GpuTimer& timer = m_device.timer();
  timer.beginFrame(cb);
  using Clock = std::chrono::steady_clock;
  const auto ms = [](Clock::duration t) { return std::chrono::duration<double, std::milli>(t).count(); };
  const auto started = Clock::now();
  if (!renderer.prepare(cb, m_impl->pass.get(), m_samples, m_size, state)) {
    timer.endFrame(GpuTimer::FrameEnd::Waited);
    rhi->endOffscreenFrame();
    const std::string why = renderer.failure();
    return makeError(ErrorCode::Gpu,
                     why.empty() ? "the renderer could not prepare its GPU resources (see the log)" : why);
  }
  const auto prepared = Clock::now();
  const QColor clear = QColor::fromRgbF(state.background.r, state.background.g, state.background.b, state.background.a);
  cb->beginPass(m_impl->target.get(), clear, {1.0f, 0});
  renderer.record(cb, QRect(QPoint(0, 0), m_size), m_size);
  QRhiReadbackResult readback;
  QRhiResourceUpdateBatch* batch = nullptr;
  if (renderer.uploading()) out = nullptr;  // not the picture yet: nothing to read back
  if (out) {
    batch = rhi->nextResourceUpdateBatch();
    batch->readBackTexture({m_impl->resolve.get()}, &readback);
  }
  cb->endPass(batch);
  timer.mark(cb, "draw");
  timer.endFrame(GpuTimer::FrameEnd::Waited);
  if (rhi->endOffscreenFrame() != QRhi::FrameOpSuccess)
    return makeError(ErrorCode::Gpu, "the offscreen GPU frame failed");
  const auto drawn = Clock::now();
  if (out) {
    QImage image(reinterpret_cast<const uchar*>(readback.data.constData()), readback.pixelSize.width(),
                 readback.pixelSize.height(), QImage::Format_RGBA8888);
    *out = rhi->isYUpInFramebuffer() ? image.mirrored() : image.copy();
  }
  m_times = {ms(prepared - started), ms(drawn - prepared), ms(Clock::now() - drawn)};
  return {};
}

// A drawable whose frame was not final (the compute tiles outgrew their
// room) is drawn again, a few times at most, so one-shot renders are right;
// one still uploading (a large model, part by part) is drawn until it is in.
// lastFrameTimes() sums the frames.
constexpr int kMaxRedraws = 3;

core::Expected<void> OffscreenCanvas::frames(FrameDrawable& renderer, const FrameState& state, QImage* out) {
  FrameTimes total;
  for (int redraws = 0;;) {
    if (auto ok = frame(renderer, state, out); !ok) return ok.error();
    // More of the model to come: the copies Qt kept of this frame's part
    // go now, not after the last part (rhi_device.h).
    if (renderer.uploading()) {
      m_device.releaseUploadCopies();
      if (m_betweenUploadFrames) m_betweenUploadFrames();
    }
    total.prepareMs += m_times.prepareMs;
    total.gpuMs += m_times.gpuMs;
    total.readbackMs += m_times.readbackMs;
    if (!renderer.uploading() && !(renderer.wantsAnotherFrame() && ++redraws < kMaxRedraws)) break;
  }
  m_times = total;
  return {};
}

core::Expected<QImage> OffscreenCanvas::render(FrameDrawable& renderer, const FrameState& state) {
  QImage image;
  if (auto ok = frames(renderer, state, &image); !ok) return ok.error();
  return image;
}

core::Expected<void> OffscreenCanvas::renderWithoutReadback(FrameDrawable& renderer, const FrameState& state) {
  return frames(renderer, state, nullptr);
}

std::size_t OffscreenCanvas::textureBytes() const {
  const std::size_t pixels = static_cast<std::size_t>(m_size.width()) * m_size.height();
  return pixels * 4 /* resolve */ + (m_samples > 1 ? pixels * 4 * m_samples : 0) +
         pixels * 4 * m_samples /* depth-stencil */;
}

}  // namespace riglens::render
