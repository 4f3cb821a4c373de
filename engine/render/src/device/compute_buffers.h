// Shared by the compute passes: a created storage buffer (QRhi refuses zero-sized buffers, so at
// least 16 bytes) and one waited-for offscreen frame around a recording.
#pragma once

#include <QtGui/private/qrhi_p.h>

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <string>

#include "riglens/core/base/expected.h"
#include "riglens/render/device/gpu_resources.h"
#include "riglens/render/device/gpu_timer.h"
#include "shader_library.h"

namespace riglens::render {

// nullptr when the buffer cannot be created.
inline std::unique_ptr<QRhiBuffer> newStorageBuffer(QRhi* rhi, std::size_t bytes,
                                                    QRhiBuffer::UsageFlags usage = QRhiBuffer::StorageBuffer) {
  std::unique_ptr<QRhiBuffer> b(rhi->newBuffer(QRhiBuffer::Static, usage, int(std::max<std::size_t>(bytes, 16))));
  return b->create() ? std::move(b) : nullptr;
}

// The report row of a created buffer (its real size, padding included).
inline BufferBytes bufferBytes(std::string name, const QRhiBuffer* buffer) {
  return {std::move(name), buffer ? std::size_t(buffer->size()) : 0};
}

// One compute pass holding one dispatch of `groups` workgroups: `batch` (may
// be null) applied first; `bindings` null means the pipeline's own.
inline void dispatchComputePass(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch, QRhiComputePipeline* pipeline,
                                QRhiShaderResourceBindings* bindings, int groups) {
  cb->beginComputePass(batch);
  cb->setComputePipeline(pipeline);
  cb->setShaderResources(bindings);
  cb->dispatch(groups, 1, 1);
  cb->endComputePass();
}

// A compute pipeline over `bindings`: the bindings object and the pipeline
// created into `srb` and `pipeline`; false when either cannot be created.
inline bool createComputePipeline(QRhi* rhi, const QShader& shader,
                                  std::initializer_list<QRhiShaderResourceBinding> bindings,
                                  std::unique_ptr<QRhiShaderResourceBindings>& srb,
                                  std::unique_ptr<QRhiComputePipeline>& pipeline) {
  srb = newBindings(rhi, bindings);
  pipeline = srb ? newComputePipeline(rhi, shader, srb.get()) : nullptr;
  return pipeline != nullptr;
}

// Marks the end of a pass in the device's GpuTimer (when the frame is timed).
inline void markPass(QRhi* rhi, QRhiCommandBuffer* cb, std::string_view pass) {
  if (GpuTimer* timer = GpuTimer::of(rhi)) timer->mark(cb, pass);
}

// Begins an offscreen frame, lets `record` fill its command buffer, ends it;
// returns when the GPU is done (read-backs requested in `record` have landed).
// The frame is timed: the passes' marks land in the device's GpuTimer.
template <class Record>
core::Expected<void> runOffscreenComputeFrame(QRhi* rhi, const std::string& what, Record&& record) {
  QRhiCommandBuffer* cb = nullptr;
  if (rhi->beginOffscreenFrame(&cb) != QRhi::FrameOpSuccess)
    return core::makeError(core::ErrorCode::Gpu, "cannot begin an offscreen GPU frame");
  GpuTimer* timer = GpuTimer::of(rhi);
  if (timer) timer->beginFrame(cb);
  record(cb);
  if (timer) timer->endFrame(GpuTimer::FrameEnd::Waited);
  if (rhi->endOffscreenFrame() != QRhi::FrameOpSuccess)
    return core::makeError(core::ErrorCode::Gpu, "the " + what + " GPU frame failed");
  return {};
}

}  // namespace riglens::render
