// Creating the main window from the RigLens QML module: shared by the
// riglens executable and the app tests so both load exactly the same UI.
#pragma once

#include <QtCore/QString>
#include <memory>

class QQmlApplicationEngine;
class QQmlComponent;
class QQuickWindow;

namespace riglens::app {

class AppController;

// Optional first step: compiles Main.qml and every type it imports into the
// engine's cache - none of it depends on the graphics API, so the viewer
// compiles while the Vulkan drivers load (render/device/vulkan_driver_warm_up.h).
// Keep the component until createMainWindow has run; errors surface there.
std::unique_ptr<QQmlComponent> compileMainWindow(QQmlApplicationEngine& engine);

// Loads qrc:/RigLens/Main.qml with `controller` as its required property.
// Shows the window with `samples` MSAA samples (0: WindowMsaa decides).
// Returns the window, or nullptr with `error` set to the QML errors.
QQuickWindow* createMainWindow(QQmlApplicationEngine& engine, AppController& controller, QString* error,
                               int samples = 0);

}  // namespace riglens::app
