#include "graphics_backend.h"

#include <QtCore/QCoreApplication>
#include <QtQuick/QQuickWindow>
#include <QtQuick/QSGRendererInterface>
#include <optional>

#include "riglens/render/device/vulkan_probe.h"

namespace riglens::app {

namespace {

std::optional<GraphicsBackend> g_choice;  // GUI thread; reset with the application

GraphicsBackend decide() {
  GraphicsBackend choice;
  const QString asked = QString::fromLocal8Bit(qgetenv("QSG_RHI_BACKEND")).trimmed().toLower();
  if (!asked.isEmpty()) {
    // Qt reads the variable itself; "gl" is its other name for OpenGL.
    choice.api = asked == QLatin1String("gl") ? QStringLiteral("opengl") : asked;
    choice.reason = QStringLiteral("asked for (QSG_RHI_BACKEND or --backend)");
  }
  if (choice.api.isEmpty() || choice.api == QLatin1String("vulkan")) {
    const render::VulkanProbe& vulkan = render::probeVulkan();
    if (vulkan.instance) {
      choice.vulkan = vulkan.instance.get();
      choice.device = QString::fromStdString(vulkan.deviceName);
      choice.cpuDevice = vulkan.cpuDevice;
      if (choice.api.isEmpty()) {
        choice.api = QStringLiteral("vulkan");
        choice.reason = QStringLiteral("a Vulkan device was found");
      }
    } else if (choice.api.isEmpty()) {
      choice.api = QStringLiteral("opengl");
      choice.reason = QStringLiteral("no Vulkan: %1").arg(QString::fromStdString(vulkan.why));
    } else {
      choice.reason += QStringLiteral("; but %1").arg(QString::fromStdString(vulkan.why));
    }
  }
  return choice;
}

}  // namespace

QString GraphicsBackend::summary() const {
  const QString name = api == QLatin1String("vulkan")   ? QStringLiteral("Vulkan")
                       : api == QLatin1String("opengl") ? QStringLiteral("OpenGL")
                                                        : api;
  return device.isEmpty() ? name : QStringLiteral("%1 on %2").arg(name, device);
}

const GraphicsBackend& chooseGraphicsBackend() {
  if (!g_choice) {
    g_choice = decide();
    // Only the two APIs RigLens draws with are set here; anything else the
    // variable names is Qt's to honour (or refuse) as it would without us.
    if (g_choice->api == QLatin1String("vulkan"))
      QQuickWindow::setGraphicsApi(QSGRendererInterface::Vulkan);
    else if (g_choice->api == QLatin1String("opengl"))
      QQuickWindow::setGraphicsApi(QSGRendererInterface::OpenGL);
    qAddPostRoutine([] { g_choice.reset(); });
  }
  return *g_choice;
}

void applyGraphicsBackend(const GraphicsBackend& backend, QQuickWindow* window) {
  if (backend.api == QLatin1String("vulkan") && backend.vulkan) window->setVulkanInstance(backend.vulkan);
}

}  // namespace riglens::app
