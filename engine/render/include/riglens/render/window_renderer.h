// WindowRenderer: draws a RigRenderer into a Qt Quick window's own frame,
// under the QML scene (Quick's QRhi, its swapchain, its main pass). The app
// hands over the QRhi and swapchain pointers Qt Quick reports through
// QSGRendererInterface (RhiResource, RhiSwapchainResource) without including
// any QRhi header: only engine/render does.
//
// Threading: every call on Qt Quick's render thread (beforeRendering for
// prepare, beforeRenderPassRecording for record), the object destroyed there
// too (or when the scene graph is invalidated).
#pragma once

#include <memory>

#include <QtCore/QRect>

#include "riglens/core/run_loader.h"
#include "riglens/render/frame_state.h"
#include "riglens/render/rig_renderer.h"

class QRhi;
class QRhiSwapChain;

namespace riglens::render {

class WindowRenderer {
 public:
  explicit WindowRenderer(QRhi* rhi);  // borrowed from Qt Quick
  ~WindowRenderer();

  void setModel(std::shared_ptr<const core::LoadedRun> run);

  // Before the window's main pass: uploads, uniforms, skinning.
  bool prepare(QRhiSwapChain* swapchain, const FrameState& state, QRect viewport);
  // Inside the main pass, before the QML scene draws on top.
  void record(QRhiSwapChain* swapchain);

  MemoryReport memoryReport() const;

 private:
  std::unique_ptr<RhiDevice> m_device;
  std::unique_ptr<RigRenderer> m_renderer;
  QRect m_viewport;
  bool m_prepared = false;
};

}  // namespace riglens::render
