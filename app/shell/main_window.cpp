#include "main_window.h"

#include <QtGui/QIcon>
#include <QtQml/QQmlApplicationEngine>
#include <QtQml/QQmlComponent>
#include <QtQuick/QQuickWindow>
#include <QtQuickControls2/QQuickStyle>

#include "app_controller.h"
#include "app_types.h"
#include "graphics_backend.h"
#include "window_msaa.h"

namespace riglens::app {

namespace {

// Qt Quick 6.4's renderer keeps the shader resource bindings of removed
// items for reuse, up to QSG_RENDERER_SRB_POOL_THRESHOLD (1024) of them, and
// takes one back only for an item with the same binding layout - so the
// pool fills with layouts the next document does not ask for. In the soak
// (tst_app_soak, six document changes a round, 2026-12-06) malloc's bytes in
// use grew 29 KB a round with the pool and about a sixth of that without
// it, and resident memory grew 21.5 MiB against 8.2 MiB over 500 rounds
// (docs/daily-use.md). Without the pool an item that appears makes its
// bindings anew; the viewer's panels add at most a few hundred items at a
// time. Read when the window's renderer starts; a value the user set wins.
void keepNoPooledBindings() {
  if (!qEnvironmentVariableIsSet("QSG_RENDERER_SRB_POOL_THRESHOLD")) qputenv("QSG_RENDERER_SRB_POOL_THRESHOLD", "0");
}

}  // namespace

QQuickWindow* createMainWindow(QQmlApplicationEngine& engine, AppController& controller, QString* error, int samples) {
  registerAppTypes();
  keepNoPooledBindings();
  // Before the window exists: the API it draws with (graphics_backend.h).
  const GraphicsBackend& backend = chooseGraphicsBackend();
  controller.setGraphics(backend.summary(), backend.reason);
  // Asked while the engine loads; the window is shown once it is set.
  WindowMsaa windowMsaa(backend, samples);
  // Fusion with the dark palette Main.qml sets: plain, dense, readable on 3D.
  if (QQuickStyle::name().isEmpty()) QQuickStyle::setStyle(QStringLiteral("Fusion"));
  QStringList warnings;
  const auto connection =
      QObject::connect(&engine, &QQmlEngine::warnings, &engine, [&warnings](const QList<QQmlError>& list) {
        for (const auto& e : list) warnings << e.toString();
      });
  // The panels in qml/common|rig|character import their own module by name
  // (RESOURCE_PREFIX /: it lives at qrc:/RigLens); Qt 6.4 does not search qrc:/.
  engine.addImportPath(QStringLiteral("qrc:/"));
  engine.setInitialProperties({{QStringLiteral("controller"), QVariant::fromValue(&controller)}});
  engine.load(QUrl(QStringLiteral("qrc:/RigLens/Main.qml")));
  QObject::disconnect(connection);
  QQuickWindow* window =
      engine.rootObjects().isEmpty() ? nullptr : qobject_cast<QQuickWindow*>(engine.rootObjects().constFirst());
  // The icon the .desktop file names (rendered by Qt's SVG icon engine).
  if (window) {
    window->setIcon(QIcon(QStringLiteral(":/riglens/icons/riglens.svg")));
    // MSAA for the window and so the viewport the engine draws into (a
    // device without it falls back to 1 sample): window_msaa.h says how
    // many. Main.qml leaves the window hidden for this.
    windowMsaa.applyTo(window);
    applyGraphicsBackend(backend, window);
    window->show();
  }
  if (!window && error) {
    *error = warnings.isEmpty() ? QStringLiteral("qrc:/RigLens/Main.qml did not create a window") : warnings.join('\n');
  }
  return window;
}

}  // namespace riglens::app
