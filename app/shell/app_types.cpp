#include "app_types.h"

#include <QtQml/QQmlEngine>

#include "rig_viewport_item.h"

namespace riglens::app {

void registerAppTypes() {
  static bool done = false;
  if (done) return;
  done = true;
  qmlRegisterType<RigViewportItem>("RigLens.Engine", 1, 0, "RigViewport");
}

}  // namespace riglens::app
