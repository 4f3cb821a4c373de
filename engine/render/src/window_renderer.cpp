#include "riglens/render/window_renderer.h"

#include <QtGui/private/qrhi_p.h>

namespace riglens::render {

WindowRenderer::WindowRenderer(QRhi* rhi)
    : m_device(RhiDevice::borrow(rhi)), m_renderer(std::make_unique<RigRenderer>(*m_device)) {}

WindowRenderer::~WindowRenderer() = default;

void WindowRenderer::setModel(std::shared_ptr<const core::LoadedRun> run) { m_renderer->setModel(std::move(run)); }

bool WindowRenderer::prepare(QRhiSwapChain* swapchain, const FrameState& state, QRect viewport) {
  m_viewport = viewport;
  QRhiRenderTarget* rt = swapchain->currentFrameRenderTarget();
  m_prepared = m_renderer->prepare(swapchain->currentFrameCommandBuffer(), rt->renderPassDescriptor(), rt->sampleCount(),
                                   rt->pixelSize(), state);
  return m_prepared;
}

void WindowRenderer::record(QRhiSwapChain* swapchain) {
  if (!m_prepared) return;
  m_renderer->record(swapchain->currentFrameCommandBuffer(), m_viewport, swapchain->currentFrameRenderTarget()->pixelSize());
}

MemoryReport WindowRenderer::memoryReport() const { return m_renderer->memoryReport(); }

}  // namespace riglens::render
