// riglens-cli review PATH... --out DIR [--jobs N] [--shard I/N] [--redo] ...
// riglens-cli review --merge DIR [--shard-count N]
//
// Reviews many runs, models, characters and splat scenes into one static
// report: each item in child processes (review_worker.h), N at a time;
// items whose inputs and settings have not changed since the last review in
// DIR are taken from it, so an interrupted review resumes. Sharded, each
// process of a scheduler's array reviews its slice into the shared DIR and
// `--merge` builds the report.
#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <atomic>
#include <mutex>
#include <thread>

#include "cli_common.h"
#include "progress_line.h"
#include "review_items.h"
#include "review_report.h"
#include "review_worker.h"

namespace riglens::cli {

namespace {

using namespace review;

struct ReviewOptions {
  const QCommandLineOption out{"out", "The report's folder (index.html, report.jsonl, items/, shards/).", "DIR"};
  const QCommandLineOption jobs{"jobs", "Items reviewed at once, each in its own processes (default 1).", "N", "1"};
  const QCommandLineOption shard{"shard",
                                 "Review only slice I of N (every N-th item from the I-th, in path order). "
                                 "Unset: Slurm's array task or a Kubernetes Indexed Job's index, if any.",
                                 "I/N"};
  const QCommandLineOption shardCount{
      "shard-count", "With a Kubernetes Indexed Job (JOB_COMPLETION_INDEX): its completions; with --merge: the shards.",
      "N"};
  const QCommandLineOption merge{"merge", "Build DIR's report from its shards, naming any that are missing.", "DIR"};
  const QCommandLineOption size{"size", "Poster and video size (default 480x270).", "WxH", "480x270"};
  const QCommandLineOption frames{"frames", "Frames of each turntable video (default 36).", "N", "36"};
  const QCommandLineOption fps{"fps", "The videos' frame rate (default 24).", "N", "24"};
  const QCommandLineOption noVideo{"no-video", "Posters only."};
  const QCommandLineOption timeout{"timeout", "Seconds each child process may run (default 300).", "S", "300"};
  const QCommandLineOption memoryLimit{"memory-limit", "Address space each child process may take, in MB.", "MB"};
  const QCommandLineOption redo{"redo", "Review every item again, changed or not."};

  void addTo(QCommandLineParser& parser) const {
    parser.addOptions({out, jobs, shard, shardCount, merge, size, frames, fps, noVideo, timeout, memoryLimit, redo});
  }
};

int intOption(const QCommandLineParser& parser, const QCommandLineOption& option, int lowest, int highest, bool* ok) {
  bool parsed = false;
  const int value = parser.value(option).toInt(&parsed);
  *ok = *ok && parsed && value >= lowest && value <= highest;
  return value;
}

// The settings, or a usage message.
std::optional<ItemSettings> readSettings(const QCommandLineParser& parser, const ReviewOptions& o, QString* usage) {
  ItemSettings s;
  s.cli = QCoreApplication::applicationFilePath();
  s.outDir = QDir(parser.value(o.out)).absolutePath();
  bool ok = true;
  s.frames = intOption(parser, o.frames, 1, 720, &ok);
  s.fps = intOption(parser, o.fps, 1, 120, &ok);
  s.timeoutSeconds = intOption(parser, o.timeout, 1, 86400, &ok);
  if (parser.isSet(o.memoryLimit)) s.memoryLimitMb = intOption(parser, o.memoryLimit, 64, 1 << 24, &ok);
  if (!ok) *usage = "--frames (1-720), --fps (1-120), --timeout (s) and --memory-limit (MB, 64 or more) need numbers";
  if (ok && (!parseSize(parser.value(o.size), &s.size) || s.size.width() % 2 || s.size.height() % 2)) {
    *usage = "--size must be WxH, even, between 16 and 8192";
    ok = false;
  }
  s.video = !parser.isSet(o.noVideo);
  return ok ? std::optional(s) : std::nullopt;
}

// A review's folder carries this file, so that a review never writes its
// index.html and items/ over a folder of someone else's files.
constexpr const char* kReviewMarker = ".riglens-review";

// Empty when `dir` is a review's folder (made here if new or empty), else why not.
QString claimOutputFolder(const QString& dir) {
  const QDir folder(dir);
  const bool fresh = !folder.exists() || folder.isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
  if (!fresh && !folder.exists(kReviewMarker))
    return dir + ": holds files that are not a review's (no " + kReviewMarker + "); give a new or empty folder";
  if (!QDir().mkpath(dir)) return dir + ": cannot create the folder";
  QFile marker(folder.filePath(kReviewMarker));
  if (fresh && !marker.open(QIODevice::WriteOnly)) return dir + ": cannot write in the folder";
  return {};
}

int runMerge(const QCommandLineParser& parser, const ReviewOptions& o) {
  std::optional<int> count;
  if (parser.isSet(o.shardCount)) {
    bool ok = true;
    count = intOption(parser, o.shardCount, 1, 1 << 20, &ok);
    if (!ok) return usageError("review", "--shard-count needs a number of shards");
  }
  const QString dir = QDir(parser.value(o.merge)).absolutePath();
  if (!QDir(dir).exists(kReviewMarker))
    return inputError((dir + ": not a review's folder (no " + kReviewMarker + ")").toStdString());
  auto merged = mergeReport(dir, count);
  if (!merged) return inputError(merged.error().message);
  for (const QString& problem : merged->problems) std::fprintf(stderr, "riglens-cli: %s\n", qPrintable(problem));
  std::fprintf(stderr, "riglens-cli: %d items, %d failed\n", merged->items, merged->failed);
  std::printf("%s\n", qPrintable(dir + "/index.html"));
  return merged->problems.isEmpty() ? kExitOk : kExitBadInput;
}

// Reviews `items` `jobs` at a time; an unchanged item's earlier record is kept.
std::vector<QJsonObject> reviewAll(const std::vector<ReviewItem>& items, const ItemSettings& settings, int jobs,
                                   bool redo) {
  std::vector<QJsonObject> records(items.size());
  std::atomic<std::size_t> next{0};
  std::mutex progressLock;
  int done = 0, failed = 0, kept = 0;
  ProgressLine progress(int(items.size()), "item");
  auto work = [&] {
    for (std::size_t i = next++; i < items.size(); i = next++) {
      const ReviewItem& item = items[i];
      const QString hash = item.error.isEmpty() ? hashInputs(item.path) : QString();
      const auto earlier = redo ? std::nullopt : readItemRecord(settings.outDir, item.id);
      const bool unchanged = earlier && !hash.isEmpty() && earlier->value("inputHash") == hash &&
                             earlier->value("settings") == settings.key();
      records[i] = unchanged ? *earlier : reviewItem(item, settings, hash);
      // The record a later review resumes from; without it that item is reviewed again.
      const auto saved = unchanged ? core::Expected<void>{} : writeItemRecord(settings.outDir, records[i]);
      const std::lock_guard lock(progressLock);
      if (!saved) std::fprintf(stderr, "\nriglens-cli: %s\n", saved.error().message.c_str());
      failed += records[i].value("status") != "ok";
      kept += unchanged;
      progress.update(++done, QString("(%1 failed, %2 unchanged)").arg(failed).arg(kept));
    }
  };
  std::vector<std::thread> workers;
  for (int j = 0; j < std::max(1, std::min(jobs, int(items.size()))); ++j) workers.emplace_back(work);
  for (auto& worker : workers) worker.join();
  return records;
}

std::optional<Shard> chosenShard(const QCommandLineParser& parser, const ReviewOptions& o, QString* usage) {
  if (parser.isSet(o.shard)) {
    auto shard = parseShard(parser.value(o.shard));
    if (!shard) *usage = "--shard needs I/N with 0 <= I < N";
    return shard;
  }
  bool ok = true;
  const int count = parser.isSet(o.shardCount) ? intOption(parser, o.shardCount, 1, 1 << 20, &ok) : 0;
  return ok ? shardFromEnvironment(count, usage) : std::nullopt;
}

}  // namespace

int runReview(const QStringList& args) {
  QCommandLineParser parser;
  const ReviewOptions o;
  o.addTo(parser);
  if (auto done =
          parseCommand(parser, args, "review",
                       "Review many runs, models, characters and splat scenes into one HTML report.", "PATH|@LIST..."))
    return *done;
  if (parser.isSet(o.merge)) return runMerge(parser, o);
  if (!parser.isSet(o.out)) return usageError("review", "missing --out DIR");
  if (parser.positionalArguments().isEmpty()) return usageError("review", "name the runs, folders or @lists to review");
  QString usage;
  const auto settings = readSettings(parser, o, &usage);
  const auto shard = settings ? chosenShard(parser, o, &usage) : std::nullopt;
  bool jobsOk = true;
  const int jobs = intOption(parser, o.jobs, 1, 256, &jobsOk);
  if (!jobsOk) usage = "--jobs needs a number between 1 and 256";
  if (!usage.isEmpty() || !settings || !shard) return usageError("review", usage);
  const std::vector<ReviewItem> items = shardSlice(gatherItems(parser.positionalArguments()), *shard);
  if (auto problem = claimOutputFolder(settings->outDir); !problem.isEmpty()) return inputError(problem.toStdString());
  const std::vector<QJsonObject> records = reviewAll(items, *settings, jobs, parser.isSet(o.redo));
  if (auto written = writeShard(settings->outDir, *shard, records); !written)
    return inputError(written.error().message);
  if (shard->count > 1) {
    std::fprintf(stderr,
                 "riglens-cli: shard %d of %d: %zu items; once every shard is done: riglens-cli review --merge %s\n",
                 shard->index, shard->count, records.size(), qPrintable(settings->outDir));
    return kExitOk;
  }
  auto merged = mergeReport(settings->outDir, 1);
  if (!merged) return inputError(merged.error().message);
  std::fprintf(stderr, "riglens-cli: %d items, %d failed\n", merged->items, merged->failed);
  std::printf("%s\n", qPrintable(settings->outDir + "/index.html"));
  return kExitOk;
}

}  // namespace riglens::cli
