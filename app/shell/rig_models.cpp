#include "rig_models.h"

#include <functional>

#include "app_controller.h"
#include "problem_list_model.h"
#include "riglens/core/rig/fcurve.h"
#include "riglens/core/rig/model_nodes.h"

namespace riglens::app {

// ------------------------------------------------------------------ parts
PartListModel::PartListModel(AppController* app) : QAbstractListModel(app), m_app(app) {}

int PartListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(m_rows.size());
}

QHash<int, QByteArray> PartListModel::roleNames() const {
  return {{NameRole, "name"},           {PartIndexRole, "partIndex"},
          {DepthRole, "depth"},         {ParentRole, "parentName"},
          {SocketRole, "socket"},       {VisibleRole, "partVisible"},
          {TrianglesRole, "triangles"}, {SelectedRole, "selected"},
          {ProblemRole, "problem"},     {ProblemSeverityRole, "problemSeverity"}};
}

QVariant PartListModel::data(const QModelIndex& index, int role) const {
  Document* doc = m_app->document();
  if (!doc || !index.isValid() || index.row() >= int(m_rows.size())) return {};
  if (m_nodes) return nodeData(*doc, index.row(), role);
  const auto [p, depth] = m_rows[index.row()];
  const core::Part& part = doc->rig().parts()[p];
  const auto& meshes = doc->run()->meshes;
  const bool perPart = doc->run()->kind != core::RunKind::SkinnedMesh;
  switch (role) {
    case NameRole: return QString::fromStdString(part.name);
    case PartIndexRole: return p;
    case DepthRole: return depth;
    case ParentRole: return part.parent < 0 ? QString() : QString::fromStdString(doc->rig().parts()[part.parent].name);
    case SocketRole: return perPart && p < int(meshes.size()) && meshes[p].empty();
    case VisibleRole: return m_app->isPartVisible(p);
    case TrianglesRole: {
      // A skinned mesh's triangles belong to no one part, unless the model is one part (a glTF file).
      const bool own = perPart || doc->rig().parts().size() == 1;
      return own && p < int(meshes.size()) ? qint64(meshes[p].triangleCount()) : qint64(0);
    }
    case SelectedRole: return m_app->selectedPart() == p;
    case ProblemRole:
    case ProblemSeverityRole: {  // the first problem about this part (errors come first): the row
                                 // marks it
      const ProblemListModel* problems = m_app->problemList();
      for (int row = 0; row < problems->count(); ++row) {
        const core::Diagnostic* d = problems->at(row);
        if (d->part != part.name) continue;
        return QString::fromStdString(role == ProblemRole ? d->message : std::string(core::severityName(d->severity)));
      }
      return QString();
    }
  }
  return {};
}

// A model opened by itself: its glTF nodes are its parts (core/rig/model_nodes.h).
QVariant PartListModel::nodeData(const Document& doc, int row, int role) const {
  const auto [node, depth] = m_rows[std::size_t(row)];
  const core::GltfScene& scene = doc.run()->gltf;
  const int parent = scene.nodes[std::size_t(node)].parent;
  switch (role) {
    case NameRole: return QString::fromStdString(core::nodeLabel(scene, node));
    case PartIndexRole: return node;
    case DepthRole: return depth;
    case ParentRole: return QString::fromStdString(core::nodeLabel(scene, parent));
    case SocketRole: return false;
    case VisibleRole: return m_app->isPartVisible(node);
    case TrianglesRole: return qint64(m_nodeTriangles[std::size_t(node)]);
    case SelectedRole: return m_app->selectedPart() == node;
    case ProblemRole:
    case ProblemSeverityRole: return QString();
  }
  return {};
}

void PartListModel::reload() {
  beginResetModel();
  m_rows.clear();
  m_nodeTriangles.clear();
  m_nodes = m_app->document() && core::listsNodesAsParts(*m_app->document()->run());
  if (m_nodes) {
    const core::LoadedRun& run = *m_app->document()->run();
    for (const core::NodeRow& row : core::nodeTreeOrder(run.gltf)) m_rows.emplace_back(row.node, row.depth);
    m_nodeTriangles = core::trianglesPerNode(run);
  } else if (Document* doc = m_app->document()) {
    const auto& parts = doc->rig().parts();
    std::vector<std::vector<int>> children(parts.size());
    std::vector<int> roots;
    for (std::size_t i = 0; i < parts.size(); ++i)
      (parts[i].parent < 0 ? roots : children[parts[i].parent]).push_back(int(i));
    std::function<void(int, int)> walk = [&](int p, int depth) {
      m_rows.emplace_back(p, depth);
      for (int c : children[p]) walk(c, depth + 1);
    };
    for (int r : roots) walk(r, 0);
  }
  endResetModel();
}

void PartListModel::refreshFlags() {
  if (!m_rows.empty()) emit dataChanged(index(0), index(int(m_rows.size()) - 1), {VisibleRole, SelectedRole});
}

// ------------------------------------------------------------------ joints
JointListModel::JointListModel(AppController* app) : QAbstractListModel(app), m_app(app) {}

int JointListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : m_count;
}

QHash<int, QByteArray> JointListModel::roleNames() const {
  return {{NameRole, "name"},     {KindRole, "kind"},   {AxisRole, "axis"},    {DriveRole, "drive"},
          {CallerRole, "caller"}, {UnitsRole, "units"}, {MinRole, "min"},      {MaxRole, "max"},
          {RestRole, "rest"},     {ValueRole, "value"}, {PartRole, "partName"}};
}

QVariant JointListModel::data(const QModelIndex& index, int role) const {
  Document* doc = m_app->document();
  if (!doc || !index.isValid() || index.row() >= m_count) return {};
  const core::Joint& j = doc->rig().joints()[index.row()];
  const bool rotation = j.kind == core::JointKind::Rotation;
  switch (role) {
    case NameRole: return QString::fromStdString(j.name);
    case KindRole: return QString::fromUtf8(core::jointKindName(j.kind));
    case AxisRole: return QString::fromUtf8(core::axisName(j.axis));
    case DriveRole: return QString::fromUtf8(core::driveName(j.drive));
    case CallerRole: return j.drive == core::Drive::Caller;
    case UnitsRole: return rotation ? QStringLiteral("rad") : QStringLiteral("voxels");
    case MinRole: return j.min;
    case MaxRole: return j.max;
    case RestRole: return j.rest;
    case ValueRole: return doc->controller().jointValues()[index.row()];
    case PartRole: return j.part < 0 ? QString() : QString::fromStdString(doc->rig().parts()[j.part].name);
  }
  return {};
}

void JointListModel::reload() {
  beginResetModel();
  m_count = m_app->document() ? int(m_app->document()->rig().joints().size()) : 0;
  endResetModel();
}

void JointListModel::refreshValues() {
  if (m_count > 0) emit dataChanged(index(0), index(m_count - 1), {ValueRole});
}

// ------------------------------------------------------------------ animations
AnimationListModel::AnimationListModel(QObject* parent) : QAbstractListModel(parent) {}

int AnimationListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(m_clips.size());
}

QHash<int, QByteArray> AnimationListModel::roleNames() const {
  return {{NameRole, "name"},         {PeriodRole, "periodMs"}, {LoopingRole, "looping"}, {AutoPlayRole, "autoPlay"},
          {KeyTimesRole, "keyTimes"}, {TracksRole, "tracks"},   {GltfRole, "gltf"}};
}

QVariant AnimationListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= int(m_clips.size())) return {};
  const core::ClipInfo& a = m_clips[std::size_t(index.row())];
  switch (role) {
    case NameRole: return QString::fromStdString(a.name);
    case PeriodRole: return a.periodMs;
    case LoopingRole: return a.looping;
    case AutoPlayRole: return a.autoPlay;
    case KeyTimesRole: {
      QVariantList times;
      for (double t : a.keyTimesMs) times << t;
      return times;
    }
    case TracksRole: return a.tracks;
    case GltfRole: return a.gltf;
  }
  return {};
}

void AnimationListModel::reload(const Document* document) {
  beginResetModel();
  m_clips = document ? document->controller().clips() : std::vector<core::ClipInfo>{};
  endResetModel();
}

}  // namespace riglens::app
