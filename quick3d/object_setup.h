// Qt Quick 3D objects made in C++ rather than by the QML engine.
#pragma once

#include <QtQml/QQmlParserStatus>

namespace riglens::quick3d {

// A C++-made Quick 3D object must be told its QML set-up is complete, as the
// QML engine would.
template <class T>
T* completed(T* object) {
  QQmlParserStatus& status = *object;
  status.classBegin();
  status.componentComplete();
  return object;
}

}  // namespace riglens::quick3d
