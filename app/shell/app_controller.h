// AppController: the QObject the QML panels talk to. Owns the open document's
// summary, the recent-files list (persisted with QSettings) and the last
// error shown in the banner. Lives on the GUI thread.
#pragma once

#include <QtCore/QElapsedTimer>
#include <QtCore/QFutureWatcher>
#include <QtCore/QObject>
#include <QtCore/QStringList>
#include <QtCore/QTimer>
#include <QtCore/QUrl>

#include <memory>

#include "document.h"
#include "riglens/core/expected.h"

class QQuickWindow;

namespace riglens::app {

class AppController : public QObject {
  Q_OBJECT
  Q_PROPERTY(QString documentTitle READ documentTitle NOTIFY documentChanged)
  Q_PROPERTY(bool hasDocument READ hasDocument NOTIFY documentChanged)
  Q_PROPERTY(bool canExport READ canExport NOTIFY documentChanged)
  Q_PROPERTY(QStringList partNames READ partNames NOTIFY documentChanged)
  Q_PROPERTY(QStringList jointNames READ jointNames NOTIFY documentChanged)
  Q_PROPERTY(QStringList animationNames READ animationNames NOTIFY documentChanged)
  Q_PROPERTY(QStringList expressionChannels READ expressionChannels NOTIFY documentChanged)
  Q_PROPERTY(qint64 cpuBytes READ cpuBytes NOTIFY documentChanged)
  Q_PROPERTY(qint64 gpuBytes READ gpuBytes NOTIFY documentChanged)
  Q_PROPERTY(QStringList recentFiles READ recentFiles NOTIFY recentFilesChanged)
  Q_PROPERTY(QString lastError READ lastError NOTIFY lastErrorChanged)
  Q_PROPERTY(bool loading READ loading NOTIFY loadingChanged)
  Q_PROPERTY(QStringList warnings READ warnings NOTIFY documentChanged)

 public:
  static constexpr int kMaxRecentFiles = 10;

  explicit AppController(QObject* parent = nullptr);

  QString documentTitle() const { return m_documentTitle; }
  bool hasDocument() const { return m_document != nullptr; }
  bool canExport() const { return m_document != nullptr; }
  QStringList partNames() const;
  QStringList jointNames() const;
  QStringList animationNames() const;
  QStringList expressionChannels() const { return {}; }  // splat characters: not in this build
  qint64 cpuBytes() const;
  qint64 gpuBytes() const { return m_gpuBytes; }
  bool loading() const { return m_loading; }
  QStringList warnings() const;
  Document* document() { return m_document.get(); }
  QStringList recentFiles() const { return m_recentFiles; }
  QString lastError() const { return m_lastError; }

  // `location` is a QUrl (from dialogs and drops) or a local path string.
  // Loads off the GUI thread; the current model stays until the new one is
  // ready, and stays if it fails (lastError says why).
  Q_INVOKABLE void open(const QVariant& location);
  // Opens the bundled sample (generated once into the cache folder).
  Q_INVOKABLE void openDefault();
  // Blocks until no load is running (for --screenshot, tests).
  void waitForLoad();
  void setGpuBytes(qint64 bytes);
  Q_INVOKABLE void exportGlb(const QVariant& location);
  // Grabs the window's current frame and writes it as PNG. Returns false and
  // sets lastError when the file cannot be written.
  Q_INVOKABLE bool saveScreenshot(QQuickWindow* window, const QVariant& location);
  Q_INVOKABLE void clearRecentFiles();
  Q_INVOKABLE void clearError();
  Q_INVOKABLE QString formatBytes(qint64 bytes) const;

  static QString toLocalPath(const QVariant& location);

 signals:
  void documentChanged();
  void recentFilesChanged();
  void lastErrorChanged();
  void loadingChanged();
  void poseChanged();  // joint values / part worlds changed (animation tick, slider)

 private:
  void setError(const QString& message);
  void rememberRecent(const QString& path);
  void finishLoad();
  void tick();

  std::unique_ptr<Document> m_document;
  QFutureWatcher<core::Expected<core::LoadedRun>> m_load;
  QString m_loadingPath;
  bool m_loading = false;
  qint64 m_gpuBytes = 0;
  QTimer m_clock;
  QElapsedTimer m_sinceTick;
  QString m_documentPath;
  QString m_documentTitle;
  QStringList m_recentFiles;
  QString m_lastError;
};

}  // namespace riglens::app
