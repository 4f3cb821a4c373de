// List models the QML panels show for the open rig: parts (as an indented
// tree), joints (with live values) and animations. They read the Document
// owned by AppController and are reset when it changes. GUI thread.
#pragma once

#include <QtCore/QAbstractListModel>

#include "qml_owned.h"
#include "riglens/core/rig/rig_controller.h"

namespace riglens::app {

class AppController;
class Document;

class PartListModel : public QAbstractListModel {
  Q_OBJECT
  RIGLENS_QML_OWNED_BY_CONTROLLER
 public:
  enum Role {
    NameRole = Qt::UserRole + 1,
    PartIndexRole,
    DepthRole,
    ParentRole,
    SocketRole,
    VisibleRole,
    TrianglesRole,
    SelectedRole,
    ProblemRole,
    ProblemSeverityRole
  };
  explicit PartListModel(AppController* app);
  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QHash<int, QByteArray> roleNames() const override;
  void reload();        // the document changed
  void refreshFlags();  // visibility / selection changed

 private:
  QVariant nodeData(const Document& doc, int row, int role) const;

  AppController* m_app;
  // (part index, depth) in tree order; for a model opened by itself, its
  // glTF nodes: (node index, depth), and the part indices are node indices.
  std::vector<std::pair<int, int>> m_rows;
  bool m_nodes = false;
  std::vector<std::size_t> m_nodeTriangles;
};

class JointListModel : public QAbstractListModel {
  Q_OBJECT
  RIGLENS_QML_OWNED_BY_CONTROLLER
 public:
  enum Role {
    NameRole = Qt::UserRole + 1,
    KindRole,
    AxisRole,
    DriveRole,
    CallerRole,
    UnitsRole,
    MinRole,
    MaxRole,
    RestRole,
    ValueRole,
    PartRole
  };
  explicit JointListModel(AppController* app);
  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QHash<int, QByteArray> roleNames() const override;
  void reload();
  void refreshValues();  // the pose changed: only the value role

 private:
  AppController* m_app;
  int m_count = 0;
};

class AnimationListModel : public QAbstractListModel {
  Q_OBJECT
  RIGLENS_QML_OWNED_BY_CONTROLLER
 public:
  // gltf: the clip is the glTF file's own (it poses the file's nodes), not the rig's.
  enum Role { NameRole = Qt::UserRole + 1, PeriodRole, LoopingRole, AutoPlayRole, KeyTimesRole, TracksRole, GltfRole };
  explicit AnimationListModel(QObject* parent);
  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QHash<int, QByteArray> roleNames() const override;
  void reload(const Document* document);  // null: no rig open

 private:
  std::vector<core::ClipInfo> m_clips;  // the document's, as of reload()
};

}  // namespace riglens::app
