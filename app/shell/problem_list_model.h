// The Problems panel's rows: every warning and error of the open document
// (the loader's diagnostics) and, on top while it is the latest news, the
// load that failed (the previous document stays open). Each row names its
// severity, file, JSON pointer and message, and the part or joint it
// concerns, which AppController::selectProblem selects. GUI thread.
#pragma once

#include <QtCore/QAbstractListModel>
#include <optional>

#include "qml_owned.h"
#include "riglens/core/base/diagnostic.h"
#include "riglens/core/base/expected.h"

namespace riglens::app {

class ProblemListModel : public QAbstractListModel {
  Q_OBJECT
  RIGLENS_QML_OWNED_BY_CONTROLLER
  Q_PROPERTY(int count READ count NOTIFY countsChanged)
  Q_PROPERTY(int errorCount READ errorCount NOTIFY countsChanged)
  Q_PROPERTY(int warningCount READ warningCount NOTIFY countsChanged)

 public:
  enum Role {
    SeverityRole = Qt::UserRole + 1,
    FileRole,
    PointerRole,
    MessageRole,
    PartRole,
    JointRole,
    FailedLoadRole
  };
  using QAbstractListModel::QAbstractListModel;

  int rowCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QHash<int, QByteArray> roleNames() const override;

  // The open document's diagnostics; clears a failed load shown before.
  void setDocumentProblems(core::Diagnostics problems);
  // Findings that come after the load (the decoders, opened on a worker).
  void addDocumentProblems(const core::Diagnostics& problems);
  // A load that failed: its error as the first row, the document's below.
  void setFailedLoad(const core::Error& error, const std::string& path);
  void clearFailedLoad();

  const core::Diagnostic* at(int row) const;
  int count() const { return rowCount(); }
  int errorCount() const;
  int warningCount() const;

 signals:
  void countsChanged();

 private:
  void reset(const std::function<void()>& change);

  core::Diagnostics m_document;
  std::optional<core::Diagnostic> m_failedLoad;
};

// The problem of an Error without the "<file>: <pointer>: " its message
// starts with (the row shows them in their own columns).
std::string problemText(const core::Error& error);

}  // namespace riglens::app
