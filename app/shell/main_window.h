// Creating the main window from the RigLens QML module: shared by the
// riglens executable and the app tests so both load exactly the same UI.
#pragma once

#include <QtCore/QString>

class QQmlApplicationEngine;
class QQuickWindow;

namespace riglens::app {

class AppController;

// Loads qrc:/RigLens/Main.qml with `controller` as its required property.
// Shows the window with `samples` MSAA samples (0: WindowMsaa decides).
// Returns the window, or nullptr with `error` set to the QML errors.
QQuickWindow* createMainWindow(QQmlApplicationEngine& engine, AppController& controller, QString* error,
                               int samples = 0);

}  // namespace riglens::app
