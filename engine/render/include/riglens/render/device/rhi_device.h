// RhiDevice: a QRhi the engine can render and compute with, either created
// here for windowless work (CLI, tests) or borrowed from Qt Quick's window.
//
// Threading: a device and everything created from it are used on the thread
// that created it (the render thread in the app, the main thread elsewhere).
// This header is public and free of QRhi's private headers so that app/ and
// tests can hold a device; the QRhi itself is reached only inside
// engine/render.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "riglens/core/base/expected.h"
#include "riglens/render/device/gpu_timer.h"

class QByteArray;
class QRhi;
class QRhiCommandBuffer;
class QVulkanInstance;
struct QRhiBufferReadbackResult;

namespace riglens::render {

enum class Backend { Vulkan, OpenGL };

const char* backendName(Backend backend);

class RhiDevice {
 public:
  ~RhiDevice();
  RhiDevice(const RhiDevice&) = delete;
  RhiDevice& operator=(const RhiDevice&) = delete;

  // A windowless device. Vulkan needs a Vulkan driver (lavapipe on headless
  // machines) and works on QT_QPA_PLATFORM=vkkhrdisplay; OpenGL needs a display
  // (Xvfb on headless machines). The error says which step failed and why.
  static core::Expected<std::unique_ptr<RhiDevice>> createOffscreen(Backend backend);

  // Wraps a QRhi owned by someone else (Qt Quick); it is not destroyed here.
  // `vulkan`: the instance it was made from (the window's), where known: the
  // subgroup kernels need to know it asked for Vulkan 1.1.
  static std::unique_ptr<RhiDevice> borrow(QRhi* rhi, QVulkanInstance* vulkan = nullptr);

  QRhi* rhi() const { return m_rhi; }
  Backend backend() const;
  bool supportsCompute() const;
  std::string deviceName() const;  // "llvmpipe (LLVM 15.0.6)" on lavapipe
  bool isCpuDevice() const;        // a software rasteriser (lavapipe, llvmpipe, SwiftShader)
  // Invocations per subgroup of a compute kernel with subgroup ballots and
  // scans (Vulkan 1.1); 0 where there are none (OpenGL, older devices).
  int subgroupLanes() const;
  // Multiprocessors (NVIDIA's SMs) where the Vulkan driver says; 0 where
  // unknown. Launch shapes that balance work over them use it (GNM).
  int multiprocessors() const;

  // One windowless frame whose command buffer `record` fills (passes that
  // chain on the GPU, e.g. GpuGnm then a lift); returns when the GPU is done.
  core::Expected<void> runOffscreen(const std::function<void(QRhiCommandBuffer*)>& record);
  // Per-pass GPU times of this device's frames (Vulkan; "not available" elsewhere).
  GpuTimer& timer() { return *m_timer; }
  // A read-back result the device keeps until QRhi has filled it, so a pass
  // may go away while its read-back is in flight; `done` gets the bytes on
  // the device's thread (capture what outlives the pass, not the pass).
  QRhiBufferReadbackResult* keepReadback(std::function<void(const QByteArray&)> done);
  // Whether passes may read results back every frame. Only on devices made
  // here: in Qt Quick's frames (a borrowed QRhi) Qt 6.4 frees a buffer
  // read-back twice when the window is grabbed (QQuickWindow::grabWindow
  // finishes the frame early), and the app crashed.
  bool readsBackEveryFrame() const { return m_owned != nullptr; }
  // Between frames, on a device made here: lets go of the copies Qt 6.4 keeps
  // of uploaded data. Its update batches keep every upload's bytes for reuse
  // until the batch is taken again, and the pool hands out batches in turn,
  // so a model uploaded over several frames stayed in memory once more
  // (228 MB on the large sample) until QRhi::releaseCachedResources trims
  // the idle batches. That may also clear the pipeline cache (OpenGL), so
  // what it held is kept for the file written at exit.
  void releaseUploadCopies();

 private:
  struct Owned;
  RhiDevice(std::unique_ptr<Owned> owned, QRhi* rhi, QVulkanInstance* vulkan);

  struct Readbacks;
  std::unique_ptr<Readbacks> m_readbacks;  // before m_owned: outlives the QRhi that fills them
  std::unique_ptr<Owned> m_owned;          // instance/surface + QRhi when created here
  QRhi* m_rhi = nullptr;
  QVulkanInstance* m_vulkan = nullptr;  // the QRhi's instance where known (Vulkan)
  std::unique_ptr<GpuTimer> m_timer;    // after m_owned: destroyed before the QRhi
};

}  // namespace riglens::render
