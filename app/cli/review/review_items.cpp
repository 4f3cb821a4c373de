#include "review_items.h"

#include <glob.h>

#include <QtCore/QCryptographicHash>
#include <QtCore/QDir>
#include <QtCore/QDirIterator>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QRegularExpression>
#include <QtCore/QTextStream>
#include <map>

#include "riglens/core/open/asset_readers.h"

namespace riglens::cli::review {

namespace {

// Folders a search does not enter: version control and our own output.
bool skippedFolder(const QString& name) {
  return name.startsWith('.');
}

QString itemId(const QString& path) {
  const QByteArray hash = QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha256).toHex().left(12);
  QString name = QFileInfo(path).fileName();
  name.replace(QRegularExpression("[^A-Za-z0-9._-]"), "_");
  return QString::fromLatin1(hash) + "-" + name.left(40);
}

ReviewItem makeItem(const QString& path, const core::AssetReader* reader, const QString& error = {}) {
  ReviewItem item;
  item.path = QFileInfo(path).absoluteFilePath();
  item.id = itemId(item.path);
  item.name = QFileInfo(path).fileName();
  if (reader) item.kind = QString::fromLatin1(core::assetKindName(reader->kind));
  item.error = error;
  return item;
}

// What RigLens draws: runs, models, characters and splat scenes (a DNA holds
// behaviour only). A search takes only what a reader claims by more than a
// fallback (any .json may be a rig; a folder's other JSON files are not
// items), a path given by name whatever claims it.
const core::AssetReader* drawableReader(const QString& path, bool searching = false) {
  const core::ReaderClaim claim = core::claimReader(path.toStdString());
  if (searching && claim.score <= core::kSniffFallback) return nullptr;
  return claim.reader && claim.reader->viewable() ? claim.reader : nullptr;
}

void searchFolder(const QString& folder, std::map<QString, ReviewItem>& found) {
  const QFileInfoList entries = QDir(folder).entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
  for (const QFileInfo& entry : entries) {
    if (entry.isDir() && skippedFolder(entry.fileName())) continue;
    if (!entry.isDir() && !entry.isFile()) continue;  // a FIFO would block the sniff
    const core::AssetReader* reader = drawableReader(entry.absoluteFilePath(), true);
    if (reader)
      found.emplace(entry.absoluteFilePath(), makeItem(entry.absoluteFilePath(), reader));
    else if (entry.isDir())
      searchFolder(entry.absoluteFilePath(), found);
  }
}

void addPath(const QString& path, std::map<QString, ReviewItem>& found);

// glob(3) on a pattern the shell did not expand (quoted, or from a list).
QStringList expandPattern(const QString& pattern) {
  QStringList paths;
  glob_t matches{};
  if (glob(pattern.toLocal8Bit().constData(), 0, nullptr, &matches) == 0)
    for (std::size_t i = 0; i < matches.gl_pathc; ++i) paths << QString::fromLocal8Bit(matches.gl_pathv[i]);
  globfree(&matches);
  return paths;
}

void addList(const QString& listFile, std::map<QString, ReviewItem>& found) {
  QFile file(listFile);
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
    found.emplace(QFileInfo(listFile).absoluteFilePath(),
                  makeItem(listFile, nullptr, "cannot read this list of paths"));
    return;
  }
  const QDir base = QFileInfo(listFile).absoluteDir();
  QTextStream lines(&file);
  while (!lines.atEnd()) {
    const QString line = lines.readLine().trimmed();
    if (line.isEmpty() || line.startsWith('#')) continue;
    addPath(base.absoluteFilePath(line), found);
  }
}

void addPath(const QString& path, std::map<QString, ReviewItem>& found) {
  const QFileInfo info(path);
  if (!info.exists()) {
    const QStringList matches = path.contains(QRegularExpression("[*?[]")) ? expandPattern(path) : QStringList{};
    if (matches.isEmpty()) found.emplace(info.absoluteFilePath(), makeItem(path, nullptr, "no such file or folder"));
    for (const QString& match : matches) addPath(match, found);
    return;
  }
  // A FIFO or a device would block the reader that sniffs it, and then this review.
  if (!info.isDir() && !info.isFile()) {
    found.emplace(info.absoluteFilePath(), makeItem(path, nullptr, "not a regular file"));
    return;
  }
  const core::AssetReader* reader = drawableReader(info.absoluteFilePath());
  if (reader)
    found.emplace(info.absoluteFilePath(), makeItem(path, reader));
  else if (info.isDir())
    searchFolder(info.absoluteFilePath(), found);
  else
    found.emplace(info.absoluteFilePath(), makeItem(path, nullptr, "not a run, model, character or splat scene"));
}

}  // namespace

std::vector<ReviewItem> gatherItems(const QStringList& arguments) {
  std::map<QString, ReviewItem> found;  // by absolute path: sorted, each once
  for (const QString& argument : arguments) {
    if (argument.startsWith('@'))
      addList(argument.mid(1), found);
    else
      addPath(argument, found);
  }
  std::vector<ReviewItem> items;
  items.reserve(found.size());
  for (auto& [path, item] : found) items.push_back(std::move(item));
  return items;
}

std::optional<Shard> parseShard(const QString& text) {
  const QStringList parts = text.split('/');
  bool okIndex = false, okCount = false;
  if (parts.size() != 2) return std::nullopt;
  const Shard shard{parts[0].toInt(&okIndex), parts[1].toInt(&okCount)};
  if (!okIndex || !okCount || shard.count < 1 || shard.index < 0 || shard.index >= shard.count) return std::nullopt;
  return shard;
}

std::optional<Shard> shardFromEnvironment(int countForIndexedJob, QString* problem) {
  bool ok1 = false, ok2 = false, ok3 = true;
  if (qEnvironmentVariableIsSet("SLURM_ARRAY_TASK_ID")) {
    const int id = qEnvironmentVariableIntValue("SLURM_ARRAY_TASK_ID", &ok1);
    const int count = qEnvironmentVariableIntValue("SLURM_ARRAY_TASK_COUNT", &ok2);
    const int first = qEnvironmentVariableIsSet("SLURM_ARRAY_TASK_MIN")
                          ? qEnvironmentVariableIntValue("SLURM_ARRAY_TASK_MIN", &ok3)
                          : 0;
    const Shard shard{id - first, count};
    if (ok1 && ok2 && ok3 && shard.index >= 0 && shard.index < shard.count) return shard;
    *problem = "SLURM_ARRAY_TASK_ID, _MIN and _COUNT do not make a shard (a contiguous array, --array=0-N, is needed)";
    return std::nullopt;
  }
  if (qEnvironmentVariableIsSet("JOB_COMPLETION_INDEX")) {
    const Shard shard{qEnvironmentVariableIntValue("JOB_COMPLETION_INDEX", &ok1), countForIndexedJob};
    if (ok1 && shard.count >= 1 && shard.index >= 0 && shard.index < shard.count) return shard;
    *problem = "JOB_COMPLETION_INDEX needs --shard-count N (the Job's completions), above the index";
    return std::nullopt;
  }
  return Shard{};
}

std::vector<ReviewItem> shardSlice(const std::vector<ReviewItem>& items, Shard shard) {
  std::vector<ReviewItem> slice;
  for (std::size_t i = std::size_t(shard.index); i < items.size(); i += std::size_t(shard.count))
    slice.push_back(items[i]);
  return slice;
}

}  // namespace riglens::cli::review
