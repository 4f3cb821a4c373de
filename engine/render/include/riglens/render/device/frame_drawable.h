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

// Which passes of a splat frame run: all of them normally; benchmarks time
// frames cut after each pass to break one frame down per pass (Qt 6.4's
// QRhi has no GPU timestamps to read back).
struct SplatPasses {
  bool rig = true;      // characters: GNM + lift (when the controls changed)
  bool project = true;  // projection (3D -> 2D conic, culling, depth keys)
  bool sort = true;     // radix sort of the keys
  bool raster = true;   // blended quads
};

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
