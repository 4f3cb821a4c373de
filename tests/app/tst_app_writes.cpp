// Writes that cannot be half done, through the programs as users run them:
// an export, a character's splats, a CLI render's PNG and the viewer's
// --screenshot, each over a previous file, on a full filesystem (a 64 KiB
// tmpfs mounted in a private mount namespace by `unshare -rm`: real ENOSPC
// from the kernel) and under a file size limit (`prlimit --fsize`: EFBIG).
// Each must exit 1 naming the cause, leave the previous file byte for byte
// and no temporary file. Then an export killed with SIGKILL at moments
// spread over its run: the target is always the previous file or the whole
// new one, never a part.
#include <signal.h>
#include <unistd.h>

#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QTest>

#include "run_program.h"

using riglens::test::ProgramRun;
using riglens::test::runProgram;

namespace {

const QString kGui = QStringLiteral(RIGLENS_GUI_EXE);
const QString kCli = QStringLiteral(RIGLENS_CLI_EXE);

// Smaller than any of the files written (a 640x480 PNG of the tank is
// ~40 KiB; tmpfs rounds to pages and keeps some for itself).
constexpr int kFullDiskKiB = 16;
// Under a size limit of this many bytes every file above is too large.
constexpr int kFileSizeLimit = 4096;
// How many times the export is killed, at moments spread over its run.
constexpr int kKills = 12;

const QByteArray kPrevious = "the previous file, which must survive\n";

// Runs `command` with `target` (a file name) in a fresh tmpfs of `kib` KiB
// that already holds the previous file under that name; reports what the
// shell saw: the command's exit code, whether the previous file is intact,
// and the folder's entries afterwards.
struct FullDiskRun {
  ProgramRun run;
  int exitCode = -1;
  bool intact = false;
  QStringList entries;
};

FullDiskRun onFullDisk(const QString& folder, const QString& target, const QStringList& command) {
  QFile previous(folder + "/previous");
  if (previous.open(QIODevice::WriteOnly)) previous.write(kPrevious);
  previous.close();
  const QString disk = folder + "/disk";
  QDir().mkpath(disk);
  const QString script = QStringLiteral(
                             "mount -t tmpfs -o size=%1k tmpfs \"$DISK\" || exit 97\n"
                             "cp \"$PREVIOUS\" \"$DISK/$TARGET\" || exit 98\n"
                             "\"$@\"\n"
                             "echo \"exit=$?\"\n"
                             "cmp -s \"$PREVIOUS\" \"$DISK/$TARGET\" && echo intact\n"
                             "ls -A \"$DISK\" | sed 's/^/entry=/'\n")
                             .arg(kFullDiskKiB);
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert("DISK", disk);
  env.insert("PREVIOUS", previous.fileName());
  env.insert("TARGET", target);
  FullDiskRun result;
  result.run = runProgram("unshare", QStringList{"-rm", "sh", "-c", script, "sh"} + command, env);
  for (const QString& line : result.run.out.split('\n')) {
    if (line.startsWith("exit=")) result.exitCode = line.mid(5).toInt();
    if (line == "intact") result.intact = true;
    if (line.startsWith("entry=")) result.entries << line.mid(6);
  }
  return result;
}

}  // namespace

class TestAppWrites : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  QString m_run, m_bundle;

  // Each program as a user runs it, writing into `folder`.
  struct Writer {
    QString name, program;
    QStringList args;
    QString target;  // the file it writes
  };
  QList<Writer> writers(const QString& folder) const {
    return {
        {"export", kCli, {"export", m_run, "--out", folder + "/out.glb"}, folder + "/out.glb"},
        {"character splats",
         kCli,
         {"character", "splats", m_bundle, "--out", folder + "/out.ply"},
         folder + "/out.ply"},
        {"render", kCli, {"render", m_run, "--out", folder + "/out.png", "--size", "640x480"}, folder + "/out.png"},
        {"viewer screenshot",
         kGui,
         {m_run, "--screenshot", folder + "/out.png", "--size", "640x480"},
         folder + "/out.png"},
    };
  }

 private slots:
  void initTestCase() {
    QVERIFY(runProgram(kCli, {"samples", "--out", m_dir.path(), "--name", "tank-cubes"}).exitCode == 0);
    QVERIFY(runProgram(kCli, {"character", "make-sample", "--out", m_dir.path()}).exitCode == 0);
    m_run = m_dir.filePath("tank-cubes");
    m_bundle = m_dir.filePath("sample-bundle");
  }

  void everyWriterOnAFullDisk() {
    QTemporaryDir folder;
    for (const Writer& writer : writers(folder.filePath("disk"))) {
      const QString target = QFileInfo(writer.target).fileName();
      const FullDiskRun result = onFullDisk(folder.path(), target, QStringList{writer.program} + writer.args);
      QVERIFY2(result.exitCode != 97, "could not mount a tmpfs in a private mount namespace (unshare -rm)");
      const QString what = writer.name + ": " + result.run.err.right(600);
      QVERIFY2(result.exitCode == 1, qPrintable(what));
      QVERIFY2(result.run.err.contains("No space left on device, ENOSPC"), qPrintable(what));
      QVERIFY2(result.run.err.contains(target), qPrintable(what));
      QVERIFY2(result.intact, qPrintable(what));
      QCOMPARE(result.entries, QStringList{target});  // no temporary file left
    }
  }

  void everyWriterUnderAFileSizeLimit() {
    for (const Writer& writer : writers(m_dir.filePath("limited"))) {
      QDir(m_dir.path()).mkpath("limited");
      QFile previous(writer.target);
      QVERIFY(previous.open(QIODevice::WriteOnly));
      previous.write(kPrevious);
      previous.close();
      const ProgramRun run =
          runProgram("prlimit", QStringList{QString("--fsize=%1").arg(kFileSizeLimit), writer.program} + writer.args);
      const QString what = writer.name + ": " + run.err.right(600);
      QVERIFY2(run.exitCode == 1, qPrintable(what));
      QVERIFY2(run.err.contains("File too large, EFBIG"), qPrintable(what));
      QVERIFY(previous.open(QIODevice::ReadOnly));
      QCOMPARE(previous.readAll(), kPrevious);
      previous.close();
      QVERIFY(QFile::remove(writer.target));
      QCOMPARE(QDir(m_dir.filePath("limited")).entryList(QDir::Files | QDir::Hidden), QStringList{});
    }
  }

  // SIGKILL at moments spread over an export's run: the file is the previous
  // one or the complete new one (equal to an export that finished), never
  // a part of it; a kill inside the write leaves a .tmp- file beside it.
  void aKilledExportLeavesTheOldFileOrTheNewOne() {
    QTemporaryDir folder;
    const QString reference = folder.filePath("reference.glb"), target = folder.filePath("out.glb");
    QElapsedTimer clock;
    clock.start();
    QVERIFY(runProgram(kCli, {"export", m_run, "--out", reference}).exitCode == 0);
    const qint64 exportMs = clock.elapsed();
    QFile ref(reference);
    QVERIFY(ref.open(QIODevice::ReadOnly));
    const QByteArray whole = ref.readAll();
    int previous = 0, replaced = 0;
    for (int k = 0; k < kKills; ++k) {
      QFile out(target);
      QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
      out.write(kPrevious);
      out.close();
      QProcess process;
      process.start(kCli, {"export", m_run, "--out", target});
      QVERIFY(process.waitForStarted());
      QTest::qSleep(int(exportMs * (k + 0.5) / kKills));  // spread over the run
      ::kill(pid_t(process.processId()), SIGKILL);
      process.waitForFinished();
      QVERIFY(out.open(QIODevice::ReadOnly));
      const QByteArray now = out.readAll();
      out.close();
      QVERIFY2(now == kPrevious || now == whole, qPrintable(QString("kill %1: %2 bytes").arg(k).arg(now.size())));
      (now == kPrevious ? previous : replaced)++;
    }
    qInfo("%d kills: %d left the previous file, %d the new one (an export takes %lld ms)", kKills, previous, replaced,
          exportMs);
    staleTempsAreSweptOnTheNextWrite(folder, target);
  }

 private:
  // The next write of the target removes the temp files its killed writers
  // left (this host, a process that no longer exists) and leaves a live
  // writer's and another host's alone.
  void staleTempsAreSweptOnTheNextWrite(const QTemporaryDir& folder, const QString& target) {
    char hostName[256] = {};
    QVERIFY(::gethostname(hostName, sizeof hostName - 1) == 0);
    const QString host = QString::fromLocal8Bit(hostName).replace('-', '_').replace('/', '_');
    QProcess gone;
    gone.start("true", {});
    QVERIFY(gone.waitForStarted());
    const qint64 gonePid = gone.processId();
    QVERIFY(gone.waitForFinished());
    const QString dead = QString("out.glb.tmp-%1-%2-1").arg(host).arg(gonePid);
    const QString live = QString("out.glb.tmp-%1-%2-1").arg(host).arg(QCoreApplication::applicationPid());
    const QString foreign = QString("out.glb.tmp-another_host-%1-1").arg(gonePid);
    for (const QString& name : {dead, live, foreign}) {
      QFile file(folder.filePath(name));
      QVERIFY(file.open(QIODevice::WriteOnly));
    }
    QVERIFY(runProgram(kCli, {"export", m_run, "--out", target}).exitCode == 0);
    QStringList temps = QDir(folder.path()).entryList({"out.glb.tmp-*"}, QDir::Files | QDir::Hidden);
    temps.sort();
    QStringList kept{live, foreign};
    kept.sort();
    QVERIFY2(temps == kept, qPrintable(temps.join(", ")));
  }
};

QTEST_MAIN(TestAppWrites)
#include "tst_app_writes.moc"
