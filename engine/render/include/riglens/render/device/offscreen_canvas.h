// OffscreenCanvas: a windowless render target (MSAA colour + depth, resolved
// into a texture) that RigRenderer draws into and that reads back as a
// QImage. Used by `riglens-cli render` and the render tests. A frame of
// splats alone (FrameDrawable::writesTarget) is written into the texture by
// compute, with no render pass.
#pragma once

#include <QtCore/QSize>
#include <QtGui/QImage>
#include <functional>
#include <memory>

#include "riglens/core/base/expected.h"
#include "riglens/render/device/frame_drawable.h"
#include "riglens/render/device/frame_state.h"
#include "riglens/render/device/rhi_device.h"

class QRhiCommandBuffer;
class QRhiResourceUpdateBatch;

namespace riglens::render {

class OffscreenCanvas {
 public:
  ~OffscreenCanvas();

  // `samples` 0 picks 4x MSAA when the device supports it, else 1.
  static core::Expected<std::unique_ptr<OffscreenCanvas>> create(RhiDevice& device, QSize size, int samples = 0);

  // One frame: prepare, clear to the state's background, draw, read back.
  // The image is RGBA, top row first, sRGB-encoded.
  core::Expected<QImage> render(FrameDrawable& renderer, const FrameState& state);

  // One frame without the readback (benchmarks): returns when the GPU is done.
  core::Expected<void> renderWithoutReadback(FrameDrawable& renderer, const FrameState& state);

  // CPU wall time of the last render's steps (`riglens-cli render --timings`),
  // summed over its frames (a large model uploads over several): the
  // renderer's prepare, recording and submitting until the GPU is done
  // (waited), and copying the read-back pixels into the QImage.
  struct FrameTimes {
    double prepareMs = 0, gpuMs = 0, readbackMs = 0;
  };
  FrameTimes lastFrameTimes() const { return m_times; }

  // Called between the frames of a render while the drawable is still
  // uploading (a large model, part by part), after that frame's copies were
  // released: an owner may free what has already gone to the GPU.
  void setBetweenUploadFrames(std::function<void()> hook) { m_betweenUploadFrames = std::move(hook); }

  // Whether frames of splats alone are written without a render pass (on by
  // default where the device has compute). Off, every frame is a pass, as a
  // window's frame is (benchmarks, and the tests comparing the two).
  void setWritesWithoutPass(bool on) { m_writesWithoutPass = on; }
  bool lastFrameHadPass() const { return m_lastHadPass; }

  QSize size() const { return m_size; }
  int sampleCount() const { return m_samples; }
  std::size_t textureBytes() const;  // colour, resolve and depth attachments

 private:
  struct Impl;
  OffscreenCanvas(RhiDevice& device, QSize size, int samples);
  core::Expected<void> frame(FrameDrawable& renderer, const FrameState& state, QImage* out);
  // The frames one render takes: until the renderer has uploaded, and the
  // redraws it asks for.
  core::Expected<void> frames(FrameDrawable& renderer, const FrameState& state, QImage* out);
  // The frame's drawing: written without a pass where the drawable can, else
  // its pass or passes; `batch` (the read-back, may be null) after it.
  bool draw(QRhiCommandBuffer* cb, FrameDrawable& renderer, const FrameState& state, QRhiResourceUpdateBatch* batch);

  RhiDevice& m_device;
  QSize m_size;
  int m_samples = 1;
  std::unique_ptr<Impl> m_impl;
  FrameTimes m_times;
  bool m_writesWithoutPass = true;
  bool m_lastHadPass = true;
  std::function<void()> m_betweenUploadFrames;
};

}  // namespace riglens::render
