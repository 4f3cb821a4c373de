#include "environment_cache.h"

#include <QtCore/QDateTime>
#include <QtCore/QFileInfo>
#include <QtCore/QHash>
#include <QtCore/QMutex>

namespace riglens::app {

namespace {
// A few maps at most: each is its texels in floats (a 4K map is 100 MB).
constexpr int kCachedEnvironments = 3;
}  // namespace

core::Expected<std::shared_ptr<const core::EnvironmentMap>> cachedEnvironment(const QString& path) {
  static QMutex mutex;
  static QHash<QString, std::shared_ptr<const core::EnvironmentMap>> cache;
  const QFileInfo info(path);
  const QString key = info.absoluteFilePath() + QLatin1Char('\n') + QString::number(info.size()) + QLatin1Char('\n') +
                      QString::number(info.lastModified().toMSecsSinceEpoch());
  {
    QMutexLocker lock(&mutex);
    if (const auto found = cache.constFind(key); found != cache.cend()) return *found;
  }
  auto map = core::readEnvironment(path.toStdString());
  if (!map) return map.error();
  auto shared = std::make_shared<const core::EnvironmentMap>(std::move(map).value());
  QMutexLocker lock(&mutex);
  if (cache.size() >= kCachedEnvironments) cache.clear();
  cache.insert(key, shared);
  return shared;
}

}  // namespace riglens::app
