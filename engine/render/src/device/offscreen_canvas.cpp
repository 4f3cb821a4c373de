#include "riglens/render/device/offscreen_canvas.h"

#include <QtGui/private/qrhi_p.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace riglens::render {

using core::ErrorCode;
using core::makeError;

struct OffscreenCanvas::Impl {
  std::unique_ptr<QRhiTexture> resolve;         // what is read back
  std::unique_ptr<QRhiRenderBuffer> msaaColor;  // when samples > 1
  std::unique_ptr<QRhiRenderBuffer> depth;
  std::unique_ptr<QRhiTextureRenderTarget> target;
  std::unique_ptr<QRhiRenderPassDescriptor> pass;

  // For drawables that draw in several passes (FrameDrawable::passesWanted):
  // the first clears, the others load what the one before stored, the last
  // resolves. Qt 6.4's Vulkan backend stores a multisampled colour
  // attachment only when it does not resolve it, and depth only to a texture
  // (not a renderbuffer), hence attachments of their own, made when first
  // needed. Their render passes differ from `pass` only in load and store
  // operations and in resolving, which Vulkan ignores for compatibility in a
  // single subpass, so the drawable's pipelines serve every pass.
  struct Passes {
    std::unique_ptr<QRhiTexture> msaaColor;  // when samples > 1
    std::unique_ptr<QRhiTexture> depth;
    std::unique_ptr<QRhiTextureRenderTarget> first, middle, last;
    std::vector<std::unique_ptr<QRhiRenderPassDescriptor>> descriptors;
  };
  std::unique_ptr<Passes> passes;
  bool createPasses(QRhi* rhi, QSize size, int samples);
};

bool OffscreenCanvas::Impl::createPasses(QRhi* rhi, QSize size, int samples) {
  auto p = std::make_unique<Passes>();
  const QRhiTexture::Format depthFormat =
      rhi->isTextureFormatSupported(QRhiTexture::D24S8) ? QRhiTexture::D24S8 : QRhiTexture::D32F;
  p->depth.reset(rhi->newTexture(depthFormat, size, samples, QRhiTexture::RenderTarget));
  if (!p->depth->create()) return false;
  if (samples > 1) {
    p->msaaColor.reset(rhi->newTexture(QRhiTexture::RGBA8, size, samples, QRhiTexture::RenderTarget));
    if (!p->msaaColor->create()) return false;
  }
  const auto makeTarget = [&](bool load, bool resolveHere) -> std::unique_ptr<QRhiTextureRenderTarget> {
    QRhiColorAttachment color(p->msaaColor ? p->msaaColor.get() : resolve.get());
    if (p->msaaColor && resolveHere) color.setResolveTexture(resolve.get());
    QRhiTextureRenderTargetDescription desc(color);
    desc.setDepthTexture(p->depth.get());
    const auto flags =
        load ? QRhiTextureRenderTarget::PreserveColorContents | QRhiTextureRenderTarget::PreserveDepthStencilContents
             : QRhiTextureRenderTarget::Flags();
    std::unique_ptr<QRhiTextureRenderTarget> made(rhi->newTextureRenderTarget(desc, flags));
    p->descriptors.emplace_back(made->newCompatibleRenderPassDescriptor());
    made->setRenderPassDescriptor(p->descriptors.back().get());
    return made->create() ? std::move(made) : nullptr;
  };
  p->first = makeTarget(false, false);
  p->middle = makeTarget(true, false);
  p->last = makeTarget(true, true);
  if (!p->first || !p->middle || !p->last) return false;
  passes = std::move(p);
  return true;
}

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
  // Load/store where compute can write it (FrameDrawable::writeTarget).
  canvas->m_writesWithoutPass = rhi->isFeatureSupported(QRhi::Compute);
  const QRhiTexture::Flags resolveFlags =
      QRhiTexture::RenderTarget | QRhiTexture::UsedAsTransferSource |
      (canvas->m_writesWithoutPass ? QRhiTexture::UsedWithLoadStore : QRhiTexture::Flags());
  d.resolve.reset(rhi->newTexture(QRhiTexture::RGBA8, size, 1, resolveFlags));
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
  QRhiReadbackResult readback;
  QRhiResourceUpdateBatch* batch = nullptr;
  if (renderer.uploading()) out = nullptr;  // not the picture yet: nothing to read back
  if (out) {
    batch = rhi->nextResourceUpdateBatch();
    batch->readBackTexture({m_impl->resolve.get()}, &readback);
  }
  const bool drawn = draw(cb, renderer, state, batch);
  timer.mark(cb, "draw");
  timer.endFrame(GpuTimer::FrameEnd::Waited);
  if (rhi->endOffscreenFrame() != QRhi::FrameOpSuccess)
    return makeError(ErrorCode::Gpu, "the offscreen GPU frame failed");
  if (!drawn) {
    const std::string why = renderer.failure();
    return makeError(ErrorCode::Gpu, why.empty() ? "the renderer could not write the frame" : why);
  }
  const auto finished = Clock::now();
  if (out) {
    QImage image(reinterpret_cast<const uchar*>(readback.data.constData()), readback.pixelSize.width(),
                 readback.pixelSize.height(), QImage::Format_RGBA8888);
    *out = rhi->isYUpInFramebuffer() ? image.mirrored() : image.copy();
  }
  m_times = {ms(prepared - started), ms(finished - prepared), ms(Clock::now() - finished)};
  return {};
}

bool OffscreenCanvas::draw(QRhiCommandBuffer* cb, FrameDrawable& renderer, const FrameState& state,
                           QRhiResourceUpdateBatch* batch) {
  m_lastHadPass = !(m_writesWithoutPass && renderer.writesTarget());
  if (!m_lastHadPass) {
    const bool written = renderer.writeTarget(cb, m_impl->resolve.get(), state.background);
    if (batch) cb->resourceUpdate(batch);
    return written;
  }
  const QColor clear = QColor::fromRgbF(state.background.r, state.background.g, state.background.b, state.background.a);
  int passes = std::max(1, renderer.passesWanted());
  QRhi* rhi = m_device.rhi();
  if (passes > 1 && !m_impl->passes && !m_impl->createPasses(rhi, m_size, m_samples)) passes = 1;
  const QRect all(QPoint(0, 0), m_size);
  if (passes == 1) {
    cb->beginPass(m_impl->target.get(), clear, {1.0f, 0});
    renderer.record(cb, all, m_size);
    cb->endPass(batch);
    return true;
  }
  for (int pass = 0; pass < passes; ++pass) {
    const auto& p = *m_impl->passes;
    cb->beginPass(pass == 0 ? p.first.get() : pass + 1 < passes ? p.middle.get() : p.last.get(), clear, {1.0f, 0});
    renderer.recordPass(cb, all, m_size, pass);
    cb->endPass(pass + 1 < passes ? nullptr : batch);
  }
  return true;
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
  const std::size_t colour = m_samples > 1 ? pixels * 4 * m_samples : 0, depth = pixels * 4 * m_samples;
  return pixels * 4 /* resolve */ + (colour + depth) * (m_impl->passes ? 2 : 1);
}

}  // namespace riglens::render
