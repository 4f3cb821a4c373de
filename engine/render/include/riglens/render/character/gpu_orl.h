// The ORL rig on the GPU through QRhi (DECODERS.md B): per frame the DNA is
// evaluated on the CPU (core::OrlPoser: controls -> joint outputs + channel
// weights, microseconds), the joints' skin rows (world * inverse bind, rows
// 0..2) and the channel weights are uploaded, and shaders/orl_deform.comp
// writes the posed vertices (V*3 floats, centimetres) into a storage buffer
// the lift reads. The blendshape deltas live on the GPU as CSR rows per
// vertex, built once. GnmRoute::Cpu deforms on the CPU instead
// (core::orlDeform) and uploads the vertices into the same buffer, as the
// GNM pass does on software rasterisers. CPU reference: core::orlDeform.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/character/orl_character.h"
#include "riglens/render/character/gpu_character.h"
#include "riglens/render/device/gpu_resources.h"
#include "riglens/render/device/rhi_device.h"

class QRhiBuffer;
class QRhiCommandBuffer;

namespace riglens::render {

// The blendshape deltas as rows per vertex (contract: counting sort in target
// order, deltas dequantised once): offset[V + 1], channel[N], delta[3N].
struct OrlCsr {
  std::vector<std::uint32_t> offset, channel;
  std::vector<float> delta;
};
OrlCsr buildOrlCsr(const core::OrlPack& pack);

class GpuOrl {
 public:
  ~GpuOrl();
  static core::Expected<std::unique_ptr<GpuOrl>> create(RhiDevice& device, const core::OrlCharacter& character,
                                                        GnmRoute route = GnmRoute::Gpu);

  // The DNA's GUI (or raw) controls in its order: evaluated, then staged.
  core::Expected<void> setControls(std::span<const float> values, core::DnaControlMode mode);
  // Joint outputs (J*9) and channel weights straight to the deform (parity checks).
  core::Expected<void> setOutputs(std::span<const float> jointOutputs, std::span<const float> channelWeights);
  void encode(QRhiCommandBuffer* cb);
  void flushUploads(QRhiCommandBuffer* cb);
  // One offscreen frame holding only this pass; returns when the GPU is done (benchmarks).
  core::Expected<void> runOffscreenFrame();

  QRhiBuffer* posedBuffer() const;
  std::span<const float> cpuPosed() const;  // GnmRoute::Cpu: the frame's vertices; empty on the GPU route
  std::span<const float> jointOutputs() const;
  std::span<const float> channelWeights() const;
  std::size_t vertexCount() const;
  std::size_t csrEntries() const;
  BufferList buffers() const;

 private:
  struct Impl;
  explicit GpuOrl(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

// One deform through the GPU pass, read back (parity checks).
core::Expected<std::vector<float>> orlDeformOnGpu(RhiDevice& device, const core::OrlCharacter& character,
                                                  std::span<const float> jointOutputs,
                                                  std::span<const float> channelWeights);

}  // namespace riglens::render
