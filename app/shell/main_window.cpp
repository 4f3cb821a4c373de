#include "main_window.h"

#include <QtGui/QIcon>
#include <QtGui/QSurfaceFormat>
#include <QtQml/QQmlApplicationEngine>
#include <QtQml/QQmlComponent>
#include <QtQuick/QQuickWindow>
#include <QtQuickControls2/QQuickStyle>

#include "app_controller.h"
#include "app_types.h"

namespace riglens::app {

QQuickWindow* createMainWindow(QQmlApplicationEngine& engine, AppController& controller, QString* error) {
  registerAppTypes();
  // Fusion with the dark palette Main.qml sets: plain, dense, readable on 3D.
  if (QQuickStyle::name().isEmpty()) QQuickStyle::setStyle(QStringLiteral("Fusion"));
  // 4x MSAA for the window (and so the viewport the engine draws into),
  // on every QRhi backend; a device without it falls back to 1 sample.
  QSurfaceFormat format = QSurfaceFormat::defaultFormat();
  format.setSamples(4);
  QSurfaceFormat::setDefaultFormat(format);
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
  if (window) window->setIcon(QIcon(QStringLiteral(":/riglens/icons/riglens.svg")));
  if (!window && error) {
    *error = warnings.isEmpty() ? QStringLiteral("qrc:/RigLens/Main.qml did not create a window") : warnings.join('\n');
  }
  return window;
}

}  // namespace riglens::app
