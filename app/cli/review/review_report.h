// The review's files: each shard's records as JSON Lines in shards/, and the
// one report merged from them: report.jsonl (a line an item, sorted by
// path) and index.html (a static page that opens from disk). Everything is
// written whole or not at all (a temporary file renamed into place).
#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <optional>
#include <vector>

#include "review_items.h"
#include "riglens/core/base/expected.h"

namespace riglens::cli::review {

core::Expected<void> writeShard(const QString& outDir, Shard shard, const std::vector<QJsonObject>& records);

// An item's record from an earlier review (items/<id>/item.json), if any.
std::optional<QJsonObject> readItemRecord(const QString& outDir, const QString& id);
core::Expected<void> writeItemRecord(const QString& outDir, const QJsonObject& record);

struct MergedReport {
  int items = 0, failed = 0;
  QStringList problems;  // missing shards, unreadable lines: said on stderr and on the page
};

// Merges shards/shard-*-of-N.jsonl into report.jsonl and index.html.
// `count`: the shards expected (unset: what the files say, which must agree).
core::Expected<MergedReport> mergeReport(const QString& outDir, std::optional<int> count);

}  // namespace riglens::cli::review
