// DocumentWatcher: tells when the files of an open document were rewritten
// and the writes have settled (live reload). It watches every file the
// document is made of (core::documentFiles) and the folders holding them
// (a file replaced by rename is a folder event), and compares the files'
// stamps (size, modification time) with those of the load: once they differ
// and have stayed the same for kSettleMs, `settled` is emitted once. A
// generator writing a file in pieces therefore triggers one reload after its
// last write, not one per write; a reload that still sees a half-written
// file fails, keeps what is shown and is followed by another when the
// writer finishes. GUI thread.
#pragma once

#include <QtCore/QFileSystemWatcher>
#include <QtCore/QObject>
#include <QtCore/QString>
#include <QtCore/QTimer>
#include <vector>

#include "riglens/core/open/document_files.h"

namespace riglens::watch {

class DocumentWatcher : public QObject {
  Q_OBJECT

 public:
  // Quiet time after the last change before a reload: longer than a
  // generator's pause between the writes of one file, short enough to feel live.
  static constexpr int kSettleMs = 300;

  explicit DocumentWatcher(QObject* parent = nullptr);

  // The stamps of `path`'s files now: taken before a load reads them, so a
  // write during the load is still noticed afterwards.
  static std::vector<core::FileStamp> stampsOf(const QString& path);
  // Starts watching `path`, whose shown state was read from files stamped
  // `loaded`; an empty path stops.
  void watch(const QString& path, std::vector<core::FileStamp> loaded);
  void stop() { watch({}, {}); }
  QString path() const { return m_path; }

 signals:
  // The document's files changed and then stayed unchanged for kSettleMs.
  void settled();

 private:
  void noticeChange();
  void check();
  void followFiles();

  QString m_path;
  QFileSystemWatcher m_watcher;
  QTimer m_settle;
  std::vector<core::FileStamp> m_loaded;  // what the shown document was read from
  std::vector<core::FileStamp> m_seen;    // the newest stamps, not yet settled
};

}  // namespace riglens::watch
