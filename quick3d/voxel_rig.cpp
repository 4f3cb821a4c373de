#include "voxel_rig.h"

#include <QtQuick3D/private/qquick3dcustommaterial_p.h>
#include <QtQuick3D/private/qquick3ddefaultmaterial_p.h>
#include <QtQuick3D/private/qquick3dmodel_p.h>

#include <QtCore/QAbstractAnimation>
#include <QtCore/QFileInfo>
#include <algorithm>
#include <cmath>

#define GLM_ENABLE_EXPERIMENTAL
#include <glm/gtc/quaternion.hpp>
#include <glm/gtx/matrix_decompose.hpp>

#include "part_geometry.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/rig_spec.h"
#include "riglens/core/rig/rig_tints.h"
#include "riglens/core/rig/run_loader.h"

namespace riglens::quick3d {

// Qt Quick's frame clock: an endless animation, ticked by the animation
// driver Qt Quick installs (once per frame of the window that shows it).
class RigClock : public QAbstractAnimation {
 public:
  explicit RigClock(std::function<void(double)> tick) : m_tick(std::move(tick)) {}
  int duration() const override { return -1; }

 protected:
  void updateCurrentTime(int ms) override {
    const int dt = ms - m_last;
    m_last = ms;
    if (dt > 0) m_tick(dt / 1000.0);
  }
  void updateState(State newState, State) override {
    if (newState == Running) m_last = currentTime();
  }

 private:
  std::function<void(double)> m_tick;
  int m_last = 0;
};

namespace {

// A C++-made Quick 3D object must be told its QML set-up is complete, as the
// QML engine would.
template <class T>
T* completed(T* object) {
  QQmlParserStatus& status = *object;
  status.classBegin();
  status.componentComplete();
  return object;
}

// A linear colour as the sRGB QColor Qt Quick 3D expects (it converts back).
QColor srgb(const glm::vec3& linear) {
  const auto encode = [](float c) {
    c = std::clamp(c, 0.0f, 1.0f);
    return c <= 0.0031308f ? c * 12.92f : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
  };
  return QColor::fromRgbF(encode(linear.r), encode(linear.g), encode(linear.b));
}

// The viewer's highlight colour at its mix weight, as a glow.
const QVector3D kHighlightGlow =
    QVector3D(core::kHighlightColor.r, core::kHighlightColor.g, core::kHighlightColor.b) * core::kHighlightColor.a;

std::filesystem::path localPath(const QUrl& url) {
  const QString path = url.isLocalFile() ? url.toLocalFile() : url.toString();
  return std::filesystem::path(path.toStdString());
}

}  // namespace

VoxelRig::VoxelRig(QQuick3DNode* parent)
    : QQuick3DNode(parent), m_clock(std::make_unique<RigClock>([this](double dt) { tick(dt); })) {}

VoxelRig::~VoxelRig() = default;

void VoxelRig::setSource(const QUrl& source) {
  if (source == m_source) return;
  m_source = source;
  emit sourceChanged();
  load();
}

void VoxelRig::fail(const QString& message) {
  m_status = Error;
  m_error = message;
  emit statusChanged();
}

// A bad file keeps what was shown: only a successful load replaces it.
void VoxelRig::load() {
  if (m_source.isEmpty()) return;
  auto loaded = core::loadRun(localPath(m_source));
  if (!loaded) return fail(QString::fromStdString(loaded.error().message));
  if (loaded->kind == core::RunKind::SkinnedMesh)
    return fail(QStringLiteral("%1: skinned meshes are not supported by this version of RigLens.Quick3D")
                    .arg(QString::fromStdString(loaded->source.string())));
  auto run = std::make_shared<core::LoadedRun>(std::move(*loaded));
  stop();
  clearNodes();
  m_run = std::move(run);
  m_controller = std::make_unique<core::RigController>(m_run->rig, &m_run->gltf);
  buildNodes();
  m_status = Ready;
  m_error.clear();
  emit statusChanged();
  emit modelChanged();
  emit timeChanged();
  applyPose();
  if (m_running) m_clock->start();
}

void VoxelRig::clearNodes() {
  for (QQuick3DNode* node : m_partNodes) {
    node->setParentItem(nullptr);
    node->deleteLater();
  }
  m_partNodes.clear();
  m_partModels.clear();
  m_partMaterials.clear();
}

// One node per part under its parent's (the rig's roots under this node),
// each with a Model of the part's geometry unless it is a socket.
void VoxelRig::buildNodes() {
  const auto& parts = m_run->rig.parts();
  m_partNodes.assign(parts.size(), nullptr);
  m_partModels.assign(parts.size(), nullptr);
  m_partMaterials.assign(parts.size(), nullptr);
  if (!m_normalsMaterial) {
    m_normalsMaterial = new QQuick3DCustomMaterial(this);
    m_normalsMaterial->setShadingMode(QQuick3DCustomMaterial::ShadingMode::Unshaded);
    m_normalsMaterial->setVertexShader(QUrl(QStringLiteral("qrc:/RigLens/Quick3D/shaders/normals.vert")));
    m_normalsMaterial->setFragmentShader(QUrl(QStringLiteral("qrc:/RigLens/Quick3D/shaders/normals.frag")));
    completed(m_normalsMaterial);
  }
  for (int p : m_run->rig.evaluationOrder()) {
    const core::Part& part = parts[std::size_t(p)];
    QQuick3DNode* parentNode = part.parent == core::kNoIndex ? this : m_partNodes[std::size_t(part.parent)];
    auto* node = new QQuick3DNode;
    node->setObjectName(QString::fromStdString(part.name));
    node->setParent(parentNode);
    node->setParentItem(parentNode);
    completed(node);
    m_partNodes[std::size_t(p)] = node;
    if (std::size_t(p) >= m_run->meshes.size() || m_run->meshes[std::size_t(p)].empty()) continue;
    auto* model = new QQuick3DModel;
    model->setObjectName(QString::fromStdString(part.name) + QStringLiteral("_model"));
    model->setParent(node);
    model->setParentItem(node);
    auto* geometry = new PartGeometry(m_run->meshes[std::size_t(p)], model);
    model->setGeometry(geometry);
    auto* material = new QQuick3DDefaultMaterial(model);
    completed(material);
    completed(model);
    m_partModels[std::size_t(p)] = model;
    m_partMaterials[std::size_t(p)] = material;
  }
  applyTint();
}

// Each part's one material: its own default material (vertex colours or a
// tint colour, the highlight as a glow), or the shared normals material.
void VoxelRig::applyTint() {
  if (!m_run) return;
  const std::vector<glm::vec3> tints = m_tint == QLatin1String("part")    ? core::partTints(m_run->rig)
                                       : m_tint == QLatin1String("joint") ? core::jointTints(m_run->rig)
                                                                          : std::vector<glm::vec3>{};
  const int highlighted = m_highlighted.isEmpty() ? core::kNoIndex : m_run->rig.findPart(m_highlighted.toStdString());
  for (std::size_t p = 0; p < m_partModels.size(); ++p) {
    QQuick3DModel* model = m_partModels[p];
    QQuick3DDefaultMaterial* material = m_partMaterials[p];
    if (!model || !material) continue;
    material->setVertexColorsEnabled(tints.empty());
    material->setDiffuseColor(p < tints.size() ? srgb(tints[p]) : QColor(Qt::white));
    material->setEmissiveFactor(int(p) == highlighted ? kHighlightGlow : QVector3D());
    auto materials = model->materials();
    QQuick3DMaterial* wanted =
        m_tint == QLatin1String("normals") ? static_cast<QQuick3DMaterial*>(m_normalsMaterial) : material;
    if (materials.count(&materials) == 1 && materials.at(&materials, 0) == wanted) continue;
    materials.clear(&materials);
    materials.append(&materials, wanted);
  }
}

void VoxelRig::setTint(const QString& tint) {
  static const QStringList kTints{"color", "part", "joint", "normals"};
  if (tint == m_tint || !kTints.contains(tint)) return;
  m_tint = tint;
  applyTint();
  emit tintChanged();
}

void VoxelRig::setHighlightedPart(const QString& name) {
  if (name == m_highlighted) return;
  m_highlighted = name;
  applyTint();
  emit tintChanged();
}

bool VoxelRig::setPartVisible(const QString& name, bool visible) {
  if (!m_run) return false;
  const int p = m_run->rig.findPart(name.toStdString());
  if (p == core::kNoIndex) return false;
  if (QQuick3DModel* model = m_partModels[std::size_t(p)]) model->setVisible(visible);
  return true;
}

bool VoxelRig::partVisible(const QString& name) const {
  if (!m_run) return false;
  const int p = m_run->rig.findPart(name.toStdString());
  return p != core::kNoIndex && (!m_partModels[std::size_t(p)] || m_partModels[std::size_t(p)]->visible());
}

// Each part node's local transform is its world relative to its parent's.
void VoxelRig::applyPose() {
  if (!m_controller) return;
  const std::vector<glm::mat4>& worlds = m_controller->partWorlds();
  const auto& parts = m_run->rig.parts();
  for (std::size_t p = 0; p < m_partNodes.size() && p < worlds.size(); ++p) {
    const int parent = parts[p].parent;
    const glm::dmat4 world(worlds[p]);
    const glm::dmat4 local =
        parent == core::kNoIndex ? world : glm::inverse(glm::dmat4(worlds[std::size_t(parent)])) * world;
    glm::dvec3 scale(1.0), translation(0.0), skew(0.0);
    glm::dvec4 perspective(0.0, 0.0, 0.0, 1.0);
    glm::dquat rotation(1.0, 0.0, 0.0, 0.0);
    glm::decompose(local, scale, rotation, translation, skew, perspective);
    QQuick3DNode* node = m_partNodes[p];
    node->setPosition(QVector3D(float(translation.x), float(translation.y), float(translation.z)));
    node->setRotation(QQuaternion(float(rotation.w), float(rotation.x), float(rotation.y), float(rotation.z)));
    node->setScale(QVector3D(float(scale.x), float(scale.y), float(scale.z)));
  }
}

void VoxelRig::tick(double dtSeconds) {
  if (!m_controller) return;
  const bool wasPlaying = m_controller->playing().has_value() && !m_controller->finished();
  m_controller->update(dtSeconds);
  applyPose();
  emit timeChanged();
  if (wasPlaying && m_controller->finished()) emit playingChanged();
}

QStringList VoxelRig::partNames() const {
  QStringList names;
  if (m_run)
    for (const auto& part : m_run->rig.parts()) names << QString::fromStdString(part.name);
  return names;
}

QVariantList VoxelRig::animations() const {
  QVariantList list;
  if (!m_run) return list;
  for (const auto& a : m_run->rig.animations())
    list.append(QVariantMap{{QStringLiteral("name"), QString::fromStdString(a.name)},
                            {QStringLiteral("period"), a.periodMs / 1000.0},
                            {QStringLiteral("loop"), a.looping},
                            {QStringLiteral("autoPlay"), a.autoPlay}});
  return list;
}

QString VoxelRig::playing() const {
  if (!m_controller) return {};
  const auto name = m_controller->playing();
  return name && !m_controller->finished() ? QString::fromStdString(*name) : QString();
}

double VoxelRig::time() const {
  return m_controller ? m_controller->clockMs() / 1000.0 : 0.0;
}

// The clock of the idles and of the playable (as `riglens-cli pose --time-ms`).
void VoxelRig::setTime(double seconds) {
  if (!m_controller || !std::isfinite(seconds)) return;
  m_controller->setClockMs(seconds * 1000.0);
  if (m_controller->playing()) m_controller->seekPlayable(seconds * 1000.0);
  applyPose();
  emit timeChanged();
}

void VoxelRig::setRunning(bool running) {
  if (running == m_running) return;
  m_running = running;
  if (m_running && m_controller)
    m_clock->start();
  else
    m_clock->stop();
  emit runningChanged();
}

bool VoxelRig::setJoint(const QString& name, double value) {
  if (!m_controller) return false;
  if (auto ok = m_controller->setCaller(name.toStdString(), value); !ok) {
    m_error = QString::fromStdString(ok.error().message);
    emit statusChanged();
    return false;
  }
  applyPose();
  return true;
}

QStringList VoxelRig::jointNames(const QString& kind) const {
  QStringList names;
  if (!m_controller || (kind != QLatin1String("caller") && kind != QLatin1String("auto"))) return names;
  for (const auto& n :
       m_controller->jointNames(kind == QLatin1String("auto") ? core::Drive::Auto : core::Drive::Caller))
    names << QString::fromStdString(n);
  return names;
}

QVariantMap VoxelRig::jointRange(const QString& name) const {
  if (!m_run) return {};
  const int j = m_run->rig.findJoint(name.toStdString());
  if (j == core::kNoIndex) return {};
  const core::Joint& joint = m_run->rig.joints()[std::size_t(j)];
  return {{QStringLiteral("min"), joint.min},
          {QStringLiteral("max"), joint.max},
          {QStringLiteral("rest"), joint.rest},
          {QStringLiteral("kind"), QString::fromLatin1(core::jointKindName(joint.kind))},
          {QStringLiteral("axis"), QString::fromLatin1(core::axisName(joint.axis))}};
}

void VoxelRig::resetPose() {
  if (!m_controller) return;
  m_controller->resetAllCallers();
  applyPose();
}

bool VoxelRig::play(const QString& name) {
  if (!m_controller || !m_controller->play(name.toStdString())) return false;
  applyPose();
  emit playingChanged();
  return true;
}

void VoxelRig::stop() {
  if (!m_controller || !m_controller->playing()) return;
  (void)m_controller->play(std::nullopt);
  applyPose();
  emit playingChanged();
}

QQuick3DNode* VoxelRig::partNode(const QString& name) const {
  if (!m_run) return nullptr;
  const int p = m_run->rig.findPart(name.toStdString());
  return p == core::kNoIndex ? nullptr : m_partNodes[std::size_t(p)];
}

}  // namespace riglens::quick3d
