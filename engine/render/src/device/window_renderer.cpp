#include "riglens/render/device/window_renderer.h"

#include <QtGui/private/qrhi_p.h>

namespace riglens::render {

WindowRenderer::WindowRenderer(QRhi* rhi, QVulkanInstance* vulkan)
    : m_device(RhiDevice::borrow(rhi, vulkan)),
      m_rig(std::make_unique<RigRenderer>(*m_device)),
      m_character(std::make_unique<CharacterRenderer>(*m_device)),
      m_splats(std::make_unique<SplatRenderer>(*m_device)),
      m_stack{m_rig.get(), m_character.get(), m_splats.get()} {}

WindowRenderer::~WindowRenderer() = default;

void WindowRenderer::setModel(std::shared_ptr<const core::LoadedRun> run) {
  m_rig->setModel(std::move(run));
}
void WindowRenderer::setCharacter(std::shared_ptr<const core::AosRigPack> pack) {
  m_character->setPack(std::move(pack));
}
void WindowRenderer::setCharacter(std::shared_ptr<const core::OrlCharacter> character) {
  m_character->setOrlCharacter(std::move(character));
}
void WindowRenderer::setCharacterFrame(CharacterFrame frame) {
  m_character->setFrame(std::move(frame));
}
void WindowRenderer::setDecodedLayout(std::shared_ptr<const DecodedLayout> layout) {
  m_character->setDecodedLayout(std::move(layout));
}
void WindowRenderer::setDecodedOutputs(std::shared_ptr<const core::DecodedOutputs> outputs) {
  m_character->setDecodedOutputs(std::move(outputs));
}

void WindowRenderer::setCloud(std::shared_ptr<const core::GaussianCloud> cloud) {
  m_cloud = cloud;
  m_splats->setCloud(std::move(cloud));
}

void WindowRenderer::setSplatBounds(const core::Bounds& bounds) {
  const float radius = bounds.empty ? 0.0f : bounds.radius();
  m_character->setBoundingSphere(bounds.center(), radius);
  m_splats->setBoundingSphere(bounds.center(), radius);
}

// Closed, the compared run's renderer goes with its GPU objects (QRhi
// defers their release until the frames that used them are done).
void WindowRenderer::setCompareModel(std::shared_ptr<const core::LoadedRun> run) {
  m_compareModel = run != nullptr;
  if (!run) {
    m_compareRig.reset();
    return;
  }
  if (!m_compareRig) m_compareRig = std::make_unique<RigRenderer>(*m_device);
  m_compareRig->setModel(std::move(run));
}

bool WindowRenderer::prepare(QRhiSwapChain* swapchain, const FrameState& state, QRect viewport,
                             const CompareFrame* compare) {
  m_viewport = viewport;
  QRhiCommandBuffer* cb = swapchain->currentFrameCommandBuffer();
  m_device->timer().beginFrame(cb);
  QRhiRenderTarget* rt = swapchain->currentFrameRenderTarget();
  m_prepared = true;  // the stack records whichever layers prepared
  // What the layers draw covers the viewport, not the whole window: an
  // image a layer makes (the splat tiles, the CPU rasteriser's) is the
  // viewport's size, as its projection's aspect is.
  const bool ok = m_stack.prepare(cb, rt->renderPassDescriptor(), rt->sampleCount(), viewport.size(), state);
  m_comparePrepared = false;
  m_firstReplaced = false;
  if (!compare || !m_compareModel || compare->viewport.isEmpty()) return ok;
  m_compareViewport = compare->viewport;
  m_firstReplaced = compare->replacesFirst;
  m_comparePrepared = m_compareRig->prepare(cb, rt->renderPassDescriptor(), rt->sampleCount(), compare->viewport.size(),
                                            compare->state);
  return ok && m_comparePrepared;
}

void WindowRenderer::record(QRhiSwapChain* swapchain) {
  if (!m_prepared) return;
  QRhiCommandBuffer* cb = swapchain->currentFrameCommandBuffer();
  const QSize targetSize = swapchain->currentFrameRenderTarget()->pixelSize();
  if (!m_firstReplaced) m_stack.record(cb, m_viewport, targetSize);
  if (m_comparePrepared) m_compareRig->record(cb, m_compareViewport, targetSize);
}

void WindowRenderer::finishFrame(QRhiSwapChain* swapchain) {
  GpuTimer& timer = m_device->timer();
  if (m_prepared) timer.mark(swapchain->currentFrameCommandBuffer(), "draw");
  timer.endFrame(GpuTimer::FrameEnd::Submitted);
  const GpuWork totals = timer.work();
  const GpuWork frame = totals - m_workBefore;
  m_workBefore = totals;
  if (frame.dispatches > 0 || m_frameWork.dispatches == 0) m_frameWork = frame;
}

FrameTimes WindowRenderer::gpuTimes() const {
  FrameTimes newest = m_device->timer().latest();
  if (!newest.available || newest.passes.size() > 1 || m_lastWorkTimes.passes.empty()) m_lastWorkTimes = newest;
  return m_lastWorkTimes;
}

WindowRenderer::SplatStats WindowRenderer::splatStats() const {
  SplatStats stats;
  const SplatRenderer* splats = m_cloud ? m_splats.get() : m_character->splatRenderer();
  if (!splats) return stats;
  stats.splats = splats->count();
  stats.raster = splatRasterName(splats->rasterUsed());
  stats.tileKeys = splats->tileKeys();
  stats.cpuMs = splats->cpuRasterMs();
  stats.sortedFrames = splats->sortedFrames();
  return stats;
}

bool WindowRenderer::supportsCompute() const {
  return m_device->supportsCompute();
}
MemoryReport WindowRenderer::memoryReport() const {
  return m_rig->memoryReport();
}

MemoryReport WindowRenderer::compareMemoryReport() const {
  return m_compareRig && m_compareModel ? m_compareRig->memoryReport() : MemoryReport{};
}

RigRenderer::PrepareTimes WindowRenderer::rigPrepareTimes() const {
  return m_rig->modelPrepareTimes();
}

bool WindowRenderer::rigUploading() const {
  return m_rig->uploading() || (m_compareModel && m_compareRig->uploading());
}

bool WindowRenderer::characterShowsDecoded() const {
  return m_character->showingDecoded();
}

CharacterMemory WindowRenderer::splatMemory() const {
  if (!m_cloud) return m_character->memory();
  CharacterMemory memory;
  memory.packBytes = m_cloud->bytes();
  memory.buffers = m_splats->buffers();
  if (!memory.buffers.empty())
    memory.branches.push_back({"scene", 0, std::uint32_t(m_cloud->count), std::uint32_t(m_cloud->count)});
  return memory;
}

int WindowRenderer::framesInFlight() const {
  return m_device->rhi()->resourceLimit(QRhi::FramesInFlight);
}

bool WindowRenderer::wantsAnotherFrame() const {
  const bool compare = m_compareModel && (m_compareRig->wantsAnotherFrame() || m_compareRig->uploading());
  return m_stack.wantsAnotherFrame() || m_stack.uploading() || compare;
}

std::string WindowRenderer::failure() const {
  if (std::string why = m_stack.failure(); !why.empty() || !m_compareModel) return why;
  return m_compareRig->failure();
}

}  // namespace riglens::render
