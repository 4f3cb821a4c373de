#include "locations.h"

#include <QtCore/QLocale>
#include <QtCore/QUrl>

namespace riglens::app {

QString localPath(const QVariant& location) {
  if (location.metaType().id() == QMetaType::QUrl) {
    const QUrl url = location.toUrl();
    return url.isLocalFile() ? url.toLocalFile() : url.toString();
  }
  const QString text = location.toString();
  const QUrl url(text);
  return url.isLocalFile() ? url.toLocalFile() : text;
}

QString formatBytes(qint64 bytes) {
  return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

}  // namespace riglens::app
