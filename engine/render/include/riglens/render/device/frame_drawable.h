// FrameDrawable: something that draws into a QRhi frame in two steps:
// prepare() outside any pass (uploads, uniforms, compute), record() inside
// the pass. RigRenderer (voxel rigs) and SplatRenderer (gaussians) are
// drawables; OffscreenCanvas and the app's viewport drive them.
#pragma once

#include <QtCore/QRect>
#include <QtCore/QSize>
#include <string>

#include "riglens/render/device/frame_state.h"

class QRhiCommandBuffer;
class QRhiRenderPassDescriptor;

namespace riglens::render {

// Which passes of a splat frame run: all of them normally; benchmarks cut
// frames after a pass to see what the rest costs (GpuTimer gives each pass's
// own GPU time on Vulkan).
struct SplatPasses {
  bool rig = true;      // characters: GNM + lift (when the controls changed)
  bool project = true;  // projection (3D -> 2D conic, culling, sort keys)
  bool sort = true;     // radix sort of the keys
  bool raster = true;   // the blended quads, or the tiles of the compute rasteriser
};

// How splats reach the pixels. Compute: tiles blended front to back in a
// compute pass with early termination, then drawn over the frame in one
// triangle; Quads: one alpha-blended quad per splat, back to front, through
// the hardware rasteriser. Compute is the default on every device: it was
// faster on both lavapipe and the NVIDIA H200 (bench_render BM_SplatFrame,
// numbers in docs/benchmarks.md).
enum class SplatRaster { Compute, Quads };
const char* splatRasterName(SplatRaster raster);  // "compute", "quads"

class FrameDrawable {
 public:
  virtual ~FrameDrawable() = default;
  virtual bool prepare(QRhiCommandBuffer* cb, QRhiRenderPassDescriptor* renderPass, int sampleCount, QSize outputSize,
                       const FrameState& state) = 0;
  virtual void record(QRhiCommandBuffer* cb, QRect viewport, QSize targetSize) = 0;
  // Why the last prepare() failed, when the drawable knows (empty otherwise).
  virtual std::string failure() const { return {}; }
};

}  // namespace riglens::render
