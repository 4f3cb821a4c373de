#include "window_msaa.h"

#include <QtGui/QOffscreenSurface>
#include <QtGui/QOpenGLContext>
#include <QtGui/QOpenGLFunctions>
#include <QtGui/QSurfaceFormat>
#include <QtQuick/QQuickWindow>
#include <cstring>
#include <thread>

namespace riglens::app {

namespace {

constexpr int kGpuSamples = 4;

bool usesOpenGl(const GraphicsBackend& backend) {
  // A platform without OpenGL says no here, or fails the context's create().
  return backend.api == QLatin1String("opengl") && QOpenGLContext::supportsThreadedOpenGL();
}

}  // namespace

bool isSoftwareRasteriserName(const char* rendererName) {
  if (!rendererName) return false;
  for (const char* name :
       {"llvmpipe", "softpipe", "Software Rasterizer", "SwiftShader", "GDI Generic", "Microsoft Basic Render Driver"})
    if (std::strstr(rendererName, name)) return true;
  return false;
}

// The offscreen surface is made on the GUI thread (Qt requires it), the
// context on the worker, which also destroys it.
struct WindowMsaa::Probe {
  QOffscreenSurface surface;
  std::thread worker;
  bool software = false;

  Probe() {
    surface.create();
    worker = std::thread([this] {
      QOpenGLContext context;
      if (!context.create() || !context.makeCurrent(&surface)) return;
      software = isSoftwareRasteriserName(reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER)));
      context.doneCurrent();
    });
  }
  ~Probe() {
    if (worker.joinable()) worker.join();
  }
};

WindowMsaa::WindowMsaa(const GraphicsBackend& backend, int requested)
    : m_requested(requested), m_cpuDevice(backend.api == QLatin1String("vulkan") && backend.cpuDevice) {
  if (m_requested <= 0 && usesOpenGl(backend)) m_probe = std::make_unique<Probe>();
}

WindowMsaa::~WindowMsaa() = default;

int WindowMsaa::count() {
  if (m_requested > 0) return m_requested;
  if (m_cpuDevice) return 1;
  if (!m_probe) return kGpuSamples;
  if (m_probe->worker.joinable()) m_probe->worker.join();
  return m_probe->software ? 1 : kGpuSamples;
}

void WindowMsaa::applyTo(QQuickWindow* window) {
  QSurfaceFormat format = window->requestedFormat();
  format.setSamples(count());
  window->setFormat(format);
}

}  // namespace riglens::app
