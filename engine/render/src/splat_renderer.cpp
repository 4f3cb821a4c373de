#include "riglens/render/splat_renderer.h"

#include <cstring>

#include <QtCore/QDebug>
#include <QtGui/QMatrix4x4>
#include <QtGui/private/qrhi_p.h>

#include "riglens/render/gpu_sort.h"
#include "shader_library.h"

namespace riglens::render {

namespace {

constexpr int kProjectGroup = 256;  // local_size_x of splat_project.comp

struct ViewBlock {  // std140, splat_project.comp / splat.vert
  float view[16];
  float proj[16];
  float viewport[4];   // width, height, fx, fy
  std::uint32_t count[4];  // splats, flip y
};
static_assert(sizeof(ViewBlock) == 160);

}  // namespace

struct SplatRenderer::Impl {
  RhiDevice& device;
  QRhi* rhi;
  explicit Impl(RhiDevice& d) : device(d), rhi(d.rhi()) {}
  std::shared_ptr<const core::GaussianCloud> cloud;
  bool pending = false;
  std::uint32_t count = 0;
  std::unique_ptr<QRhiBuffer> ubo, centers, covA, covB, colors, projected;
  std::unique_ptr<GpuRadixSort> sort;
  std::unique_ptr<QRhiShaderResourceBindings> projectSrb, drawSrb;
  std::unique_ptr<QRhiComputePipeline> project;
  std::unique_ptr<QRhiGraphicsPipeline> draw;
  QVector<quint32> rpFormat;
  int samples = 0;
  std::size_t bytes = 0;
  bool dirty = true;
  glm::mat4 lastView{0.0f}, lastProj{0.0f};
  QSize lastSize;
  std::size_t sortedFrames = 0;

  bool fail(const char* what) {
    qWarning("riglens::render::SplatRenderer: %s", what);
    return false;
  }

  std::unique_ptr<QRhiBuffer> storage(std::size_t n) {
    std::unique_ptr<QRhiBuffer> b(rhi->newBuffer(QRhiBuffer::Static, QRhiBuffer::StorageBuffer, int(std::max<std::size_t>(n, 16))));
    return b->create() ? std::move(b) : nullptr;
  }

  bool upload(QRhiResourceUpdateBatch* batch) {
    count = std::uint32_t(cloud ? cloud->count : 0);
    draw.reset();
    if (count == 0) return true;
    std::vector<float> c(count * 4), a(count * 4), b(count * 4);
    for (std::uint32_t i = 0; i < count; ++i) {
      for (int k = 0; k < 3; ++k) c[i * 4 + std::uint32_t(k)] = cloud->positions[i * 3 + std::uint32_t(k)];
      c[i * 4 + 3] = 1.0f;
      const float* s = &cloud->covariance[i * 6];
      a[i * 4] = s[0]; a[i * 4 + 1] = s[1]; a[i * 4 + 2] = s[2]; a[i * 4 + 3] = s[3];
      b[i * 4] = s[4]; b[i * 4 + 1] = s[5]; b[i * 4 + 2] = 0; b[i * 4 + 3] = 0;
    }
    centers = storage(count * 16);
    covA = storage(count * 16);
    covB = storage(count * 16);
    colors = storage(count * 4);
    projected = storage(count * 32);
    ubo.reset(rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, sizeof(ViewBlock)));
    if (!centers || !covA || !covB || !colors || !projected || !ubo->create()) return fail("cannot allocate the splat buffers");
    batch->uploadStaticBuffer(centers.get(), 0, int(count * 16), c.data());
    batch->uploadStaticBuffer(covA.get(), 0, int(count * 16), a.data());
    batch->uploadStaticBuffer(covB.get(), 0, int(count * 16), b.data());
    batch->uploadStaticBuffer(colors.get(), 0, int(count * 4), cloud->color.data());
    auto sorter = GpuRadixSort::create(device, count);
    if (!sorter) return fail(sorter.error().message.c_str());
    sort = std::move(sorter).value();
    bytes = std::size_t(count) * (16 * 3 + 4 + 32 + 4 * 4) + sizeof(ViewBlock);
    const auto cs = QRhiShaderResourceBinding::ComputeStage;
    projectSrb.reset(rhi->newShaderResourceBindings());
    projectSrb->setBindings({QRhiShaderResourceBinding::uniformBuffer(0, cs, ubo.get()),
                             QRhiShaderResourceBinding::bufferLoad(1, cs, centers.get()),
                             QRhiShaderResourceBinding::bufferLoad(2, cs, covA.get()),
                             QRhiShaderResourceBinding::bufferLoad(3, cs, covB.get()),
                             QRhiShaderResourceBinding::bufferLoad(4, cs, colors.get()),
                             QRhiShaderResourceBinding::bufferStore(5, cs, projected.get()),
                             QRhiShaderResourceBinding::bufferStore(6, cs, sort->keys()),
                             QRhiShaderResourceBinding::bufferStore(7, cs, sort->values())});
    auto shader = loadShader("splat_project.comp");
    if (!shader) return fail(shader.error().message.c_str());
    project.reset(rhi->newComputePipeline());
    project->setShaderStage({QRhiShaderStage::Compute, *shader});
    project->setShaderResourceBindings(projectSrb.get());
    if (!projectSrb->create() || !project->create()) return fail("cannot create the projection pipeline");
    const auto vs = QRhiShaderResourceBinding::VertexStage;
    drawSrb.reset(rhi->newShaderResourceBindings());
    drawSrb->setBindings({QRhiShaderResourceBinding::uniformBuffer(0, vs, ubo.get()),
                          QRhiShaderResourceBinding::bufferLoad(1, vs, projected.get()),
                          QRhiShaderResourceBinding::bufferLoad(2, vs, sort->values())});
    if (!drawSrb->create()) return fail("cannot create the splat bindings");
    return true;
  }

  bool ensurePipeline(QRhiRenderPassDescriptor* rp, int sampleCount) {
    if (draw && rp->serializedFormat() == rpFormat && sampleCount == samples) return true;
    auto vs = loadShader("splat.vert"), fs = loadShader("splat.frag");
    if (!vs || !fs) return fail("splat shaders missing");
    draw.reset(rhi->newGraphicsPipeline());
    draw->setShaderStages({{QRhiShaderStage::Vertex, *vs}, {QRhiShaderStage::Fragment, *fs}});
    draw->setVertexInputLayout({});
    QRhiGraphicsPipeline::TargetBlend blend;  // premultiplied, back to front
    blend.enable = true;
    blend.srcColor = QRhiGraphicsPipeline::One;
    blend.dstColor = QRhiGraphicsPipeline::OneMinusSrcAlpha;
    blend.srcAlpha = QRhiGraphicsPipeline::One;
    blend.dstAlpha = QRhiGraphicsPipeline::OneMinusSrcAlpha;
    draw->setTargetBlends({blend});
    draw->setDepthTest(false);
    draw->setDepthWrite(false);
    draw->setFlags(QRhiGraphicsPipeline::UsesScissor);
    draw->setSampleCount(sampleCount);
    draw->setShaderResourceBindings(drawSrb.get());
    draw->setRenderPassDescriptor(rp);
    if (!draw->create()) return fail("cannot create the splat pipeline");
    rpFormat = rp->serializedFormat();
    samples = sampleCount;
    return true;
  }
};

SplatRenderer::SplatRenderer(RhiDevice& device) : m_impl(std::make_unique<Impl>(device)) {}
SplatRenderer::~SplatRenderer() = default;

void SplatRenderer::setCloud(std::shared_ptr<const core::GaussianCloud> cloud) {
  m_impl->cloud = std::move(cloud);
  m_impl->pending = true;
}

bool SplatRenderer::prepare(QRhiCommandBuffer* cb, QRhiRenderPassDescriptor* rp, int sampleCount, QSize size, const FrameState& state) {
  Impl& d = *m_impl;
  QRhiResourceUpdateBatch* batch = d.rhi->nextResourceUpdateBatch();
  if (d.pending) {
    d.pending = false;
    d.dirty = true;
    if (!d.upload(batch)) {
      batch->release();
      return false;
    }
  }
  if (d.count == 0) {
    cb->resourceUpdate(batch);
    return true;
  }
  if (!d.ensurePipeline(rp, sampleCount)) {
    batch->release();
    return false;
  }
  if (!d.dirty && state.view == d.lastView && state.projection == d.lastProj && size == d.lastSize) {
    cb->resourceUpdate(batch);  // the last projection and order still hold
    return true;
  }
  d.dirty = false;
  d.lastView = state.view;
  d.lastProj = state.projection;
  d.lastSize = size;
  ++d.sortedFrames;
  const QMatrix4x4 corr = d.rhi->clipSpaceCorrMatrix();
  glm::mat4 correction;
  std::memcpy(&correction[0][0], corr.constData(), 64);
  const glm::mat4 proj = correction * state.projection;
  ViewBlock block{};
  std::memcpy(block.view, &state.view[0][0], 64);
  std::memcpy(block.proj, &proj[0][0], 64);
  block.viewport[0] = float(size.width());
  block.viewport[1] = float(size.height());
  block.viewport[2] = state.projection[0][0] * float(size.width()) * 0.5f;   // focal lengths in pixels
  block.viewport[3] = state.projection[1][1] * float(size.height()) * 0.5f;
  block.count[0] = d.count;
  block.count[1] = correction[1][1] < 0 ? 1u : 0u;
  batch->updateDynamicBuffer(d.ubo.get(), 0, sizeof(block), &block);
  cb->beginComputePass(batch);
  cb->setComputePipeline(d.project.get());
  cb->setShaderResources(d.projectSrb.get());
  cb->dispatch(int((d.count + kProjectGroup - 1) / kProjectGroup), 1, 1);
  cb->endComputePass();
  d.sort->encode(cb, d.count);
  return true;
}

void SplatRenderer::record(QRhiCommandBuffer* cb, QRect rect, QSize target) {
  Impl& d = *m_impl;
  if (!d.draw || d.count == 0) return;
  const int bottom = target.height() - (rect.y() + rect.height());
  cb->setGraphicsPipeline(d.draw.get());
  cb->setViewport(QRhiViewport(float(rect.x()), float(bottom), float(rect.width()), float(rect.height())));
  cb->setScissor(QRhiScissor(rect.x(), bottom, rect.width(), rect.height()));
  cb->setShaderResources(d.drawSrb.get());
  cb->draw(6, d.count);
}

std::size_t SplatRenderer::gpuBytes() const { return m_impl->bytes; }
void SplatRenderer::markGaussiansChanged() { m_impl->dirty = true; }
std::size_t SplatRenderer::sortedFrames() const { return m_impl->sortedFrames; }

}  // namespace riglens::render
