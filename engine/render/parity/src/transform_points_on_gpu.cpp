#include "riglens/render/parity/transform_points_on_gpu.h"

#include <QtGui/private/qrhi_p.h>

#include <cstring>
#include <memory>

#include "device/gpu_layouts.h"
#include "device/shader_library.h"

namespace riglens::render {

using core::ErrorCode;
using core::makeError;

core::Expected<std::vector<glm::vec4>> transformPointsOnGpu(RhiDevice& device, const glm::mat4& m,
                                                            std::span<const glm::vec4> in) {
  if (in.empty()) return std::vector<glm::vec4>{};
  QRhi* rhi = device.rhi();
  if (!device.supportsCompute()) return makeError(ErrorCode::Unsupported, "this GPU backend has no compute shaders");
  auto shader = loadShader("transform_points.comp");
  if (!shader) return shader.error();

  const int bytes = static_cast<int>(in.size_bytes());
  std::unique_ptr<QRhiBuffer> params(
      rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, sizeof(gpu::TransformParams)));
  std::unique_ptr<QRhiBuffer> input(rhi->newBuffer(QRhiBuffer::Static, QRhiBuffer::StorageBuffer, bytes));
  std::unique_ptr<QRhiBuffer> output(rhi->newBuffer(QRhiBuffer::Static, QRhiBuffer::StorageBuffer, bytes));
  if (!params->create() || !input->create() || !output->create())
    return makeError(ErrorCode::Gpu, "cannot allocate GPU buffers for " + std::to_string(in.size()) + " points");

  std::unique_ptr<QRhiShaderResourceBindings> bindings(rhi->newShaderResourceBindings());
  bindings->setBindings({
      QRhiShaderResourceBinding::uniformBuffer(gpu::kTransformParamsBinding, QRhiShaderResourceBinding::ComputeStage,
                                               params.get()),
      QRhiShaderResourceBinding::bufferLoad(gpu::kTransformIn, QRhiShaderResourceBinding::ComputeStage, input.get()),
      QRhiShaderResourceBinding::bufferStore(gpu::kTransformOut, QRhiShaderResourceBinding::ComputeStage, output.get()),
  });
  std::unique_ptr<QRhiComputePipeline> pipeline(rhi->newComputePipeline());
  pipeline->setShaderStage({QRhiShaderStage::Compute, *shader});
  pipeline->setShaderResourceBindings(bindings.get());
  if (!bindings->create() || !pipeline->create())
    return makeError(ErrorCode::Gpu, "cannot create the transform_points compute pipeline");

  gpu::TransformParams p{};
  p.matrix = gpu::toGpu(m);
  p.count = static_cast<std::uint32_t>(in.size());

  QRhiCommandBuffer* cb = nullptr;
  if (rhi->beginOffscreenFrame(&cb) != QRhi::FrameOpSuccess)
    return makeError(ErrorCode::Gpu, "cannot begin an offscreen GPU frame");
  QRhiResourceUpdateBatch* uploads = rhi->nextResourceUpdateBatch();
  uploads->updateDynamicBuffer(params.get(), 0, sizeof(gpu::TransformParams), &p);
  uploads->uploadStaticBuffer(input.get(), 0, bytes, in.data());
  cb->beginComputePass(uploads);
  cb->setComputePipeline(pipeline.get());
  cb->setShaderResources();
  cb->dispatch(gpu::groupsFor(in.size(), gpu::kTransformGroupSize), 1, 1);
  QRhiResourceUpdateBatch* readbacks = rhi->nextResourceUpdateBatch();
  QRhiBufferReadbackResult result;
  readbacks->readBackBuffer(output.get(), 0, bytes, &result);
  cb->endComputePass(readbacks);
  // Readbacks are complete when endOffscreenFrame returns (it waits).
  if (rhi->endOffscreenFrame() != QRhi::FrameOpSuccess || result.data.size() != bytes)
    return makeError(ErrorCode::Gpu, "the GPU frame running transform_points failed");

  std::vector<glm::vec4> out(in.size());
  std::memcpy(out.data(), result.data.constData(), static_cast<std::size_t>(bytes));
  return out;
}

}  // namespace riglens::render
