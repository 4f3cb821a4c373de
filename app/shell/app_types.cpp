#include "app_types.h"

#include <QtQml/QQmlEngine>

#include "app_controller.h"
#include "scene_viewport_item.h"

namespace riglens::app {

void registerAppTypes() {
  static bool done = false;
  if (done) return;
  done = true;
  qmlRegisterType<SceneViewportItem>("RigLens.Engine", 1, 0, "SceneViewport");
  // The controllers and models reach QML as typed properties of the
  // AppController, so bindings to them can be checked; QML never creates one.
  const char* owned = "owned by the AppController";
  qmlRegisterUncreatableType<AppController>("RigLens.Engine", 1, 0, "AppController", owned);
  qmlRegisterUncreatableType<PlaybackController>("RigLens.Engine", 1, 0, "PlaybackController",
                                                 owned);
  qmlRegisterUncreatableType<ExportController>("RigLens.Engine", 1, 0, "ExportController", owned);
  qmlRegisterUncreatableType<CharacterController>("RigLens.Engine", 1, 0, "CharacterController",
                                                  owned);
  qmlRegisterUncreatableType<PartListModel>("RigLens.Engine", 1, 0, "PartListModel", owned);
  qmlRegisterUncreatableType<JointListModel>("RigLens.Engine", 1, 0, "JointListModel", owned);
  qmlRegisterUncreatableType<AnimationListModel>("RigLens.Engine", 1, 0, "AnimationListModel",
                                                 owned);
  qmlRegisterUncreatableType<ProblemListModel>("RigLens.Engine", 1, 0, "ProblemListModel", owned);
}

}  // namespace riglens::app
