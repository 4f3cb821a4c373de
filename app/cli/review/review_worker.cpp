#include "review_worker.h"

#include <sys/prctl.h>
#include <sys/resource.h>

#include <QtCore/QCryptographicHash>
#include <QtCore/QDateTime>
#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <csignal>
#include <cstring>
#include <filesystem>

#include "review_facts.h"
#include "riglens/core/open/document_files.h"

namespace riglens::cli::review {

namespace {

struct ChildRun {
  int exitCode = 0;
  QString failure;  // empty when it ran to an exit of its own
  QByteArray out, err;
  double ms = 0;
};

ChildRun runChild(const QString& program, const QStringList& args, const ItemSettings& settings) {
  QProcess process;
  const rlim_t limit = rlim_t(settings.memoryLimitMb) * 1024 * 1024;
  process.setChildProcessModifier([limit] {
    // A review killed (Ctrl+C, a scheduler's time limit) takes its children
    // with it instead of leaving them rendering into its folder.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (limit > 0) {
      const rlimit bytes{limit, limit};
      setrlimit(RLIMIT_AS, &bytes);
    }
  });
  QElapsedTimer clock;
  clock.start();
  process.start(program, args);
  ChildRun run;
  if (!process.waitForStarted()) {
    run.failure = "could not start " + program + ": " + process.errorString();
    return run;
  }
  if (!process.waitForFinished(settings.timeoutSeconds * 1000)) {
    process.kill();
    process.waitForFinished();
    run.failure = QString("timed out after %1 s (killed)").arg(settings.timeoutSeconds);
  } else if (process.exitStatus() == QProcess::CrashExit) {
    // Qt reports the signal that ended the process as its exit code.
    const int signal = process.exitCode();
    run.failure = QString("crashed (signal %1, %2)").arg(signal).arg(QString::fromLocal8Bit(strsignal(signal)));
    if (signal == SIGKILL) run.failure += ": killed from outside, often for memory";
  }
  run.exitCode = process.exitCode();
  run.out = process.readAllStandardOutput();
  run.err = process.readAllStandardError();
  run.ms = double(clock.nsecsElapsed()) / 1e6;
  return run;
}

// The last line a child printed on stderr that is not Qt's or Vulkan's chatter.
QString lastMessage(const QByteArray& err) {
  const QStringList lines = QString::fromUtf8(err).split('\n', Qt::SkipEmptyParts);
  for (auto it = lines.crbegin(); it != lines.crend(); ++it)
    if (it->startsWith("riglens-cli:")) return it->mid(13).trimmed();
  return lines.isEmpty() ? QString() : lines.last().trimmed();
}

// `render --timings`: "  <stage>   <ms>" lines on stderr, by stage.
QJsonObject renderStages(const QByteArray& err) {
  QJsonObject stages;
  static const QRegularExpression line(QStringLiteral("^  (\\S.*?)\\s{2,}(-?[0-9.]+)$"));
  for (const QString& text : QString::fromUtf8(err).split('\n')) {
    const auto match = line.match(text);
    // A stage timed more than once (each video frame's encode) is a line per call: summed.
    if (match.hasMatch())
      stages[match.captured(1)] = stages.value(match.captured(1)).toDouble() + match.captured(2).toDouble();
  }
  return stages;
}

QStringList renderArguments(const ReviewItem& item, const ItemSettings& settings, const QString& folder) {
  QStringList args{"render",   item.path,
                   "--size",   QString("%1x%2").arg(settings.size.width()).arg(settings.size.height()),
                   "--out",    folder + "/poster.png",
                   "--timings"};
  if (settings.video)
    args << "--turntable" << QString::number(settings.frames) << "--video" << folder + "/preview.mp4"
         << "--fps" << QString::number(settings.fps);
  return args;
}

void fail(QJsonObject& record, const QString& step, const QString& why) {
  record["status"] = "failed";
  record["error"] = step + ": " + why;
}

}  // namespace

QString ItemSettings::key() const {
  return QString("size=%1x%2 frames=%3 fps=%4 video=%5")
      .arg(size.width())
      .arg(size.height())
      .arg(frames)
      .arg(fps)
      .arg(video ? 1 : 0);
}

QString hashInputs(const QString& path) {
  QCryptographicHash hash(QCryptographicHash::Sha256);
  for (const std::filesystem::path& file : core::documentFiles(QFile::encodeName(path).toStdString())) {
    const QString name = QFile::decodeName(file.c_str());
    QFile in(name);
    if (!in.open(QIODevice::ReadOnly)) return {};
    hash.addData(QDir(path).relativeFilePath(name).toUtf8() + '\0');
    if (!hash.addData(&in)) return {};
  }
  return QString::fromLatin1(hash.result().toHex());
}

QJsonObject reviewItem(const ReviewItem& item, const ItemSettings& settings, const QString& inputHash) {
  QElapsedTimer clock;
  clock.start();
  QJsonObject record{{"id", item.id},     {"path", item.path}, {"name", item.name},
                     {"kind", item.kind}, {"status", "ok"},    {"settings", settings.key()}};
  // To the millisecond: two reviews of one item within a second (a quick
  // re-review, a test) still tell which record is new.
  record["reviewedAt"] = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
  QJsonObject timings;
  if (!item.error.isEmpty()) {
    fail(record, "open", item.error);
    record["problems"] = QJsonArray{};
    return record;
  }
  record["inputHash"] = inputHash;
  const QString folder = QDir(settings.outDir).filePath("items/" + item.id);
  QDir().mkpath(folder);
  // What a review killed mid-item left: a video's temporary file, the old files.
  for (const QString& stale : QDir(folder).entryList({"*.part-*", "poster.png", "preview.mp4"}, QDir::Files))
    QFile::remove(folder + "/" + stale);
  const ChildRun inspect = runChild(settings.cli, {"inspect", item.path, "--json"}, settings);
  timings["inspectMs"] = inspect.ms;
  const QJsonObject facts = QJsonDocument::fromJson(inspect.out).object();
  record["problems"] = facts.value("problems").toArray();
  record["facts"] = digestFacts(facts);
  if (!inspect.failure.isEmpty()) {
    fail(record, "inspect", inspect.failure);
  } else if (inspect.exitCode != 0 || facts.value("loaded") == false) {
    fail(record, "load", lastMessage(inspect.err));
  } else {
    const ChildRun render = runChild(settings.cli, renderArguments(item, settings, folder), settings);
    timings["renderMs"] = render.ms;
    timings["renderStages"] = renderStages(render.err);
    if (!render.failure.isEmpty())
      fail(record, "render", render.failure);
    else if (render.exitCode != 0)
      fail(record, "render", lastMessage(render.err));
    if (QFile::exists(folder + "/poster.png")) record["poster"] = "items/" + item.id + "/poster.png";
    if (QFile::exists(folder + "/preview.mp4")) record["video"] = "items/" + item.id + "/preview.mp4";
  }
  timings["totalMs"] = double(clock.nsecsElapsed()) / 1e6;
  record["timings"] = timings;
  return record;
}

}  // namespace riglens::cli::review
