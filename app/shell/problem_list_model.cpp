#include "problem_list_model.h"

#include <algorithm>
#include <functional>

namespace riglens::app {

std::string problemText(const core::Error& error) {
  std::string text = error.message;
  for (const std::string& prefix : {error.file, error.pointer})
    if (!prefix.empty() && text.rfind(prefix + ": ", 0) == 0) text.erase(0, prefix.size() + 2);
  return text;
}

int ProblemListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(m_document.size()) + (m_failedLoad ? 1 : 0);
}

const core::Diagnostic* ProblemListModel::at(int row) const {
  if (row < 0 || row >= rowCount()) return nullptr;
  if (m_failedLoad) return row == 0 ? &*m_failedLoad : &m_document[std::size_t(row - 1)];
  return &m_document[std::size_t(row)];
}

QVariant ProblemListModel::data(const QModelIndex& index, int role) const {
  const core::Diagnostic* d = at(index.row());
  if (!d) return {};
  switch (role) {
    case SeverityRole: return QString::fromUtf8(core::severityName(d->severity));
    case FileRole: return QString::fromStdString(d->source);
    case PointerRole: return QString::fromStdString(d->pointer);
    case MessageRole:
    case Qt::DisplayRole: return QString::fromStdString(d->message);
    case PartRole: return QString::fromStdString(d->part);
    case JointRole: return QString::fromStdString(d->joint);
    case FailedLoadRole: return m_failedLoad && index.row() == 0;
    default: return {};
  }
}

QHash<int, QByteArray> ProblemListModel::roleNames() const {
  return {{SeverityRole, "severity"}, {FileRole, "file"},   {PointerRole, "pointer"},      {MessageRole, "message"},
          {PartRole, "part"},         {JointRole, "joint"}, {FailedLoadRole, "failedLoad"}};
}

int ProblemListModel::errorCount() const {
  int n = m_failedLoad ? 1 : 0;
  for (const auto& d : m_document) n += d.severity == core::Severity::Error ? 1 : 0;
  return n;
}

void ProblemListModel::reset(const std::function<void()>& change) {
  beginResetModel();
  change();
  endResetModel();
  emit countsChanged();
}

void ProblemListModel::setDocumentProblems(core::Diagnostics problems) {
  // Errors first, each group in the order the loader found them.
  std::stable_sort(problems.begin(), problems.end(), [](const core::Diagnostic& a, const core::Diagnostic& b) {
    return a.severity == core::Severity::Error && b.severity != core::Severity::Error;
  });
  reset([&] {
    m_document = std::move(problems);
    m_failedLoad.reset();
  });
}

void ProblemListModel::addDocumentProblems(const core::Diagnostics& problems) {
  if (problems.empty()) return;
  core::Diagnostics all = m_document;
  all.insert(all.end(), problems.begin(), problems.end());
  setDocumentProblems(std::move(all));
}

int ProblemListModel::warningCount() const {
  int n = 0;
  for (const auto& d : m_document) n += d.severity == core::Severity::Warning ? 1 : 0;
  return n;
}

void ProblemListModel::setFailedLoad(const core::Error& error, const std::string& path) {
  reset([&] {
    m_failedLoad = core::Diagnostic(error.file.empty() ? path : error.file, error.pointer,
                                    "could not open: " + problemText(error), core::Severity::Error);
  });
}

void ProblemListModel::clearFailedLoad() {
  if (m_failedLoad) reset([&] { m_failedLoad.reset(); });
}

}  // namespace riglens::app
