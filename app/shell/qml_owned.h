// The QML declaration of the objects the AppController owns and hands to QML
// as typed properties: known to QML (and qmllint) by their class name, never
// created by QML. One line in each class instead of two.
#pragma once

#include <QtQml/qqmlregistration.h>

#define RIGLENS_QML_OWNED_BY_CONTROLLER \
  QML_ELEMENT                           \
  QML_UNCREATABLE("owned by the AppController")
