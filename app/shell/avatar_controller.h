// AvatarController (controller.avatar): a VRM avatar's expressions and
// humanoid bones (core/gltf/vrm.h) for the Expression and Scene panels.
// Each expression is a weight, 0 to 1, that drives the morph targets it
// binds (the open rig's controller evaluates them as three-vrm does).
// Handed the open Document (setDocument); reports by ReportingController's
// signals (posed after every change). GUI thread.
#pragma once

#include <QtCore/QObject>
#include <QtCore/QVariant>

#include "qml_owned.h"
#include "reporting_controller.h"

namespace riglens::app {

class Document;

class AvatarController : public ReportingController {
  Q_OBJECT
  RIGLENS_QML_OWNED_BY_CONTROLLER
  Q_PROPERTY(bool active READ active NOTIFY avatarChanged)
  Q_PROPERTY(QString version READ version NOTIFY avatarChanged)  // "0.x" or "1.0"; "" without an avatar
  // [{name, preset (bool), binary (bool), binds (int), value}], the file's order.
  Q_PROPERTY(QVariantList expressions READ expressions NOTIFY expressionsChanged)
  // [{bone, node (the glTF node's name), nodeIndex}], the file's order.
  Q_PROPERTY(QVariantList humanoid READ humanoid NOTIFY avatarChanged)
  Q_PROPERTY(int mtoonMaterials READ mtoonMaterials NOTIFY avatarChanged)

 public:
  using ReportingController::ReportingController;

  void setDocument(Document* document);  // the open model; null: none
  bool active() const;
  QString version() const;
  QVariantList expressions() const;
  QVariantList humanoid() const;
  int mtoonMaterials() const;

  // False (and the banner says why) for an unknown expression or a weight that is no number.
  Q_INVOKABLE bool setExpression(const QString& name, double weight);
  Q_INVOKABLE void resetExpressions();

 signals:
  void avatarChanged();
  void expressionsChanged();

 private:
  Document* m_doc = nullptr;
};

}  // namespace riglens::app
