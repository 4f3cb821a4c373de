// Splat-character compute on the GPU through QRhi (Vulkan; GL with compute):
//
//  GpuGnm    the GNM rig pass (shaders/gnm.comp): the fp16 vertex-major basis
//            and the static arrays uploaded once; per frame the active
//            coefficients (only the non-zero ones are visited), gaze
//            rotations, flags and the joint skin matrices (bindTransform
//            folded in); writes the posed vertices (V*3 floats, metres) into
//            a storage buffer the lift reads. init (create) -> (setControls
//            -> encode)* -> destroy; encode records into the frame's command
//            buffer. GnmRoute::Cpu poses on the CPU instead (core::gnmPose,
//            both cores) and uploads the posed vertices into the same buffer:
//            on a software rasteriser the CPU's own code is 10-50x faster
//            than the shader run by it (docs/benchmarks.md).
//  GpuLift   the debug vertex lift (shaders/lift.comp) into a splat sink
//            (riglens/render/gpu_lift.h).
//
// CPU references: core::gnmPose and core::debugLiftCpu; parity in tests/render.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/character/aosrig.h"
#include "riglens/core/character/debug_lift.h"
#include "riglens/core/character/gnm.h"
#include "riglens/render/character/gpu_lift.h"
#include "riglens/render/device/rhi_device.h"

class QRhiBuffer;
class QRhiCommandBuffer;

namespace riglens::render {

enum class GnmRoute { Gpu, Cpu };

// Cpu on software rasterisers, Gpu elsewhere; RIGLENS_GNM=gpu|cpu overrides (QA).
GnmRoute defaultGnmRoute(const RhiDevice& device);

class GpuGnm {
 public:
  ~GpuGnm();
  // groupSize: the kernel's workgroup size, one it is built with; 0 picks the
  // one that spreads the head's rows most evenly over the device's
  // multiprocessors (256 where the device does not say how many).
  static core::Expected<std::unique_ptr<GpuGnm>> create(RhiDevice& device, const core::AosRigPack& pack,
                                                        GnmRoute route = GnmRoute::Gpu, std::uint32_t groupSize = 0);

  // CPU side of a frame: validates and stages the controls and joints.
  core::Expected<void> setControls(std::span<const float> headExt, const core::GnmJointState& joints);
  // Records the uploads and the compute pass (outside any render pass).
  void encode(QRhiCommandBuffer* cb);
  // Submits the uploads staged so far (creation's included) into `cb` now,
  // so that no update batch is held into a later frame: a pass created in a
  // frame that does not encode it (a decoded character waiting for its first
  // decode) flushes in that frame.
  void flushUploads(QRhiCommandBuffer* cb);
  // One offscreen frame holding only this pass; returns when the GPU is done
  // (benchmarks, windowless tools).
  core::Expected<void> runOffscreenFrame();

  QRhiBuffer* posedBuffer() const;  // V*3 floats after encode
  // GnmRoute::Cpu: the posed vertices setControls computed (V*3 floats); empty on the GPU route.
  std::span<const float> cpuPosed() const;
  std::size_t vertexCount() const;
  BufferList buffers() const;  // every buffer this pass owns
  std::size_t gpuBytes() const;
  std::size_t activeCount() const;  // coefficients the last frame visits
  std::uint32_t groupSize() const;  // the kernel's workgroup size

 private:
  struct Impl;
  explicit GpuGnm(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

// One pose through the GPU pass, read back (parity checks, the CLI).
core::Expected<std::vector<float>> gnmPoseOnGpu(RhiDevice& device, const core::AosRigPack& pack,
                                                std::span<const float> headExt,
                                                const core::GnmJointState* joints = nullptr,
                                                std::uint32_t groupSize = 0);

}  // namespace riglens::render
