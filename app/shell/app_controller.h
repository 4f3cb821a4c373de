// AppController: the QObject the QML panels talk to. Owns the open document's
// summary, the recent-files list (persisted with QSettings) and the last
// error shown in the banner. Lives on the GUI thread.
#pragma once

#include <QtCore/QObject>
#include <QtCore/QStringList>
#include <QtCore/QUrl>

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

 public:
  static constexpr int kMaxRecentFiles = 10;

  explicit AppController(QObject* parent = nullptr);

  QString documentTitle() const { return m_documentTitle; }
  bool hasDocument() const { return !m_documentPath.isEmpty(); }
  bool canExport() const { return false; }  // true once a voxel rig is loaded
  QStringList partNames() const { return {}; }
  QStringList jointNames() const { return {}; }
  QStringList animationNames() const { return {}; }
  QStringList expressionChannels() const { return {}; }
  qint64 cpuBytes() const { return 0; }
  qint64 gpuBytes() const { return 0; }
  QStringList recentFiles() const { return m_recentFiles; }
  QString lastError() const { return m_lastError; }

  // `location` is a QUrl (from dialogs and drops) or a local path string.
  Q_INVOKABLE void open(const QVariant& location);
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

 private:
  void setError(const QString& message);
  void rememberRecent(const QString& path);

  QString m_documentPath;
  QString m_documentTitle;
  QStringList m_recentFiles;
  QString m_lastError;
};

}  // namespace riglens::app
