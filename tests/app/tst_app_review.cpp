// `riglens-cli review`: a report over runs, models, characters and splat
// scenes, broken ones among them (each listed with its error, none
// dropped); a second review that keeps what did not change and redoes what
// did; a review killed mid-way that leaves no half-written report and
// resumes; shards that cover every item once and merge into the unsharded
// report; a child process that runs too long, and one out of memory.
#include <QtCore/QDir>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QTest>
#include <map>
#include <set>

#include "riglens/media/video_reader.h"
#include "run_program.h"

using riglens::test::runProgram;

namespace {

const QString kCli = QStringLiteral(RIGLENS_CLI_EXE);

// Each record by its path.
std::map<QString, QJsonObject> readReport(const QString& file) {
  std::map<QString, QJsonObject> records;
  QFile in(file);
  if (!in.open(QIODevice::ReadOnly)) return records;
  while (!in.atEnd()) {
    const QByteArray line = in.readLine().trimmed();
    if (!line.isEmpty()) {
      const QJsonObject record = QJsonDocument::fromJson(line).object();
      records[record.value("path").toString()] = record;
    }
  }
  return records;
}

// What a record says about its item, without when and how fast it was made.
QJsonObject verdict(QJsonObject record) {
  record.remove("reviewedAt");
  record.remove("timings");
  return record;
}

}  // namespace

class TestAppReview : public QObject {
  Q_OBJECT

  QTemporaryDir m_dir;
  QString m_in;
  QStringList m_good, m_broken;  // absolute paths
  // Quick settings: small pictures, short videos.
  const QStringList m_quick{"--size", "160x90", "--frames", "4", "--fps", "8"};

  QString in(const QString& name) const { return QDir(m_in).absoluteFilePath(name); }

  void write(const QString& name, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(in(name)).absolutePath());
    QFile out(in(name));
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(bytes);
  }

  QStringList review(const QString& out, const QStringList& extra = {}) const {
    return QStringList{"review", m_in, "@" + in("more.txt"), "--out", out} + m_quick + extra;
  }

 private slots:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    m_in = m_dir.filePath("in");
    QVERIFY(runProgram(kCli, {"samples", "--out", m_in, "--name", "walker-cubes", "--name", "tank-cubes", "--name",
                              "gaussians"})
                .exitCode == 0);
    QVERIFY(QDir().mkpath(in("models")));
    QVERIFY(runProgram(kCli, {"export", in("tank-cubes"), "--out", in("models/tank.glb")}).exitCode == 0);
    QVERIFY(runProgram(kCli, {"character", "make-sample", "--out", in("chars")}).exitCode == 0);
    // A .gltf whose triangle is in a .bin beside it.
    const float corners[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    write("models/tri.bin", QByteArray(reinterpret_cast<const char*>(corners), sizeof corners));
    write("models/tri.gltf", R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
      "nodes": [{"mesh": 0}], "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
      "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                     "min": [0, 0, 0], "max": [1, 1, 0]}],
      "bufferViews": [{"buffer": 0, "byteLength": 36}], "buffers": [{"uri": "tri.bin", "byteLength": 36}]})");
    m_good = QStringList{in("walker-cubes"),
                         in("tank-cubes"),
                         in("gaussians.ply"),
                         in("models/tank.glb"),
                         in("models/tri.gltf"),
                         in("chars/sample-bundle"),
                         in("chars/sample-face.aosrig"),
                         in("chars/sample-orl-bundle")};
    write("broken-run/rig.json", R"({"parts": 5})");
    write("models/garbage.glb", "glTF but not really");
    write("clouds/ascii.ply", "ply\nformat ascii 1.0\nelement vertex 3\nend_header\n");
    write("notes.txt", "not an item: a search passes it by");
    // A list of paths: one missing, one given twice (reviewed once).
    write("more.txt", "# extra items\nnowhere/missing.glb\nwalker-cubes\n");
    m_broken =
        QStringList{in("broken-run"), in("models/garbage.glb"), in("clouds/ascii.ply"), in("nowhere/missing.glb")};
  }

  // Every item once; the broken ones failed with their file and reason.
  void reportListsEveryItem() {
    const QString out = m_dir.filePath("report");
    const auto run = runProgram(kCli, review(out, {"--jobs", "2"}));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(run.err.contains(QString("item %1/%1").arg(m_good.size() + m_broken.size())), qPrintable(run.err));
    const auto records = readReport(out + "/report.jsonl");
    QCOMPARE(int(records.size()), m_good.size() + m_broken.size());
    for (const QString& path : m_good) {
      QVERIFY2(records.count(path), qPrintable(path));
      const QJsonObject r = records.at(path);
      QVERIFY2(r.value("status") == "ok", qPrintable(path + ": " + r.value("error").toString()));
      QVERIFY(QFile::exists(out + "/" + r.value("poster").toString()));
      auto video = riglens::media::probeVideo((out + "/" + r.value("video").toString()).toStdString());
      QVERIFY2(video && video->frameCount == 4 && video->width == 160, qPrintable(path));
      QVERIFY(r.value("facts").toObject().contains("format"));
      QVERIFY(r.value("timings").toObject().value("renderMs").toDouble() > 0);
    }
    const QJsonObject walker = records.at(in("walker-cubes")).value("facts").toObject();
    QCOMPARE(walker.value("parts").toInt(), 8);
    QCOMPARE(walker.value("clips").toArray().size(), 2);
    QCOMPARE(records.at(in("gaussians.ply")).value("facts").toObject().value("gaussians").toInt(), 20000);
    const std::map<QString, QString> reasons{{in("broken-run"), "/parts: expected an array"},
                                             {in("models/garbage.glb"), "garbage.glb"},
                                             {in("clouds/ascii.ply"), "not supported"},
                                             {in("nowhere/missing.glb"), "no such file"}};
    for (const auto& [path, reason] : reasons) {
      QVERIFY2(records.count(path), qPrintable(path));
      const QJsonObject r = records.at(path);
      QCOMPARE(r.value("status").toString(), QString("failed"));
      QVERIFY2(r.value("error").toString().contains(reason), qPrintable(r.value("error").toString()));
    }
    QVERIFY(!records.at(in("broken-run")).value("problems").toArray().isEmpty());
    // The page holds every item and opens from disk: nothing it loads is remote.
    QFile page(out + "/index.html");
    QVERIFY(page.open(QIODevice::ReadOnly));
    const QByteArray html = page.readAll();
    for (const auto& [path, record] : records) QVERIFY(html.contains(record.value("id").toString().toUtf8()));
    QVERIFY(!html.contains("http://") && !html.contains("https://"));
  }

  // A second review keeps every unchanged item's record and redoes the
  // changed ones: a run whose rig.json changed, a .gltf whose .bin did.
  void secondReviewRedoesOnlyWhatChanged() {
    const QString out = m_dir.filePath("report");
    const auto before = readReport(out + "/report.jsonl");
    QFile rig(in("tank-cubes/rig.json"));
    QVERIFY(rig.open(QIODevice::Append));
    rig.write("\n");
    rig.close();
    const float moved[9] = {0, 0, 0, 2, 0, 0, 0, 2, 0};
    write("models/tri.bin", QByteArray(reinterpret_cast<const char*>(moved), sizeof moved));
    const auto run = runProgram(kCli, review(out));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const auto after = readReport(out + "/report.jsonl");
    QCOMPARE(after.size(), before.size());
    for (const auto& [path, record] : after) {
      const bool redone = record.value("reviewedAt") != before.at(path).value("reviewedAt");
      // Items that could not be read have nothing to compare: they are tried again.
      const bool unreadable = record.value("inputHash").toString().isEmpty();
      const bool changed = path == in("tank-cubes") || path == in("models/tri.gltf");
      QVERIFY2(redone == (changed || unreadable), qPrintable(path));
      QCOMPARE(verdict(record).value("status"), verdict(before.at(path)).value("status"));
    }
  }

  // SIGKILL mid-review: no report, no temporary file beside it; the next
  // review keeps what was finished and completes the rest.
  void killedReviewResumes() {
    const QString out = m_dir.filePath("killed");
    QProcess process;
    process.start(kCli, review(out, {"--jobs", "1"}));
    QVERIFY(process.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(
        !QDir(out + "/items").entryList({"*"}, QDir::Dirs | QDir::NoDotAndDotDot).isEmpty() &&
            QFileInfo::exists(out + "/items/" +
                              QDir(out + "/items").entryList(QDir::Dirs | QDir::NoDotAndDotDot).first() + "/item.json"),
        60000);
    process.kill();
    process.waitForFinished();
    QVERIFY(!QFile::exists(out + "/report.jsonl") && !QFile::exists(out + "/index.html"));
    QVERIFY(QDir(out).entryList({"*.tmp-*"}, QDir::Files).isEmpty());
    const auto run = runProgram(kCli, review(out));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QVERIFY2(!run.err.contains(" 0 unchanged)"), qPrintable(run.err));
    const auto records = readReport(out + "/report.jsonl");
    QCOMPARE(int(records.size()), m_good.size() + m_broken.size());
    for (const QString& path : m_good) QVERIFY2(records.at(path).value("status") == "ok", qPrintable(path));
    QVERIFY(QDir(out + "/items").entryList({"*.part-*"}, QDir::Files).isEmpty());
  }

  // Shards 0..2 cover every item once; merged, they are the unsharded report.
  void shardsMergeIntoTheWholeReport() {
    const QString out = m_dir.filePath("sharded");
    std::set<QString> seen;
    int total = 0;
    for (int i = 0; i < 3; ++i) {
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      if (i == 1) {  // as a Slurm array task (--array=1-3)
        env.insert("SLURM_ARRAY_TASK_ID", "2");
        env.insert("SLURM_ARRAY_TASK_MIN", "1");
        env.insert("SLURM_ARRAY_TASK_COUNT", "3");
      }
      if (i == 2) env.insert("JOB_COMPLETION_INDEX", "2");  // as a Kubernetes Indexed Job
      const QStringList how = i == 0   ? QStringList{"--shard", "0/3"}
                              : i == 2 ? QStringList{"--shard-count", "3"}
                                       : QStringList{};
      const auto run = runProgram(kCli, review(out, how), env);
      QVERIFY2(run.exitCode == 0, qPrintable(run.err));
      const auto shard = readReport(out + QString("/shards/shard-%1-of-3.jsonl").arg(i));
      QVERIFY2(!shard.empty(), qPrintable(run.err));
      for (const auto& [path, record] : shard) QVERIFY2(seen.insert(path).second, qPrintable(path));
      total += int(shard.size());
    }
    QCOMPARE(total, m_good.size() + m_broken.size());
    QVERIFY(!QFile::exists(out + "/report.jsonl"));  // a shard writes no report
    const auto merge = runProgram(kCli, {"review", "--merge", out});
    QVERIFY2(merge.exitCode == 0, qPrintable(merge.err));
    const auto merged = readReport(out + "/report.jsonl");
    const auto whole = readReport(m_dir.filePath("report") + "/report.jsonl");
    QCOMPARE(merged.size(), whole.size());
    for (const auto& [path, record] : whole) {
      QVERIFY2(merged.count(path), qPrintable(path));
      const QJsonObject a = verdict(merged.at(path)), b = verdict(record);
      for (const char* field : {"id", "status", "error", "facts", "problems", "kind", "inputHash"})
        QVERIFY2(a.value(field) == b.value(field), qPrintable(path + ": " + field));
    }
    // A shard missing: the merge says which, and fails.
    QVERIFY(QFile::remove(out + "/shards/shard-1-of-3.jsonl"));
    const auto partial = runProgram(kCli, {"review", "--merge", out});
    QCOMPARE(partial.exitCode, 1);
    QVERIFY2(partial.err.contains("shard 1 of 3 is missing"), qPrintable(partial.err));
    // A shard with a line that is not a record (a disk filled mid-copy): named, the rest merged.
    QFile shard(out + "/shards/shard-2-of-3.jsonl");
    QVERIFY(shard.open(QIODevice::Append));
    shard.write("{\"truncated\n");
    shard.close();
    const auto damaged = runProgram(kCli, {"review", "--merge", out});
    QCOMPARE(damaged.exitCode, 1);
    QVERIFY2(damaged.err.contains("shard-2-of-3.jsonl line") && damaged.err.contains("not a review record"),
             qPrintable(damaged.err));
    QVERIFY(!readReport(out + "/report.jsonl").empty());
  }

  // A child that runs past --timeout is killed; one whose memory runs out
  // fails; either is its item's error, and the review goes on.
  void childFailuresAreTheItemsErrors() {
    const QString slow = m_dir.filePath("slow");
    // 4096x2304 frames of the walker take far longer than a second on any device.
    const auto timed = runProgram(kCli, {"review", in("walker-cubes"), in("gaussians.ply"), "--out", slow, "--size",
                                         "4096x2304", "--frames", "60", "--timeout", "1"});
    QVERIFY2(timed.exitCode == 0, qPrintable(timed.err));
    const auto records = readReport(slow + "/report.jsonl");
    QCOMPARE(int(records.size()), 2);
    QVERIFY2(records.at(in("walker-cubes")).value("error").toString().contains("timed out after 1 s"),
             qPrintable(records.at(in("walker-cubes")).value("error").toString()));
    const QString starved = m_dir.filePath("starved");
    const auto limited =
        runProgram(kCli, QStringList{"review", in("walker-cubes"), "--out", starved, "--memory-limit", "64"} + m_quick);
    QVERIFY2(limited.exitCode == 0, qPrintable(limited.err));
    const QJsonObject r = readReport(starved + "/report.jsonl").at(in("walker-cubes"));
    QCOMPARE(r.value("status").toString(), QString("failed"));
    QVERIFY2(!r.value("error").toString().isEmpty(), "a failure without its message");
    qInfo("out of memory: %s", qPrintable(r.value("error").toString()));
  }

  void refusals() {
    QCOMPARE(runProgram(kCli, {"review", m_in}).exitCode, 2);                                  // no --out
    QCOMPARE(runProgram(kCli, {"review", "--out", m_dir.filePath("x")}).exitCode, 2);          // nothing to review
    QCOMPARE(runProgram(kCli, {"review", m_in, "--out", "x", "--shard", "3/3"}).exitCode, 2);  // no such shard
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("JOB_COMPLETION_INDEX", "1");  // without --shard-count
    const auto run = runProgram(kCli, {"review", m_in, "--out", m_dir.filePath("y")}, env);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains("--shard-count"), qPrintable(run.err));
    QCOMPARE(runProgram(kCli, {"review", "--merge", m_dir.filePath("nothing-here")}).exitCode, 1);
    // A folder of someone else's files is not written over.
    QVERIFY(QDir().mkpath(m_dir.filePath("site")));
    QFile page(m_dir.filePath("site/index.html"));
    QVERIFY(page.open(QIODevice::WriteOnly));
    page.write("my own page");
    page.close();
    const auto refused = runProgram(kCli, QStringList{"review", in("walker-cubes"), "--out", m_dir.filePath("site")});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains("not a review's"), qPrintable(refused.err));
    QVERIFY(page.open(QIODevice::ReadOnly) && page.readAll() == "my own page");
    QCOMPARE(QDir(m_dir.filePath("site")).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).size(), 1);
    QCOMPARE(runProgram(kCli, {"review", "--merge", m_dir.filePath("site")}).exitCode, 1);
  }
};

QTEST_GUILESS_MAIN(TestAppReview)
#include "tst_app_review.moc"
