#include "app_controller.h"

#include <QtCore/QFileInfo>
#include <QtCore/QLocale>
#include <QtCore/QSettings>
#include <QtGui/QImage>
#include <QtQuick/QQuickWindow>

namespace riglens::app {

namespace {
constexpr auto kRecentKey = "recentFiles";
}

AppController::AppController(QObject* parent) : QObject(parent) {
  QSettings settings;
  m_recentFiles = settings.value(kRecentKey).toStringList();
}

QString AppController::toLocalPath(const QVariant& location) {
  if (location.metaType().id() == QMetaType::QUrl) {
    const QUrl url = location.toUrl();
    return url.isLocalFile() ? url.toLocalFile() : url.toString();
  }
  const QString text = location.toString();
  const QUrl url(text);
  return url.isLocalFile() ? url.toLocalFile() : text;
}

void AppController::open(const QVariant& location) {
  const QString path = toLocalPath(location);
  const QFileInfo info(path);
  if (!info.exists()) {
    setError(tr("%1: no such file or folder").arg(path));
    return;
  }
  rememberRecent(info.absoluteFilePath());
  // The rig loader lands with the voxel core; until then an existing path is
  // remembered but nothing is shown, and the user is told so plainly.
  setError(tr("%1: this build cannot load runs yet (the voxel loader is not part of it)")
               .arg(info.absoluteFilePath()));
}

void AppController::exportGlb(const QVariant& location) {
  setError(tr("%1: nothing to export: no rig is loaded").arg(toLocalPath(location)));
}

bool AppController::saveScreenshot(QQuickWindow* window, const QVariant& location) {
  const QString path = toLocalPath(location);
  if (!window) {
    setError(tr("%1: no window to capture").arg(path));
    return false;
  }
  const QImage image = window->grabWindow();
  if (image.isNull()) {
    setError(tr("%1: the window could not be captured").arg(path));
    return false;
  }
  if (!image.save(path, "PNG")) {
    setError(tr("%1: cannot write the PNG").arg(path));
    return false;
  }
  return true;
}

void AppController::clearRecentFiles() {
  m_recentFiles.clear();
  QSettings().setValue(kRecentKey, m_recentFiles);
  emit recentFilesChanged();
}

void AppController::clearError() {
  if (m_lastError.isEmpty()) return;
  m_lastError.clear();
  emit lastErrorChanged();
}

QString AppController::formatBytes(qint64 bytes) const {
  return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

void AppController::setError(const QString& message) {
  m_lastError = message;
  emit lastErrorChanged();
}

void AppController::rememberRecent(const QString& path) {
  m_recentFiles.removeAll(path);
  m_recentFiles.prepend(path);
  while (m_recentFiles.size() > kMaxRecentFiles) m_recentFiles.removeLast();
  QSettings().setValue(kRecentKey, m_recentFiles);
  emit recentFilesChanged();
}

}  // namespace riglens::app
