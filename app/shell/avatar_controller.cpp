#include "avatar_controller.h"

#include "document.h"

namespace riglens::app {

void AvatarController::setDocument(Document* document) {
  m_doc = document;
  emit avatarChanged();
  emit expressionsChanged();
}

bool AvatarController::active() const {
  return m_doc && m_doc->run()->gltf.vrm.has_value();
}

QString AvatarController::version() const {
  if (!active()) return {};
  return m_doc->run()->gltf.vrm->majorVersion == 0 ? QStringLiteral("0.x") : QStringLiteral("1.0");
}

QVariantList AvatarController::expressions() const {
  QVariantList list;
  if (!active()) return list;
  const auto& expressions = m_doc->run()->gltf.vrm->expressions;
  const std::vector<double>& values = m_doc->controller().expressionValues();
  for (std::size_t e = 0; e < expressions.size(); ++e)
    list.append(QVariantMap{{QStringLiteral("name"), QString::fromStdString(expressions[e].name)},
                            {QStringLiteral("preset"), expressions[e].preset},
                            {QStringLiteral("binary"), expressions[e].binary},
                            {QStringLiteral("binds"), int(expressions[e].binds.size())},
                            {QStringLiteral("value"), e < values.size() ? values[e] : 0.0}});
  return list;
}

QVariantList AvatarController::humanoid() const {
  QVariantList list;
  if (!active()) return list;
  const core::GltfScene& scene = m_doc->run()->gltf;
  for (const core::VrmHumanBone& bone : scene.vrm->humanoid)
    list.append(QVariantMap{{QStringLiteral("bone"), QString::fromStdString(bone.bone)},
                            {QStringLiteral("node"), QString::fromStdString(scene.nodes[std::size_t(bone.node)].name)},
                            {QStringLiteral("nodeIndex"), bone.node}});
  return list;
}

int AvatarController::mtoonMaterials() const {
  return active() ? int(m_doc->run()->gltf.vrm->mtoonMaterials.size()) : 0;
}

bool AvatarController::setExpression(const QString& name, double weight) {
  if (!m_doc) return false;
  if (auto ok = m_doc->controller().setExpression(name.toStdString(), weight); !ok) {
    emit errorReported(QString::fromStdString(ok.error().message));
    return false;
  }
  emit posed();
  emit expressionsChanged();
  return true;
}

void AvatarController::resetExpressions() {
  if (!m_doc) return;
  m_doc->controller().resetExpressions();
  emit posed();
  emit expressionsChanged();
}

}  // namespace riglens::app
