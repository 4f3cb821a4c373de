#include "voxel_rig.h"

#include <QtQuick3D/private/qquick3dcustommaterial_p.h>
#include <QtQuick3D/private/qquick3ddefaultmaterial_p.h>
#include <QtQuick3D/private/qquick3dmodel_p.h>
#include <QtQuick3D/private/qquick3dprincipledmaterial_p.h>
#include <QtQuick3D/private/qquick3dskin_p.h>

#include <QtConcurrent/QtConcurrentRun>
#include <QtCore/QAbstractAnimation>
#include <QtCore/QFileInfo>
#include <QtCore/QFutureWatcher>
#include <QtGui/QVector3D>
#include <algorithm>
#include <cmath>

#define GLM_ENABLE_EXPERIMENTAL
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <glm/gtx/matrix_decompose.hpp>

#include "object_setup.h"
#include "part_geometry.h"
#include "pbr_materials.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/rig_spec.h"
#include "riglens/core/rig/rig_tints.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/core/rig/scene_bounds.h"
#include "riglens/core/rig/skinning.h"
#include "riglens/watch/document_watcher.h"

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

// `object` (a node or model made in C++) as `parent`'s child, in the scene
// and in the QObject tree, named `name`.
template <class T>
T* attach(T* object, QQuick3DNode* parent, const QString& name) {
  object->setObjectName(name);
  object->setParent(parent);
  object->setParentItem(parent);
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

// The normals tint: an unshaded custom material with its vertex stage
// `vertexShader` (a rigid or a skinned model's) and the shared fragment stage.
QQuick3DCustomMaterial* normalsMaterial(const QString& vertexShader, QQuick3DObject* parent) {
  auto* material = new QQuick3DCustomMaterial(parent);
  material->setShadingMode(QQuick3DCustomMaterial::ShadingMode::Unshaded);
  material->setVertexShader(QUrl(QStringLiteral("qrc:/RigLens/Quick3D/shaders/") + vertexShader));
  material->setFragmentShader(QUrl(QStringLiteral("qrc:/RigLens/Quick3D/shaders/normals.frag")));
  return completed(material);
}

// A node's transform from a matrix (translation, rotation, scale: what the
// rig's and glTF's node matrices hold).
void setLocalTransform(QQuick3DNode* node, const glm::dmat4& local) {
  glm::dvec3 scale(1.0), translation(0.0), skew(0.0);
  glm::dvec4 perspective(0.0, 0.0, 0.0, 1.0);
  glm::dquat rotation(1.0, 0.0, 0.0, 0.0);
  glm::decompose(local, scale, rotation, translation, skew, perspective);
  node->setPosition(QVector3D(float(translation.x), float(translation.y), float(translation.z)));
  node->setRotation(QQuaternion(float(rotation.w), float(rotation.x), float(rotation.y), float(rotation.z)));
  node->setScale(QVector3D(float(scale.x), float(scale.y), float(scale.z)));
}

std::filesystem::path localPath(const QUrl& url) {
  const QString path = url.isLocalFile() ? url.toLocalFile() : url.toString();
  return std::filesystem::path(path.toStdString());
}

}  // namespace

VoxelRig::VoxelRig(QQuick3DNode* parent)
    : QQuick3DNode(parent),
      m_clock(std::make_unique<RigClock>([this](double dt) { tick(dt); })),
      m_watcher(new watch::DocumentWatcher(this)) {
  connect(m_watcher, &watch::DocumentWatcher::settled, this, [this] { load(LoadRequest::LiveReload); });
}

VoxelRig::~VoxelRig() = default;

void VoxelRig::setSource(const QUrl& source) {
  if (source == m_source) return;
  m_source = source;
  emit sourceChanged();
  load(LoadRequest::Source);
}

void VoxelRig::fail(const QString& message) {
  m_status = Error;
  m_error = message;
  emit statusChanged();
}

void VoxelRig::setAsynchronous(bool asynchronous) {
  if (asynchronous == m_asynchronous) return;
  m_asynchronous = asynchronous;
  emit asynchronousChanged();
}

void VoxelRig::reload() {
  load(LoadRequest::Reload);
}

void VoxelRig::setWatch(bool watch) {
  if (watch == m_watch) return;
  m_watch = watch;
  followFiles();
  emit watchChanged();
}

void VoxelRig::followFiles() {
  const bool shown = m_run && !m_source.isEmpty();
  m_watcher->watch(m_watch && shown ? QString::fromStdString(localPath(m_source).string()) : QString(), m_shownStamps);
}

// Reads the source here or on a worker thread; the model is built on this
// (the GUI) thread either way, by adopt().
void VoxelRig::load(LoadRequest::Kind kind) {
  if (m_source.isEmpty()) return;
  const std::filesystem::path path = localPath(m_source);
  const quint64 load = ++m_loads;
  LoadRequest request{kind, watch::DocumentWatcher::stampsOf(QString::fromStdString(path.string()))};
  if (!m_asynchronous) return adopt(core::loadRun(path), request);
  m_status = Loading;
  emit statusChanged();
  // The watcher is this node's child: if the node goes first, the result is
  // dropped with it (the worker touches nothing but its own path and run).
  auto* watcher = new QFutureWatcher<core::Expected<core::LoadedRun>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, load, request] {
    watcher->deleteLater();
    if (load == m_loads) adopt(watcher->future().takeResult(), request);
  });
  watcher->setFuture(QtConcurrent::run([path] { return core::loadRun(path); }));
}

// A bad file keeps what was shown: only a successful load replaces it. A
// live reload that finds an error the shown model did not have read a file
// still being written: refused the same way.
void VoxelRig::adopt(core::Expected<core::LoadedRun> loaded, const LoadRequest& request) {
  if (!loaded) return fail(QString::fromStdString(loaded.error().message));
  if (request.kind == LoadRequest::LiveReload && m_run)
    if (const auto partial = core::firstNewError(loaded->warnings, m_run->warnings))
      return fail(QString::fromStdString(partial->describe()));
  // What a reload carries over from the model it replaces, by name.
  std::optional<core::RigControllerState> carried;
  QStringList hidden;
  if (request.kind != LoadRequest::Source && m_controller) {
    carried = m_controller->saveState();
    for (const QString& part : partNames())
      if (!partVisible(part)) hidden << part;
  }
  stop();
  clearNodes();
  m_run = std::make_unique<core::LoadedRun>(std::move(*loaded));
  // A model file plays its own node tree and clips (as `riglens-cli pose`);
  // a rig's skinned mesh.glb is posed by the rig alone.
  const bool modelFile = m_run->modelFile;
  m_controller = std::make_unique<core::RigController>(m_run->rig, modelFile ? &m_run->gltf : nullptr);
  if (m_run->skin && !m_run->gltf.nodes.empty())
    m_restPose = std::make_unique<core::GltfPose>(core::gltfRestPose(m_run->gltf));
  buildNodes();
  if (carried) m_controller->restoreState(*carried);
  for (const QString& part : hidden) setPartVisible(part, false);
  m_shownStamps = request.stamps;
  followFiles();
  m_status = Ready;
  m_error.clear();
  emit statusChanged();
  emit modelChanged();
  emit timeChanged();
  emit playingChanged();
  applyPose();
  if (m_running) m_clock->start();
}

// Out of the scene and out of this node's children at once (findChildren
// sees the new model only); deleted once the event loop runs.
void VoxelRig::clearNodes() {
  const auto remove = [](QQuick3DObject* object) {
    object->setParentItem(nullptr);
    object->setParent(nullptr);
    object->deleteLater();
  };
  for (QQuick3DNode* node : m_partNodes) remove(node);
  for (QQuick3DNode* node : m_gltfNodes)
    if (node) remove(node);
  for (QQuick3DNode* node : m_unmovedBones) remove(node);
  if (m_skinnedModel) remove(m_skinnedModel);
  m_partNodes.clear();
  m_partModels.clear();
  m_partMaterials.clear();
  m_pbrMaterials.clear();  // the models' children
  m_gltfNodes.clear();
  m_unmovedBones.clear();
  m_skinnedModel = nullptr;
  if (m_skin) remove(m_skin);
  m_skin = nullptr;
  m_meshGeometry = nullptr;  // its model's child
  m_restPose.reset();
  m_morphWeights.clear();
  m_boneTints.clear();
}

// One node per part under its parent's (the rig's roots under this node),
// each with a Model of the part's geometry unless it is a socket.
void VoxelRig::buildNodes() {
  const auto& parts = m_run->rig.parts();
  m_partNodes.assign(parts.size(), nullptr);
  m_partModels.assign(parts.size(), nullptr);
  m_partMaterials.assign(parts.size(), nullptr);
  if (!m_normalsMaterial) m_normalsMaterial = normalsMaterial(QStringLiteral("normals.vert"), this);
  for (int p : m_run->rig.evaluationOrder()) {
    const core::Part& part = parts[std::size_t(p)];
    QQuick3DNode* parentNode = part.parent == core::kNoIndex ? this : m_partNodes[std::size_t(part.parent)];
    auto* node = completed(attach(new QQuick3DNode, parentNode, QString::fromStdString(part.name)));
    m_partNodes[std::size_t(p)] = node;
    if (m_run->kind == core::RunKind::SkinnedMesh) continue;  // one mesh for every part, below
    if (std::size_t(p) >= m_run->meshes.size() || m_run->meshes[std::size_t(p)].empty()) continue;
    auto* model = attach(new QQuick3DModel, node, QString::fromStdString(part.name) + QStringLiteral("_model"));
    auto* geometry =
        new PartGeometry(m_run->meshes[std::size_t(p)], nullptr, p == 0 ? &m_run->materials : nullptr, model);
    model->setGeometry(geometry);
    if (p == 0 && m_run->modelFile) m_meshGeometry = geometry;  // a static model's morph targets rewrite it
    auto* material = new QQuick3DDefaultMaterial(model);
    completed(material);
    completed(model);
    m_partModels[std::size_t(p)] = model;
    m_partMaterials[std::size_t(p)] = material;
  }
  if (m_run->kind == core::RunKind::SkinnedMesh && m_run->skin && !m_run->meshes.empty() && !m_run->meshes[0].empty() &&
      !parts.empty())
    buildSkinnedModel();
  applyTint();
}

// The skinned mesh: one Model under this node whose Skin's joints are the
// bones' nodes (a rig part's node, else one placed at the bone's glTF node),
// with the file's inverse binds. Qt Quick 3D skins it on the GPU: a vertex
// goes to sum_i w_i * joint_i.sceneTransform * inverseBind_i * v, the same
// sum as core::skinMesh (glTF 2.0, section 3.7.3), so this node's own
// transform carries the model through its joints.
void VoxelRig::buildSkinnedModel() {
  const core::SkinData& skin = *m_run->skin;
  buildGltfJoints();
  m_skin = new QQuick3DSkin(this);
  auto joints = m_skin->joints();
  QList<QMatrix4x4> inverseBinds;
  for (std::size_t b = 0; b < skin.boneNames.size(); ++b) {
    const int part = b < m_run->boneParts.size() ? m_run->boneParts[b] : core::kNoIndex;
    const int gltfNode = b < skin.boneNodes.size() ? skin.boneNodes[b] : core::kGltfNone;
    QQuick3DNode* joint = part != core::kNoIndex ? m_partNodes[std::size_t(part)]
                          : gltfNode >= 0        ? m_gltfNodes[std::size_t(gltfNode)]
                                                 : nullptr;
    if (!joint) {  // a bone with neither: it never moves
      joint = completed(attach(new QQuick3DNode, this, QStringLiteral("bone %1").arg(b)));
      m_unmovedBones.push_back(joint);
    }
    joints.append(&joints, joint);
    inverseBinds.append(QMatrix4x4(glm::value_ptr(glm::transpose(skin.inverseBinds[b]))));
  }
  m_skin->setInverseBindPoses(inverseBinds);
  completed(m_skin);

  m_skinnedModel =
      attach(new QQuick3DModel, this, QString::fromStdString(m_run->rig.parts()[0].name) + QStringLiteral("_model"));
  m_meshGeometry = new PartGeometry(m_run->meshes[0], &skin, &m_run->materials, m_skinnedModel);
  m_skinnedModel->setGeometry(m_meshGeometry);
  m_skinnedModel->setSkin(m_skin);
  if (!m_skinnedNormalsMaterial)
    m_skinnedNormalsMaterial = normalsMaterial(QStringLiteral("normals_skinned.vert"), this);
  auto* material = new QQuick3DDefaultMaterial(m_skinnedModel);
  completed(material);
  completed(m_skinnedModel);
  m_partModels[0] = m_skinnedModel;
  m_partMaterials[0] = material;
}

// The glTF nodes that bones which are no rig part follow, and their
// ancestors, as nodes under this one mirroring the file's tree: each takes
// its local transform, so a parent's non-uniform scale shears its children
// as in the file (a world matrix alone could not be set on a node).
void VoxelRig::buildGltfJoints() {
  const core::SkinData& skin = *m_run->skin;
  const auto& nodes = m_run->gltf.nodes;
  std::vector<bool> wanted(nodes.size(), false);
  for (std::size_t b = 0; b < skin.boneNodes.size(); ++b) {
    const bool isPart = b < m_run->boneParts.size() && m_run->boneParts[b] != core::kNoIndex;
    for (int n = isPart ? core::kGltfNone : skin.boneNodes[b]; n >= 0 && std::size_t(n) < nodes.size() && !wanted[n];
         n = nodes[std::size_t(n)].parent)
      wanted[std::size_t(n)] = true;
  }
  m_gltfNodes.assign(nodes.size(), nullptr);
  for (int n : m_run->gltf.drawOrder) {
    if (n < 0 || std::size_t(n) >= nodes.size() || !wanted[std::size_t(n)]) continue;
    const int parent = nodes[std::size_t(n)].parent;
    QQuick3DNode* parentNode =
        parent >= 0 && m_gltfNodes[std::size_t(parent)] ? m_gltfNodes[std::size_t(parent)] : this;
    m_gltfNodes[std::size_t(n)] =
        completed(attach(new QQuick3DNode, parentNode, QString::fromStdString(nodes[std::size_t(n)].name)));
  }
}

// The file's nodes in its clip playing, else in its rest pose.
void VoxelRig::placeGltfJoints(const core::GltfPose& pose) {
  const auto& nodes = m_run->gltf.nodes;
  for (std::size_t n = 0; n < m_gltfNodes.size() && n < pose.worlds.size(); ++n) {
    if (!m_gltfNodes[n]) continue;
    const int parent = nodes[n].parent;
    setLocalTransform(m_gltfNodes[n],
                      parent >= 0 ? glm::inverse(pose.worlds[std::size_t(parent)]) * pose.worlds[n] : pose.worlds[n]);
  }
}

// Morph targets on the CPU (core::morphMesh), re-uploaded only when their
// weights change: a clip that animates them, or none at all.
void VoxelRig::applyMorph(const core::GltfPose* pose) {
  if (!m_meshGeometry || m_run->morph.empty()) return;
  std::vector<float> weights = core::morphWeights(m_run->morph, *pose);
  if (weights == m_morphWeights) return;
  m_morphWeights = std::move(weights);
  m_meshGeometry->setMorphed(core::morphMesh(m_run->meshes[0], m_run->morph, m_morphWeights));
}

namespace {

// `model`'s materials, one per geometry subset (one for the whole mesh
// without subsets); set only when they change.
void setModelMaterials(QQuick3DModel* model, const std::vector<QQuick3DMaterial*>& wanted) {
  auto materials = model->materials();
  bool same = materials.count(&materials) == qsizetype(wanted.size());
  for (qsizetype i = 0; same && i < qsizetype(wanted.size()); ++i) same = materials.at(&materials, i) == wanted[i];
  if (same) return;
  materials.clear(&materials);
  for (QQuick3DMaterial* material : wanted) materials.append(&materials, material);
}

}  // namespace

// Each part's materials: in the review look its own default material
// (vertex colours or a tint colour, the highlight as a glow) or the shared
// normals material; in the PBR look its glTF materials.
void VoxelRig::applyTint() {
  if (!m_run) return;
  if (m_look == QLatin1String("pbr")) return applyPbrLook();
  const std::vector<glm::vec3> tints = m_tint == QLatin1String("part")    ? core::partTints(m_run->rig)
                                       : m_tint == QLatin1String("joint") ? core::jointTints(m_run->rig)
                                                                          : std::vector<glm::vec3>{};
  const int highlighted = m_highlighted.isEmpty() ? core::kNoIndex : m_run->rig.findPart(m_highlighted.toStdString());
  for (std::size_t p = 0; p < m_partModels.size(); ++p) {
    QQuick3DModel* model = m_partModels[p];
    QQuick3DDefaultMaterial* material = m_partMaterials[p];
    if (!model || !material) continue;
    // The colour: the mesh's own; a tint colour per part; for a skinned
    // mesh's joint tint, as in the viewer, each vertex its bones' colours
    // blended by weight (core::boneWeightTints).
    const bool skinned = model == m_skinnedModel;
    const bool byBones = skinned && m_tint == QLatin1String("joint");
    if (byBones && m_boneTints.empty()) m_boneTints = core::boneWeightTints(*m_run->skin);
    const std::vector<float>* colors = byBones         ? &m_boneTints
                                       : tints.empty() ? &m_run->meshes[skinned ? 0 : p].colors
                                                       : nullptr;
    material->setVertexColorsEnabled(colors != nullptr);
    material->setDiffuseColor(!colors && p < tints.size() ? srgb(tints[p]) : QColor(Qt::white));
    material->setEmissiveFactor(int(p) == highlighted ? kHighlightGlow : QVector3D());
    auto* geometry = qobject_cast<PartGeometry*>(model->geometry());
    if (geometry) geometry->showColors(colors);
    QQuick3DCustomMaterial* normals = skinned ? m_skinnedNormalsMaterial : m_normalsMaterial;
    QQuick3DMaterial* wanted = m_tint == QLatin1String("normals") ? static_cast<QQuick3DMaterial*>(normals) : material;
    const std::size_t subsets = geometry ? std::max<std::size_t>(1, geometry->subsetMaterials().size()) : 1;
    setModelMaterials(model, std::vector<QQuick3DMaterial*>(subsets, wanted));
  }
}

// The PBR look: each model's glTF materials (made on first use), a subset
// each, over the mesh's own colours (the base colour factors); the tints
// are the review look's.
void VoxelRig::applyPbrLook() {
  m_pbrMaterials.resize(m_partModels.size());
  for (std::size_t p = 0; p < m_partModels.size(); ++p) {
    QQuick3DModel* model = m_partModels[p];
    auto* geometry = model ? qobject_cast<PartGeometry*>(model->geometry()) : nullptr;
    if (!geometry) continue;
    const bool skinned = model == m_skinnedModel;
    std::vector<QQuick3DPrincipledMaterial*>& made = m_pbrMaterials[p];
    if (made.empty()) made = makePbrMaterials(p == 0 ? m_run->materials : core::MeshMaterials{}, model);
    geometry->showColors(&m_run->meshes[skinned ? 0 : p].colors);
    std::vector<QQuick3DMaterial*> wanted;
    for (int material : geometry->subsetMaterials())
      wanted.push_back(made[material >= 0 && std::size_t(material) < made.size() ? std::size_t(material) : 0]);
    if (wanted.empty()) wanted.push_back(made[0]);
    setModelMaterials(model, wanted);
  }
}

void VoxelRig::setLook(const QString& look) {
  if (look == m_look || (look != QLatin1String("review") && look != QLatin1String("pbr"))) return;
  m_look = look;
  applyTint();
  emit lookChanged();
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

QVariantMap VoxelRig::posedBounds() const {
  if (!m_controller || !m_run) return {};
  const core::GltfPose* pose = m_controller->gltfPose();  // as the viewer frames it
  const core::Bounds box = core::posedBounds(*m_run, m_controller->partWorlds(), pose ? pose : m_restPose.get());
  if (box.empty) return {};
  const auto vector = [](const glm::vec3& v) { return QVariant::fromValue(QVector3D(v.x, v.y, v.z)); };
  return {
      {"min", vector(box.min)}, {"max", vector(box.max)}, {"center", vector(box.center())}, {"radius", box.radius()}};
}

// Each part node's local transform is its world relative to its parent's;
// a skinned model's glTF joints and morph weights follow the file's pose.
void VoxelRig::applyPose() {
  if (!m_controller) return;
  m_controller->evaluate();  // every change ends here, so jointValue() reads this pose
  const std::vector<glm::mat4>& worlds = m_controller->partWorlds();
  const auto& parts = m_run->rig.parts();
  for (std::size_t p = 0; p < m_partNodes.size() && p < worlds.size(); ++p) {
    const int parent = parts[p].parent;
    const glm::dmat4 world(worlds[p]);
    setLocalTransform(m_partNodes[p],
                      parent == core::kNoIndex ? world : glm::inverse(glm::dmat4(worlds[std::size_t(parent)])) * world);
  }
  // A model file's own pose (its clip, its VRM expressions), else a skinned
  // mesh's rest pose.
  const core::GltfPose* pose = m_controller->gltfPose();
  if (m_run->skin && !pose) pose = m_restPose.get();
  if (pose) {
    placeGltfJoints(*pose);
    applyMorph(pose);
  }
  emit poseChanged();
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
  if (!m_controller) return list;
  for (const core::ClipInfo& a : m_controller->clips())
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

bool VoxelRig::setExpression(const QString& name, double weight) {
  if (!m_controller) return false;
  if (auto ok = m_controller->setExpression(name.toStdString(), weight); !ok) {
    m_error = QString::fromStdString(ok.error().message);
    emit statusChanged();
    return false;
  }
  applyPose();
  return true;
}

QStringList VoxelRig::expressionNames() const {
  QStringList names;
  if (m_controller)
    for (const std::string& name : m_controller->expressionNames()) names << QString::fromStdString(name);
  return names;
}

QStringList VoxelRig::jointNames(const QString& kind) const {
  QStringList names;
  if (!m_controller || (kind != QLatin1String("caller") && kind != QLatin1String("auto"))) return names;
  for (const auto& n :
       m_controller->jointNames(kind == QLatin1String("auto") ? core::Drive::Auto : core::Drive::Caller))
    names << QString::fromStdString(n);
  return names;
}

double VoxelRig::jointValue(const QString& name) const {
  if (!m_controller) return qQNaN();
  const int j = m_run->rig.findJoint(name.toStdString());
  const std::vector<double>& values = m_controller->jointValues();
  return j == core::kNoIndex || std::size_t(j) >= values.size() ? qQNaN() : values[std::size_t(j)];
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
