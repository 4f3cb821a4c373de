// FrameDrawable: something that draws into a QRhi frame in two steps:
// prepare() outside any pass (uploads, uniforms, compute), record() inside
// the pass. RigRenderer (voxel rigs) and SplatRenderer (gaussians) are
// drawables; OffscreenCanvas and the app's viewport drive them.
#pragma once

#include <QtCore/QRect>
#include <QtCore/QSize>
#include <glm/vec4.hpp>
#include <string>

#include "riglens/render/device/frame_state.h"

class QRhiCommandBuffer;
class QRhiRenderPassDescriptor;
class QRhiTexture;

namespace riglens::render {

class FrameDrawable {
 public:
  virtual ~FrameDrawable() = default;
  virtual bool prepare(QRhiCommandBuffer* cb, QRhiRenderPassDescriptor* renderPass, int sampleCount, QSize outputSize,
                       const FrameState& state) = 0;
  virtual void record(QRhiCommandBuffer* cb, QRect viewport, QSize targetSize) = 0;
  // How many passes the drawable splits its drawing into on a target that
  // keeps its contents between passes (OffscreenCanvas; a window's frame is
  // one pass and calls record()). Asked after prepare(). A CPU rasteriser
  // keeps what it bins for a pass until the pass ends (lavapipe, large
  // sample at 4x MSAA: ~450 MB for 2.7M triangles in one pass, docs/benchmarks.md).
  virtual int passesWanted() const { return 1; }
  // Pass `pass` of passesWanted(): together they draw what record() draws.
  virtual void recordPass(QRhiCommandBuffer* cb, QRect viewport, QSize targetSize, int pass) {
    if (pass == 0) record(cb, viewport, targetSize);
  }
  // Whether the frame the last prepare() left is splats alone over the
  // background (a splat image drawn by compute or the CPU, nothing to
  // depth-test it against), which writeTarget() writes without a render
  // pass: OffscreenCanvas then begins none (no clear, no draw, no resolve;
  // on an H100 that pass is half of the sample character's GPU frame).
  virtual bool writesTarget() const { return false; }
  // Outside any pass: writes every pixel of `target` (RGBA8, made
  // UsedWithLoadStore, the output's size) as a pass cleared to `background`
  // and record() would leave it, at any sample count (the image is per
  // pixel, so every sample of a pixel holds its colour). False when the GPU
  // refused (failure()).
  virtual bool writeTarget(QRhiCommandBuffer*, QRhiTexture*, const glm::vec4& /*background*/) { return false; }
  // Why the last prepare() failed, when the drawable knows (empty otherwise).
  virtual std::string failure() const { return {}; }
  // The last frame is not final yet (a GPU result it depends on is on its way
  // back, or it showed the drawable needs more room): draw another.
  virtual bool wantsAnotherFrame() const { return false; }
  // The drawable is still uploading its data over several frames and drew
  // none of it: draw another (each such frame makes progress, so no limit).
  virtual bool uploading() const { return false; }
};

}  // namespace riglens::render
