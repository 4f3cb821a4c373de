#include "riglens/render/parity/draw_triangles_offscreen.h"

#include <QtGui/private/qrhi_p.h>

#include <QtGui/QMatrix4x4>
#include <cstring>
#include <memory>

#include "device/gpu_layouts.h"
#include "device/shader_library.h"

namespace riglens::render {

using core::ErrorCode;
using core::makeError;

namespace {

glm::mat4 toGlm(const QMatrix4x4& q) {
  glm::mat4 out;
  std::memcpy(&out[0][0], q.constData(), sizeof(float) * 16);  // both column-major
  return out;
}

}  // namespace

core::Expected<QImage> drawColoredTrianglesOffscreen(RhiDevice& device, QSize size,
                                                     std::span<const ColorVertex> vertices,
                                                     const glm::mat4& viewProjection, QColor clearColor) {
  QRhi* rhi = device.rhi();
  auto vs = loadShader("vertex_color.vert");
  if (!vs) return vs.error();
  auto fs = loadShader("vertex_color.frag");
  if (!fs) return fs.error();

  std::unique_ptr<QRhiTexture> color(
      rhi->newTexture(QRhiTexture::RGBA8, size, 1, QRhiTexture::RenderTarget | QRhiTexture::UsedAsTransferSource));
  std::unique_ptr<QRhiRenderBuffer> depth(rhi->newRenderBuffer(QRhiRenderBuffer::DepthStencil, size, 1));
  if (!color->create() || !depth->create())
    return makeError(ErrorCode::Gpu, "cannot create a " + std::to_string(size.width()) + "x" +
                                         std::to_string(size.height()) + " render target");
  QRhiTextureRenderTargetDescription rtDesc{QRhiColorAttachment(color.get())};
  rtDesc.setDepthStencilBuffer(depth.get());
  std::unique_ptr<QRhiTextureRenderTarget> target(rhi->newTextureRenderTarget(rtDesc));
  std::unique_ptr<QRhiRenderPassDescriptor> pass(target->newCompatibleRenderPassDescriptor());
  target->setRenderPassDescriptor(pass.get());
  if (!target->create()) return makeError(ErrorCode::Gpu, "cannot create the render target");

  const int vertexBytes = static_cast<int>(vertices.size_bytes());
  std::unique_ptr<QRhiBuffer> vbuf(
      rhi->newBuffer(QRhiBuffer::Immutable, QRhiBuffer::VertexBuffer, std::max(vertexBytes, 1)));
  std::unique_ptr<QRhiBuffer> ubuf(
      rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, sizeof(gpu::MvpBlock)));
  if (!vbuf->create() || !ubuf->create()) return makeError(ErrorCode::Gpu, "cannot create GPU buffers");

  std::unique_ptr<QRhiShaderResourceBindings> bindings(rhi->newShaderResourceBindings());
  bindings->setBindings(
      {QRhiShaderResourceBinding::uniformBuffer(gpu::kMvpBinding, QRhiShaderResourceBinding::VertexStage, ubuf.get())});
  if (!bindings->create()) return makeError(ErrorCode::Gpu, "cannot create shader bindings");

  std::unique_ptr<QRhiGraphicsPipeline> pipeline(rhi->newGraphicsPipeline());
  pipeline->setShaderStages({{QRhiShaderStage::Vertex, *vs}, {QRhiShaderStage::Fragment, *fs}});
  QRhiVertexInputLayout layout;
  layout.setBindings({{sizeof(ColorVertex)}});
  layout.setAttributes(
      {{0, 0, QRhiVertexInputAttribute::Float3, 0}, {0, 1, QRhiVertexInputAttribute::Float3, 3 * sizeof(float)}});
  pipeline->setVertexInputLayout(layout);
  pipeline->setDepthTest(true);
  pipeline->setDepthWrite(true);
  pipeline->setShaderResourceBindings(bindings.get());
  pipeline->setRenderPassDescriptor(pass.get());
  if (!pipeline->create()) return makeError(ErrorCode::Gpu, "cannot create the vertex_color pipeline");

  const glm::mat4 mvp = toGlm(rhi->clipSpaceCorrMatrix()) * viewProjection;

  QRhiCommandBuffer* cb = nullptr;
  if (rhi->beginOffscreenFrame(&cb) != QRhi::FrameOpSuccess)
    return makeError(ErrorCode::Gpu, "cannot begin an offscreen GPU frame");
  QRhiResourceUpdateBatch* uploads = rhi->nextResourceUpdateBatch();
  if (vertexBytes > 0) uploads->uploadStaticBuffer(vbuf.get(), 0, vertexBytes, vertices.data());
  const gpu::MvpBlock block{gpu::toGpu(mvp)};
  uploads->updateDynamicBuffer(ubuf.get(), 0, sizeof(block), &block);
  cb->beginPass(target.get(), clearColor, {1.0f, 0}, uploads);
  if (!vertices.empty()) {
    cb->setGraphicsPipeline(pipeline.get());
    cb->setViewport({0, 0, float(size.width()), float(size.height())});
    cb->setShaderResources();
    const QRhiCommandBuffer::VertexInput input(vbuf.get(), 0);
    cb->setVertexInput(0, 1, &input);
    cb->draw(static_cast<quint32>(vertices.size()));
  }
  QRhiReadbackResult readback;
  QRhiResourceUpdateBatch* readbacks = rhi->nextResourceUpdateBatch();
  readbacks->readBackTexture({color.get()}, &readback);
  cb->endPass(readbacks);
  if (rhi->endOffscreenFrame() != QRhi::FrameOpSuccess)
    return makeError(ErrorCode::Gpu, "the offscreen GPU frame failed");

  QImage image(reinterpret_cast<const uchar*>(readback.data.constData()), readback.pixelSize.width(),
               readback.pixelSize.height(), QImage::Format_RGBA8888);
  image = image.copy();  // detach from the readback buffer
  if (rhi->isYUpInFramebuffer()) image = image.mirrored();
  return image;
}

}  // namespace riglens::render
