#include "riglens/render/device/pipeline_cache.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QSaveFile>
#include <QtCore/QStandardPaths>

#include "riglens/core/base/version.h"

namespace riglens::render {

namespace {
constexpr qint64 kMaxCacheBytes = 64ll << 20;
}

QString pipelineCacheFile(const QString& user) {
  const QString cache = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
  if (cache.isEmpty()) return {};
  return QDir(cache).filePath(QStringLiteral("riglens/pipelines/%1-riglens%2-qt%3.bin")
                                  .arg(user, QString::fromUtf8(core::kVersion), QString::fromUtf8(qVersion())));
}

QByteArray readPipelineCache(const QString& file) {
  QFile in(file);
  if (file.isEmpty() || in.size() > kMaxCacheBytes || !in.open(QIODevice::ReadOnly)) return {};
  return in.readAll();
}

bool writePipelineCache(const QString& file, const QByteArray& data) {
  if (file.isEmpty() || data.isEmpty() || !QDir().mkpath(QFileInfo(file).absolutePath())) return false;
  QSaveFile out(file);
  return out.open(QIODevice::WriteOnly) && out.write(data) == data.size() && out.commit();
}

}  // namespace riglens::render
