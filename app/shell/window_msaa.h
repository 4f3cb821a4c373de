// The main window's multisampling: 4x on a GPU, 1 on a software rasteriser.
//
// Measured on this project's 2-core CI machine (llvmpipe through GLX, tank
// sample, 1280x800, 3 runs each): 4x window MSAA makes the viewer's cold
// start 0.99-1.22 s instead of 0.74-0.83 s (the driver clears the
// multisampled back buffer when the context is made current, and every frame
// resolves it), holds 30 MB more, and --screenshot's grab shows no
// antialiasing either way (Qt Quick re-renders the grab single-sampled). On a
// GPU the same 4x is close to free, so it stays the default there.
#pragma once

#include <memory>

#include "graphics_backend.h"

class QQuickWindow;

namespace riglens::app {

// On Vulkan the device type is already known (graphics_backend.h asked the
// instance the window draws with). On OpenGL it asks the driver for its
// renderer's name on a worker thread, so the question costs nothing while the
// QML engine builds the window. Any other API keeps 4x.
class WindowMsaa {
 public:
  // `requested` > 0 (the viewer's --samples) skips the question.
  explicit WindowMsaa(const GraphicsBackend& backend, int requested = 0);
  ~WindowMsaa();
  WindowMsaa(const WindowMsaa&) = delete;
  WindowMsaa& operator=(const WindowMsaa&) = delete;

  // Waits for the answer (once) and sets the window's sample count; call
  // before the window is shown.
  void applyTo(QQuickWindow* window);
  int count();

 private:
  struct Probe;
  int m_requested;
  bool m_cpuDevice = false;  // known up front (Vulkan)
  std::unique_ptr<Probe> m_probe;
};

// "llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe", "SwiftShader Device", ...
bool isSoftwareRasteriserName(const char* rendererName);

}  // namespace riglens::app
