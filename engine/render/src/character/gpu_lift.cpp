#include "riglens/render/character/gpu_lift.h"

#include <cstring>
#include <string>

#include "character/lift_block.h"
#include "character/sink_readback.h"
#include "device/compute_buffers.h"
#include "device/pending_uploads.h"
#include "device/shader_library.h"

namespace riglens::render {

using core::ErrorCode;
using core::makeError;

struct GpuLift::Impl {
  QRhi* rhi = nullptr;
  std::size_t V = 0, capacity = 0;
  std::unique_ptr<QRhiBuffer> params, positions, tints, centers, covA, covB, colors;
  std::unique_ptr<QRhiShaderResourceBindings> srb;
  std::unique_ptr<QRhiComputePipeline> pipeline;
  PendingUploads uploads;  // staged by create / setFrame, consumed by encode
  std::uint32_t slotCount = 0;
  QRhiBuffer* positionSource = nullptr;
  bool hasTints = false;  // positions.get() or another pass's buffer

  QRhiResourceUpdateBatch* batch() { return uploads.batch(rhi); }
};

GpuLift::GpuLift(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
GpuLift::~GpuLift() = default;

core::Expected<std::unique_ptr<GpuLift>> GpuLift::create(RhiDevice& device, std::size_t vertexCount,
                                                         const core::SplatSink& initial, QRhiBuffer* positionSource) {
  if (!device.supportsCompute()) return makeError(ErrorCode::Unsupported, "the GPU backend has no compute shaders");
  auto shader = loadShader("lift.comp");
  if (!shader) return shader.error();
  auto d = std::make_unique<Impl>();
  d->rhi = device.rhi();
  d->V = vertexCount;
  d->capacity = initial.capacity();
  const std::size_t cap = d->capacity;
  if (positionSource && std::size_t(positionSource->size()) < vertexCount * 12)
    return makeError(ErrorCode::Invalid,
                     "the lift's position source holds fewer than " + std::to_string(vertexCount) + " vertices");
  QRhi* rhi = d->rhi;
  ComputeLayout layout;
  d->params = layout.uniform(gpu::kLiftParamsBinding, newUniformBuffer(rhi, sizeof(gpu::LiftParams)));
  if (!positionSource) d->positions = newStorageBuffer(rhi, vertexCount * 12);
  d->positionSource = positionSource ? positionSource : d->positions.get();
  layout.read(gpu::kLiftPositions, d->positionSource);
  d->tints = layout.read(gpu::kLiftTints, newStorageBuffer(rhi, vertexCount * 4));
  d->centers = layout.updated(gpu::kLiftCenters, newStorageBuffer(rhi, cap * 16));
  d->covA = layout.updated(gpu::kLiftCovA, newStorageBuffer(rhi, cap * 16));
  d->covB = layout.updated(gpu::kLiftCovB, newStorageBuffer(rhi, cap * 16));
  d->colors = layout.updated(gpu::kLiftColors, newStorageBuffer(rhi, cap * 4));
  if (!layout.ok()) return makeError(ErrorCode::Gpu, "cannot allocate the lift buffers");
  if (!layout.createPipeline(rhi, *shader, d->srb, d->pipeline))
    return makeError(ErrorCode::Gpu, "cannot create the lift pipeline");
  QRhiResourceUpdateBatch* batch = d->batch();
  batch->uploadStaticBuffer(d->centers.get(), 0, int(cap * 16), initial.center.data());
  batch->uploadStaticBuffer(d->covA.get(), 0, int(cap * 16), initial.covarianceA.data());
  batch->uploadStaticBuffer(d->covB.get(), 0, int(cap * 16), initial.covarianceB.data());
  batch->uploadStaticBuffer(d->colors.get(), 0, int(cap * 4), initial.color.data());
  return std::unique_ptr<GpuLift>(new GpuLift(std::move(d)));
}

core::Expected<void> GpuLift::setFrame(const core::DebugLiftParams& params, std::span<const float> positions,
                                       std::span<const std::uint32_t> tints) {
  Impl& d = *m_impl;
  if (params.slotCount > d.capacity || params.vertexCount > d.V)
    return makeError(ErrorCode::Invalid, "the lift writes " + std::to_string(params.slotCount) + " slots of " +
                                             std::to_string(params.vertexCount) + " vertices; the sink holds " +
                                             std::to_string(d.capacity) + " slots of " + std::to_string(d.V));
  if (!positions.empty() && !d.positions)
    return makeError(ErrorCode::Invalid,
                     "this lift reads its positions from another GPU pass; it takes none from the CPU");
  if (!positions.empty() && positions.size() != d.V * 3)
    return makeError(ErrorCode::Invalid, "the lift expects " + std::to_string(d.V * 3) + " position floats, got " +
                                             std::to_string(positions.size()));
  if (!tints.empty() && tints.size() != d.V)
    return makeError(ErrorCode::Invalid, "the lift takes one tint per vertex (" + std::to_string(d.V) + "), got " +
                                             std::to_string(tints.size()));
  if (params.shading == core::LiftShading::Tint && tints.empty() && !d.hasTints)
    return makeError(ErrorCode::Invalid, "tint shading needs one colour per vertex");
  const gpu::LiftParams uniform = gpu::liftBlock(params);
  QRhiResourceUpdateBatch* batch = d.batch();
  batch->updateDynamicBuffer(d.params.get(), 0, int(sizeof(uniform)), &uniform);
  if (!positions.empty()) batch->uploadStaticBuffer(d.positions.get(), 0, int(positions.size() * 4), positions.data());
  if (!tints.empty()) {
    batch->uploadStaticBuffer(d.tints.get(), 0, int(tints.size() * 4), tints.data());
    d.hasTints = true;
  }
  d.slotCount = params.slotCount;
  return {};
}

void GpuLift::flushUploads(QRhiCommandBuffer* cb) {
  m_impl->uploads.flush(cb);
}

void GpuLift::encode(QRhiCommandBuffer* cb) {
  Impl& d = *m_impl;
  QRhiResourceUpdateBatch* batch = d.uploads.takeOrBegin(d.rhi);
  dispatchComputePass(cb, batch, d.pipeline.get(), nullptr, gpu::groupsFor(d.slotCount, gpu::kLiftGroupSize));
  markPass(d.rhi, cb, "lift");
}

core::Expected<void> GpuLift::runOffscreenFrame() {
  return runOffscreenComputeFrame(m_impl->rhi, "lift", [&](QRhiCommandBuffer* cb) { encode(cb); });
}

core::Expected<core::SplatSink> GpuLift::readBack() {
  return readBackSink(m_impl->rhi, sink(), "lift");
}

std::size_t GpuLift::capacity() const {
  return m_impl->capacity;
}
SplatSinkBuffers GpuLift::sink() const {
  const Impl& d = *m_impl;
  return {d.centers.get(), d.covA.get(), d.covB.get(), d.colors.get(), std::uint32_t(d.capacity)};
}

BufferList GpuLift::buffers() const {
  const Impl& d = *m_impl;
  BufferList list{bufferBytes("lift parameters", d.params.get()), bufferBytes("lift tints", d.tints.get()),
                  bufferBytes("sink centres", d.centers.get()),   bufferBytes("sink covariance A", d.covA.get()),
                  bufferBytes("sink covariance B", d.covB.get()), bufferBytes("sink colours", d.colors.get())};
  if (d.positions) list.insert(list.begin() + 1, bufferBytes("lift positions", d.positions.get()));
  return list;
}

std::size_t GpuLift::gpuBytes() const {
  return totalBytes(buffers());
}

}  // namespace riglens::render
