#include "riglens/watch/document_watcher.h"

#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QSet>
#include <set>

namespace riglens::watch {

std::vector<core::FileStamp> DocumentWatcher::stampsOf(const QString& path) {
  return core::stampFiles(core::documentFiles(QFile::encodeName(path).toStdString()));
}

DocumentWatcher::DocumentWatcher(QObject* parent) : QObject(parent) {
  m_settle.setSingleShot(true);
  m_settle.setInterval(kSettleMs);
  connect(&m_settle, &QTimer::timeout, this, &DocumentWatcher::check);
  connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &DocumentWatcher::noticeChange);
  connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &DocumentWatcher::noticeChange);
}

void DocumentWatcher::watch(const QString& path, std::vector<core::FileStamp> loaded) {
  m_settle.stop();
  if (!m_watcher.files().isEmpty()) m_watcher.removePaths(m_watcher.files());
  if (!m_watcher.directories().isEmpty()) m_watcher.removePaths(m_watcher.directories());
  m_path = path;
  m_loaded.clear();
  m_seen.clear();
  if (m_path.isEmpty()) return;
  m_loaded = std::move(loaded);
  m_seen = stampsOf(m_path);
  followFiles();
  if (m_seen != m_loaded) m_settle.start();  // written while it loaded
}

// Every file of the document and every folder holding one (or the opened
// folder itself, which may still be empty of what it will hold). Adding a
// path that is already watched is a no-op; a file replaced by rename left
// the watch and comes back here.
void DocumentWatcher::followFiles() {
  QStringList paths;
  std::set<QString> folders;
  const QFileInfo opened(m_path);
  folders.insert(opened.isDir() ? opened.absoluteFilePath() : opened.absolutePath());
  for (const core::FileStamp& stamp : m_seen) {
    const QString file = QFile::decodeName(stamp.path.c_str());
    if (stamp.exists) paths << file;
    folders.insert(QFileInfo(file).absolutePath());
  }
  for (const QString& folder : folders) paths << folder;
  const QStringList files = m_watcher.files(), directories = m_watcher.directories();
  const QSet<QString> watched(files.begin(), files.end());
  QStringList missing;
  for (const QString& p : paths)
    if (!watched.contains(p) && !directories.contains(p)) missing << p;
  if (!missing.isEmpty()) m_watcher.addPaths(missing);
}

void DocumentWatcher::noticeChange() {
  if (!m_path.isEmpty()) m_settle.start();
}

void DocumentWatcher::check() {
  const std::vector<core::FileStamp> now = stampsOf(m_path);
  if (now != m_seen) {  // still being written: wait for quiet
    m_seen = now;
    followFiles();
    m_settle.start();
    return;
  }
  followFiles();
  if (now == m_loaded) return;  // rewritten to what it was (or only touched a listing)
  m_loaded = now;               // one reload per settled change, whatever it gives
  emit settled();
}

}  // namespace riglens::watch
