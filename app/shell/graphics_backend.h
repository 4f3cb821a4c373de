// Which graphics API the viewer's window draws with, chosen before the first
// window: what the user asked for (--backend, which sets QSG_RHI_BACKEND, or
// QSG_RHI_BACKEND itself), else Vulkan when this machine has a Vulkan device,
// else OpenGL. Qt Quick alone would take OpenGL on Linux, where the character
// passes were never the first target; Vulkan is the viewer's primary backend
// (DESIGN.md), and a machine without it still views rigs on OpenGL and runs
// characters there when the driver has compute shaders. GUI thread.
#pragma once

#include <QtCore/QString>

class QQuickWindow;
class QVulkanInstance;

namespace riglens::app {

struct GraphicsBackend {
  QString api;                        // "vulkan", "opengl", or what QSG_RHI_BACKEND names otherwise
  QString device;                     // Vulkan: the device's name; empty where not known before drawing
  bool cpuDevice = false;             // Vulkan: a software rasteriser (lavapipe)
  QString reason;                     // why this API: "asked for (QSG_RHI_BACKEND)", "a Vulkan device was found", ...
  QVulkanInstance* vulkan = nullptr;  // the instance the window draws with (Vulkan only)

  // "Vulkan on llvmpipe (LLVM 15.0.6, 256 bits)", "OpenGL"
  QString summary() const;
};

// Decides once per application (the first call tells Qt Quick; later calls
// return the same choice). Call after the QGuiApplication, before any window.
const GraphicsBackend& chooseGraphicsBackend();

// Makes a window draw with the chosen API's instance; before it is shown.
void applyGraphicsBackend(const GraphicsBackend& backend, QQuickWindow* window);

}  // namespace riglens::app
