// WindowRenderer: draws into a Qt Quick window's own frame, under the QML
// scene (Quick's QRhi, its swapchain, its main pass): a voxel rig
// (RigRenderer), a splat character (CharacterRenderer) and a static splat
// scene (SplatRenderer), stacked in that order so splats depth-test against
// the rig. Whatever is not set draws nothing. The app hands over the QRhi and
// swapchain pointers Qt Quick reports through QSGRendererInterface
// (RhiResource, RhiSwapchainResource) without including any QRhi header:
// only engine/render does.
//
// Threading: every call on Qt Quick's render thread (beforeRendering for
// prepare, beforeRenderPassRecording for record), the object destroyed there
// too (or when the scene graph is invalidated).
#pragma once

#include <QtCore/QRect>
#include <memory>
#include <string>

#include "riglens/core/rig/run_loader.h"
#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/render/character/character_renderer.h"
#include "riglens/render/device/drawable_stack.h"
#include "riglens/render/device/frame_state.h"
#include "riglens/render/rig/rig_renderer.h"
#include "riglens/render/splats/splat_renderer.h"

class QRhi;
class QRhiSwapChain;
class QVulkanInstance;

namespace riglens::render {

class WindowRenderer {
 public:
  // Borrowed from Qt Quick; `vulkan` is the window's instance (Vulkan), where known.
  explicit WindowRenderer(QRhi* rhi, QVulkanInstance* vulkan = nullptr);
  ~WindowRenderer();

  void setModel(std::shared_ptr<const core::LoadedRun> run);
  void setCharacter(std::shared_ptr<const core::AosRigPack> pack);
  void setCharacter(std::shared_ptr<const core::OrlCharacter> character);
  void setCharacterFrame(CharacterFrame frame);
  void setDecodedLayout(std::shared_ptr<const DecodedLayout> layout);
  void setDecodedOutputs(std::shared_ptr<const core::DecodedOutputs> outputs);
  void setCloud(std::shared_ptr<const core::GaussianCloud> cloud);
  // The owner's bounds of the character or splat scene (its bounding sphere).
  void setSplatBounds(const core::Bounds& bounds);

  // Compare (the viewer's File > Compare With...): a second run, drawn by a
  // rig renderer of its own into its own rectangle of the window (side by
  // side), or instead of the first (the overlay). Null: none.
  void setCompareModel(std::shared_ptr<const core::LoadedRun> run);
  struct CompareFrame {
    FrameState state;
    QRect viewport;
    bool replacesFirst = false;  // the overlay: the first document is not drawn
  };

  // Before the window's main pass: uploads, uniforms, skinning, the character
  // passes, the splat projection and sort; the compared run's, when given.
  bool prepare(QRhiSwapChain* swapchain, const FrameState& state, QRect viewport,
               const CompareFrame* compare = nullptr);
  // Inside the main pass, before the QML scene draws on top.
  void record(QRhiSwapChain* swapchain);
  // After the main pass (QQuickWindow::afterRendering): closes the frame's
  // GPU timing with the pass (the engine's draws and the QML on top).
  void finishFrame(QRhiSwapChain* swapchain);
  // Per-pass GPU times (GpuTimer) of the newest finished frame that ran more
  // than the draw (a redraw of an unchanged view only draws), and what it drew.
  FrameTimes gpuTimes() const;
  // What the newest frame that dispatched compute work asked of the GPU: its
  // submissions (the frame's own and any helper frame run since the frame
  // before) and dispatches; the newest frame's when none dispatched.
  GpuWork frameWork() const { return m_frameWork; }
  struct SplatStats {
    std::size_t splats = 0;        // gaussians drawn (the sink's capacity)
    std::string raster;            // "compute", "quads" or "cpu": what the last frame drew with
    double cpuMs = 0;              // "cpu": the CPU rasteriser's time for its last frame
    std::uint32_t tileKeys = 0;    // the compute tiles' keys (splat x tile pairs) of their last frame
    std::size_t sortedFrames = 0;  // frames that projected and sorted (the others redrew the last result)
  };
  SplatStats splatStats() const;

  bool supportsCompute() const;  // characters and splat scenes need it
  MemoryReport memoryReport() const;
  MemoryReport compareMemoryReport() const;  // the compared run's (empty when none)
  // The rig layer's current model: its upload and pipeline times so far, and
  // whether it is still uploading (a large model goes over several frames).
  RigRenderer::PrepareTimes rigPrepareTimes() const;
  bool rigUploading() const;
  // The character's passes, or the splat scene's buffers.
  CharacterMemory splatMemory() const;
  bool characterShowsDecoded() const;  // the last frame drew a decoded character
  std::string failure() const;         // why the last prepare failed
  int framesInFlight() const;          // how many frames QRhi records ahead of the GPU
  bool wantsAnotherFrame() const;      // a layer's frame is not final yet: schedule one more

 private:
  std::unique_ptr<RhiDevice> m_device;
  std::unique_ptr<RigRenderer> m_rig;
  std::unique_ptr<RigRenderer> m_compareRig;  // made when a compared run is first set
  bool m_compareModel = false;
  bool m_comparePrepared = false;
  QRect m_compareViewport;
  bool m_firstReplaced = false;
  std::unique_ptr<CharacterRenderer> m_character;
  std::unique_ptr<SplatRenderer> m_splats;
  std::shared_ptr<const core::GaussianCloud> m_cloud;
  DrawableStack m_stack;
  QRect m_viewport;
  bool m_prepared = false;
  mutable FrameTimes m_lastWorkTimes;
  GpuWork m_workBefore;  // the device's totals when the frame before ended
  GpuWork m_frameWork;
};

}  // namespace riglens::render
