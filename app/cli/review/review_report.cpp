#include "review_report.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QRegularExpression>
#include <map>
#include <set>

#include "riglens/core/base/file_io.h"

namespace riglens::cli::review {

namespace {

core::Expected<void> writeAtomically(const QString& path, const QByteArray& bytes) {
  return core::writeFileAtomically(
      path.toStdString(),
      std::span(reinterpret_cast<const std::uint8_t*>(bytes.constData()), std::size_t(bytes.size())));
}

QByteArray jsonLines(const std::vector<QJsonObject>& records) {
  QByteArray lines;
  for (const QJsonObject& record : records) lines += QJsonDocument(record).toJson(QJsonDocument::Compact) + '\n';
  return lines;
}

QString shardName(Shard shard) {
  return QString("shard-%1-of-%2.jsonl").arg(shard.index).arg(shard.count);
}

// The page: review_page.html with the records and the problems in it.
QByteArray reportPage(const std::vector<QJsonObject>& records, const MergedReport& merged) {
  QFile page(":/riglens/review_page.html");
  page.open(QIODevice::ReadOnly);
  QJsonArray items;
  for (const QJsonObject& record : records) items.append(record);
  const QJsonObject data{{"items", items}, {"problems", QJsonArray::fromStringList(merged.problems)}};
  QByteArray json = QJsonDocument(data).toJson(QJsonDocument::Compact);
  // Inside <script>, "</" would end the element early: JSON allows "<\/".
  json.replace("</", "<\\/");
  return page.readAll().replace("\"RIGLENS_REVIEW_DATA\"", json);
}

// Reads one shard's records into `byId`; unreadable lines become problems.
void readShard(const QString& file, std::map<QString, QJsonObject>& byId, QStringList& problems) {
  QFile in(file);
  if (!in.open(QIODevice::ReadOnly)) {
    problems << QFileInfo(file).fileName() + ": cannot be read";
    return;
  }
  int lineNumber = 0;
  while (!in.atEnd()) {
    const QByteArray line = in.readLine().trimmed();
    ++lineNumber;
    if (line.isEmpty()) continue;
    const QJsonObject record = QJsonDocument::fromJson(line).object();
    if (record.value("id").toString().isEmpty()) {
      problems << QString("%1 line %2: not a review record").arg(QFileInfo(file).fileName()).arg(lineNumber);
      continue;
    }
    byId[record.value("id").toString()] = record;
  }
}

}  // namespace

core::Expected<void> writeShard(const QString& outDir, Shard shard, const std::vector<QJsonObject>& records) {
  QDir().mkpath(outDir + "/shards");
  return writeAtomically(outDir + "/shards/" + shardName(shard), jsonLines(records));
}

std::optional<QJsonObject> readItemRecord(const QString& outDir, const QString& id) {
  QFile in(outDir + "/items/" + id + "/item.json");
  if (!in.open(QIODevice::ReadOnly)) return std::nullopt;
  const QJsonObject record = QJsonDocument::fromJson(in.readAll()).object();
  if (record.value("id").toString() != id) return std::nullopt;
  return record;
}

core::Expected<void> writeItemRecord(const QString& outDir, const QJsonObject& record) {
  const QString folder = outDir + "/items/" + record.value("id").toString();
  QDir().mkpath(folder);
  return writeAtomically(folder + "/item.json", QJsonDocument(record).toJson());
}

core::Expected<MergedReport> mergeReport(const QString& outDir, std::optional<int> count) {
  static const QRegularExpression name(QStringLiteral("^shard-(\\d+)-of-(\\d+)\\.jsonl$"));
  std::map<int, std::set<int>> shardsByCount;
  for (const QString& file : QDir(outDir + "/shards").entryList(QDir::Files)) {
    const auto match = name.match(file);
    if (match.hasMatch()) shardsByCount[match.captured(2).toInt()].insert(match.captured(1).toInt());
  }
  if (!count) {
    if (shardsByCount.empty())
      return core::makeError(core::ErrorCode::Io, (outDir + "/shards: no shard-I-of-N.jsonl to merge").toStdString());
    if (shardsByCount.size() > 1)
      return core::makeError(core::ErrorCode::Invalid,
                             (outDir + "/shards: shards of several counts (" + QString::number(shardsByCount.size()) +
                              "): an older review is there; give --shard-count N")
                                 .toStdString());
    count = shardsByCount.begin()->first;
  }
  MergedReport merged;
  std::map<QString, QJsonObject> byId;
  for (int index = 0; index < *count; ++index) {
    if (!shardsByCount[*count].count(index)) {
      merged.problems << QString("shard %1 of %2 is missing: its items are not in this report").arg(index).arg(*count);
      continue;
    }
    readShard(outDir + "/shards/" + shardName({index, *count}), byId, merged.problems);
  }
  std::vector<QJsonObject> records;
  for (auto& [id, record] : byId) records.push_back(std::move(record));
  std::sort(records.begin(), records.end(), [](const QJsonObject& a, const QJsonObject& b) {
    return a.value("path").toString() < b.value("path").toString();
  });
  merged.items = int(records.size());
  for (const QJsonObject& record : records) merged.failed += record.value("status") != "ok";
  if (auto ok = writeAtomically(outDir + "/report.jsonl", jsonLines(records)); !ok) return ok.error();
  if (auto ok = writeAtomically(outDir + "/index.html", reportPage(records, merged)); !ok) return ok.error();
  return merged;
}

}  // namespace riglens::cli::review
