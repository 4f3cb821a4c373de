// The debug vertex lift on the GPU (shaders/lift.comp): one isotropic
// gaussian per posed vertex into a splat sink's storage buffers (centre,
// covariance A/B, packed colour); slots past the vertex count are cleared.
// create -> (setFrame -> encode)* ; encode records the uploads and the pass
// into the frame's command buffer. CPU reference: core::debugLiftCpu.
#pragma once

#include <memory>
#include <span>

#include "riglens/core/base/expected.h"
#include "riglens/core/character/debug_lift.h"
#include "riglens/render/device/gpu_resources.h"
#include "riglens/render/device/rhi_device.h"

class QRhiBuffer;
class QRhiCommandBuffer;

namespace riglens::render {

class GpuLift {
 public:
  ~GpuLift();
  // A sink of `capacity` slots (initially as `initial`), reading `vertexCount`
  // posed vertices: from its own buffer (setFrame uploads them), or from
  // `positionSource`, a storage buffer another pass writes in the same frame
  // (GpuGnm::posedBuffer) so no vertex goes through the CPU.
  static core::Expected<std::unique_ptr<GpuLift>> create(RhiDevice& device, std::size_t vertexCount,
                                                         const core::SplatSink& initial,
                                                         QRhiBuffer* positionSource = nullptr);

  // Stages the uniform, the tints (when not empty: they stay until replaced)
  // and the positions to upload (when not empty; refused with a position source).
  core::Expected<void> setFrame(const core::DebugLiftParams& params, std::span<const float> positions,
                                std::span<const std::uint32_t> tints);
  void encode(QRhiCommandBuffer* cb);
  // Submits the uploads staged so far (creation's included) into `cb` now,
  // so that no update batch is held into a later frame: a pass created in a
  // frame that does not encode it (a decoded character waiting for its first
  // decode) flushes in that frame.
  void flushUploads(QRhiCommandBuffer* cb);
  core::Expected<void> runOffscreenFrame();    // one frame holding only this pass; waits for the GPU
  core::Expected<core::SplatSink> readBack();  // the sink's buffers, through one more frame

  std::size_t capacity() const;
  SplatSinkBuffers sink() const;  // the sink the pass writes (SplatRenderer::setSink)
  BufferList buffers() const;     // every buffer this pass owns
  std::size_t gpuBytes() const;

 private:
  struct Impl;
  explicit GpuLift(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace riglens::render
