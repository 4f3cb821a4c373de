// ReportingController: what a sub-controller (playback, export, character)
// tells the app, as signals. AppController connects each one once
// (AppController::adopt) to its banner, status line, Problems panel and pose
// notification; no sub-controller includes app_controller.h or calls back
// into its owner, and a new controller reports the same way by deriving
// from this. GUI thread.
#pragma once

#include <QtCore/QObject>
#include <QtCore/QString>

#include "riglens/core/base/diagnostic.h"

namespace riglens::app {

class ReportingController : public QObject {
  Q_OBJECT

 public:
  using QObject::QObject;

 signals:
  void errorReported(const QString& message);                      // the banner
  void errorCleared();                                             // what the banner said is settled
  void statusReported(const QString& message);                     // the status line
  void problemsFound(const riglens::core::Diagnostics& problems);  // added to the Problems panel
  void posed();  // the open rig's pose changed: the viewport and the Joints panel follow
};

}  // namespace riglens::app
