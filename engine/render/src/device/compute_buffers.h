// Shared by the compute passes: created storage and uniform buffers (QRhi
// refuses zero-sized buffers, so at least 16 bytes), a pass's binding layout
// gathered as its buffers are made, and one waited-for offscreen frame around
// a recording.
#pragma once

#include <QtGui/private/qrhi_p.h>

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <vector>

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

// A created uniform buffer of `bytes`, updated per dispatch; nullptr when it
// cannot be created.
inline std::unique_ptr<QRhiBuffer> newUniformBuffer(QRhi* rhi, std::size_t bytes) {
  std::unique_ptr<QRhiBuffer> b(rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, int(bytes)));
  return b->create() ? std::move(b) : nullptr;
}

// A compute pass's bindings, gathered as its buffers are made: each buffer is
// handed over with the binding its shader reads or writes it at, so the list
// cannot number one buffer as another's. A buffer that failed to be created
// (null) makes the whole layout fail (ok() false, createPipeline false).
class ComputeLayout {
 public:
  using Buffer = std::unique_ptr<QRhiBuffer>;
  Buffer uniform(int binding, Buffer buffer) {
    return add(QRhiShaderResourceBinding::uniformBuffer, binding, std::move(buffer));
  }
  Buffer read(int binding, Buffer buffer) {
    return add(QRhiShaderResourceBinding::bufferLoad, binding, std::move(buffer));
  }
  Buffer written(int binding, Buffer buffer) {
    return add(QRhiShaderResourceBinding::bufferStore, binding, std::move(buffer));
  }
  // Read, then written back (state a pass carries from frame to frame).
  Buffer updated(int binding, Buffer buffer) {
    return add(QRhiShaderResourceBinding::bufferLoadStore, binding, std::move(buffer));
  }
  // Buffers owned elsewhere (another pass's output, the vertex buffer a pass
  // writes into).
  void read(int binding, QRhiBuffer* buffer) { bind(QRhiShaderResourceBinding::bufferLoad, binding, buffer); }
  void written(int binding, QRhiBuffer* buffer) { bind(QRhiShaderResourceBinding::bufferStore, binding, buffer); }
  bool ok() const { return m_ok; }
  // The bindings object and the pipeline of `shader` over them, created into
  // `srb` and `pipeline`; false when a buffer or either object is missing.
  bool createPipeline(QRhi* rhi, const QShader& shader, std::unique_ptr<QRhiShaderResourceBindings>& srb,
                      std::unique_ptr<QRhiComputePipeline>& pipeline) const {
    if (!m_ok) return false;
    srb.reset(rhi->newShaderResourceBindings());
    srb->setBindings(m_bindings.begin(), m_bindings.end());
    if (!srb->create()) return false;
    pipeline = newComputePipeline(rhi, shader, srb.get());
    return pipeline != nullptr;
  }

 private:
  using MakeBinding = QRhiShaderResourceBinding (*)(int, QRhiShaderResourceBinding::StageFlags, QRhiBuffer*);
  void bind(MakeBinding make, int binding, QRhiBuffer* buffer) {
    m_ok = m_ok && buffer;
    if (buffer) m_bindings.push_back(make(binding, QRhiShaderResourceBinding::ComputeStage, buffer));
  }
  Buffer add(MakeBinding make, int binding, Buffer buffer) {
    bind(make, binding, buffer.get());
    return buffer;
  }
  std::vector<QRhiShaderResourceBinding> m_bindings;
  bool m_ok = true;
};

// The report row of a created buffer (its real size, padding included).
inline BufferBytes bufferBytes(std::string name, const QRhiBuffer* buffer) {
  return {std::move(name), buffer ? std::size_t(buffer->size()) : 0};
}

// One compute pass holding one dispatch of `groups` (x `groupsY`) workgroups:
// `batch` (may be null) applied first; `bindings` null means the pipeline's own.
inline void dispatchComputePass(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch, QRhiComputePipeline* pipeline,
                                QRhiShaderResourceBindings* bindings, int groups, int groupsY = 1) {
  cb->beginComputePass(batch);
  cb->setComputePipeline(pipeline);
  cb->setShaderResources(bindings);
  cb->dispatch(groups, groupsY, 1);
  GpuTimer::countDispatch();
  cb->endComputePass();
}

// Marks the end of a pass in the device's GpuTimer (when the frame is timed).
inline void markPass(QRhi* rhi, QRhiCommandBuffer* cb, std::string_view pass) {
  if (GpuTimer* timer = GpuTimer::of(rhi)) timer->mark(cb, pass);
}

// A pass on the CPU route (GnmRoute::Cpu): the vertices the CPU posed,
// uploaded into the buffer the splat lift reads, in place of the dispatch;
// the GPU's share is marked as `pass`.
inline void uploadCpuPosed(QRhi* rhi, QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch, QRhiBuffer* posed,
                           std::span<const float> vertices, std::string_view pass) {
  batch->uploadStaticBuffer(posed, 0, int(vertices.size_bytes()), vertices.data());
  cb->resourceUpdate(batch);
  markPass(rhi, cb, pass);
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
