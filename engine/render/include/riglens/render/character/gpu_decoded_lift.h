// The decoded lift on the GPU (shaders/decoded_lift_pass1.comp and
// _pass2.comp; contract/DECODERS.md A6-A9): per branch, pass 1 per texel
// (Jacobian frame from the posed, calibrated vertices; centre; covariance)
// into a texel buffer, pass 2 per slot (resample, threshold, eigen floor,
// world placement, packing) into that branch's slots of one shared sink.
//
// The decoders' outputs arrive as CPU arrays (OpenCV's DNN runs on the CPU:
// the contract's demote path) and are uploaded once per decode: a full pass
// uploads geom_uv and colour and runs both passes; an appearance pass uploads
// colour and runs pass 2 only. The vertices come from another GPU pass's
// buffer (GpuGnm::posedBuffer) or from setVertices.
// CPU references: core::liftPass1 / liftPass2; parity in tests/render.
#pragma once

#include <glm/vec3.hpp>
#include <memory>
#include <span>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/decoded/decoded_character.h"
#include "riglens/render/device/gpu_resources.h"
#include "riglens/render/device/rhi_device.h"
#include "riglens/render/splats/splat_renderer.h"

class QRhiBuffer;
class QRhiCommandBuffer;

namespace riglens::render {

class GpuDecodedLift {
 public:
  ~GpuDecodedLift();
  // `bundle` keeps the branch meshes the specs point into alive.
  // `vertexCount` is the rig's (its output is V*3 floats, the branch meshes'
  // vertex count when rigged); `posedSource` a storage buffer another pass
  // writes each frame, or null to take vertices from setVertices.
  static core::Expected<std::unique_ptr<GpuDecodedLift>> create(RhiDevice& device,
                                                                std::shared_ptr<const core::Bundle> bundle,
                                                                std::vector<core::BranchLiftSpec> branches,
                                                                std::uint32_t capacity, std::size_t vertexCount,
                                                                QRhiBuffer* posedSource = nullptr);

  // Stages a decode's outputs; `verticesChanged` also re-runs pass 1 (the rig
  // posed the vertices anew this frame). Refuses outputs of the wrong size.
  core::Expected<void> setOutputs(const core::DecodedOutputs& outputs, bool verticesChanged);
  // Moves every branch's gaussians (a body pose's rootPos, added to the
  // bundle's world offset); pass 2 re-runs when it changed.
  void setRootOffset(glm::vec3 offset);
  // Per-branch visibility: a hidden branch's slots are emptied by pass 2.
  void setHiddenBranches(const std::vector<std::string>& names);
  // A branch's opacity mask (DECODERS.md A9; none by default, as the
  // contract's character installs none): slots whose mask value is below the
  // threshold are emptied. Null removes it. Refuses a mask whose values do
  // not fill width x height, or with more than max(uv_res^2, 1024) values.
  core::Expected<void> setOpacityMask(std::size_t branch, const core::OpacityMask* mask);
  // An ORL shell branch's posed vertices (core::poseOrlShell, the rig's
  // units): they replace the branch's own buffer and re-run its pass 1.
  core::Expected<void> setBranchVertices(std::size_t branch, std::span<const float> vertices);
  // The rig's output to lift from, when there is no posed source.
  core::Expected<void> setVertices(std::span<const float> rigOutput);
  void encode(QRhiCommandBuffer* cb);  // records what setOutputs staged; nothing when nothing is pending
  // Submits the uploads staged so far (creation's included) into `cb` now,
  // so that no update batch is held into a later frame: a pass created in a
  // frame that does not encode it (a decoded character waiting for its first
  // decode) flushes in that frame.
  void flushUploads(QRhiCommandBuffer* cb);
  core::Expected<void> runOffscreenFrame();
  core::Expected<core::SplatSink> readBack();
  core::Expected<std::vector<float>> readTexels(std::size_t branch);  // pass 1's output (parity)

  std::uint32_t capacity() const;
  SplatSinkBuffers sink() const;
  BufferList buffers() const;
  std::size_t gpuBytes() const;
  std::size_t pass1Runs() const;  // branch pass-1 dispatches so far
  std::size_t pass2Runs() const;

 private:
  struct Impl;
  explicit GpuDecodedLift(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace riglens::render
