#include "splats/splat_composite.h"

#include "device/compute_buffers.h"
#include "device/gpu_layouts.h"
#include "splats/splat_overlay_pipeline.h"

namespace riglens::render {

bool SplatComposite::resize(QSize size) {
  if (size == m_size && m_image) return true;
  m_pipeline.reset();
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
  const gpu::CompositeView view{
      {float(m_size.width()), float(m_size.height()), zeroToOne ? 1.0f : 0.5f, zeroToOne ? 0.0f : 0.5f}};
  batch->updateDynamicBuffer(m_view.get(), 0, sizeof(view), &view);
}

void SplatComposite::upload(QRhiResourceUpdateBatch* batch, std::span<const std::uint32_t> pixels) {
  batch->uploadStaticBuffer(m_image.get(), 0, int(pixels.size_bytes()), pixels.data());
}

void SplatComposite::record(QRhiCommandBuffer* cb, const QRhiViewport& viewport, const QRhiScissor& scissor) {
  cb->setGraphicsPipeline(m_pipeline.get());
  cb->setViewport(viewport);
  cb->setScissor(scissor);
  cb->setShaderResources(m_srb.get());
  cb->draw(3);
}

}  // namespace riglens::render
