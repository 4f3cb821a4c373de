#include "splats/splat_composite.h"

#include <cstddef>

#include "device/compute_buffers.h"
#include "device/gpu_layouts.h"
#include "splats/splat_overlay_pipeline.h"

namespace riglens::render {

bool SplatComposite::resize(QSize size) {
  if (size == m_size && m_image) return true;
  m_pipeline.reset();
  m_targetId = 0;                            // writeTarget's bindings name the old image
  if (m_drawn) m_drawn = core::PixelRect{};  // the new buffer holds nothing until the next upload
  m_image = newStorageBuffer(m_rhi, std::size_t(size.width()) * std::size_t(size.height()) * 8);
  m_view.reset(m_rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, sizeof(gpu::CompositeView)));
  if (!m_image || !m_view->create()) return fail("cannot allocate the splat image");
  using B = QRhiShaderResourceBinding;
  const auto gs = B::VertexStage | B::FragmentStage;
  m_srb = newBindings(m_rhi, {B::uniformBuffer(gpu::kCompositeViewBinding, gs, m_view.get()),
                              B::bufferLoad(gpu::kCompositeImage, B::FragmentStage, m_image.get())});
  if (!m_srb) return fail("cannot create the splat composite bindings");
  m_size = size;
  return true;
}

bool SplatComposite::ensurePipeline(QRhiRenderPassDescriptor* rp, int sampleCount) {
  if (m_pipeline && rp->serializedFormat() == m_rpFormat && sampleCount == m_samples) return true;
  m_pipeline =
      newSplatOverlayPipeline(m_rhi, "splat_composite.vert", "splat_composite.frag", m_srb.get(), rp, sampleCount);
  if (!m_pipeline) return fail("cannot create the splat composite pipeline");
  m_rpFormat = rp->serializedFormat();
  m_samples = sampleCount;
  return true;
}

void SplatComposite::setView(QRhiResourceUpdateBatch* batch) {
  // Window depth from NDC depth: [0, 1] already where clip depth is, else [-1, 1].
  const bool zeroToOne = m_rhi->isClipDepthZeroToOne();
  const core::PixelRect drawn = m_drawn.value_or(core::PixelRect{0, 0, m_size.width(), m_size.height()});
  const gpu::CompositeView view{
      {float(m_size.width()), float(m_size.height()), zeroToOne ? 1.0f : 0.5f, zeroToOne ? 0.0f : 0.5f},
      {float(drawn.x0), float(drawn.y0), float(drawn.x1), float(drawn.y1)},
      {}};
  // Not the background: writeTarget() sets it for the frame it writes.
  batch->updateDynamicBuffer(m_view.get(), 0, offsetof(gpu::CompositeView, background), &view);
}

void SplatComposite::upload(QRhiResourceUpdateBatch* batch, std::span<const std::uint32_t> pixels,
                            const core::PixelRect& drawn) {
  const std::size_t rowWords = std::size_t(m_size.width()) * 2;
  const std::size_t first = std::size_t(drawn.y0) * rowWords, words = std::size_t(drawn.height()) * rowWords;
  // An image not of this size (resize() first) goes nowhere, and nothing is drawn from the buffer.
  const bool fits = !drawn.empty() && drawn.x1 <= m_size.width() && first + words <= pixels.size();
  m_drawn = fits ? drawn : core::PixelRect{};
  if (fits) batch->uploadStaticBuffer(m_image.get(), quint32(first * 4), quint32(words * 4), pixels.data() + first);
}

void SplatComposite::record(QRhiCommandBuffer* cb, const QRhiViewport& viewport, const QRhiScissor& scissor) {
  if (m_drawn && m_drawn->empty()) return;  // no splat in view
  cb->setGraphicsPipeline(m_pipeline.get());
  cb->setViewport(viewport);
  cb->setScissor(scissor);
  cb->setShaderResources(m_srb.get());
  cb->draw(6);
}

bool SplatComposite::writeTarget(QRhiCommandBuffer* cb, QRhiTexture* target, const glm::vec4& background) {
  // By id, not address: a canvas made after another is gone may get its address.
  if (target->globalResourceId() != m_targetId || !m_targetPipeline) {
    using B = QRhiShaderResourceBinding;
    const auto cs = B::ComputeStage;
    m_targetPipeline.reset();
    m_targetSrb = newBindings(m_rhi, {B::uniformBuffer(gpu::kCompositeViewBinding, cs, m_view.get()),
                                      B::bufferLoad(gpu::kCompositeImage, cs, m_image.get()),
                                      B::imageStore(gpu::kCompositeTarget, cs, target, 0)});
    if (m_targetSrb) m_targetPipeline = newComputePipeline(m_rhi, "splat_to_target.comp", m_targetSrb.get());
    if (!m_targetPipeline) return fail("cannot create the pipeline that writes splats into the target");
    m_targetId = target->globalResourceId();
  }
  QRhiResourceUpdateBatch* batch = m_rhi->nextResourceUpdateBatch();
  batch->updateDynamicBuffer(m_view.get(), offsetof(gpu::CompositeView, background), sizeof(background), &background);
  dispatchComputePass(cb, batch, m_targetPipeline.get(), m_targetSrb.get(),
                      gpu::groupsFor(std::size_t(m_size.width()), gpu::kCompositeGroupSize),
                      gpu::groupsFor(std::size_t(m_size.height()), gpu::kCompositeGroupSize));
  return true;
}

}  // namespace riglens::render
