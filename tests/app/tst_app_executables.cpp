// riglens and riglens-cli run as a user runs them: help, version, exit codes,
// and `riglens --screenshot` producing a real PNG of the window (this test
// runs under xvfb-run, so the viewer finds the X server in DISPLAY).
#include <QtTest/QtTest>

#include <QtCore/QProcess>
#include <QtGui/QImage>

#include "riglens/core/version.h"
#include "test_paths.h"

namespace {

struct Run {
  int exitCode = -1;
  QString out;
  QString err;
};

Run runProgram(const QString& program, const QStringList& args,
               const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
  QProcess process;
  process.setProcessEnvironment(env);
  process.start(program, args);
  Run run;
  if (!process.waitForFinished(120000)) {
    process.kill();
    return run;
  }
  run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
  run.out = QString::fromUtf8(process.readAllStandardOutput());
  run.err = QString::fromUtf8(process.readAllStandardError());
  return run;
}

const QString kGui = QStringLiteral(RIGLENS_GUI_EXE);
const QString kCli = QStringLiteral(RIGLENS_CLI_EXE);

}  // namespace

class TestAppExecutables : public QObject {
  Q_OBJECT

 private slots:
  void cliHelpListsEveryCommand() {
    const Run run = runProgram(kCli, {"--help"});
    QCOMPARE(run.exitCode, 0);
    for (const char* command : {"inspect", "pose", "export", "render", "samples"})
      QVERIFY2(run.out.contains(QStringLiteral("\n  %1 ").arg(command)), command);
  }

  void cliUsageErrorsExitTwo() {
    QCOMPARE(runProgram(kCli, {}).exitCode, 2);
    const Run run = runProgram(kCli, {"frobnicate"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains("unknown command 'frobnicate'"));
  }

  void versionsAgree() {
    const Run cli = runProgram(kCli, {"--version"});
    QCOMPARE(cli.exitCode, 0);
    QCOMPARE(cli.out.trimmed(), QStringLiteral("riglens-cli %1").arg(riglens::core::kVersion));
    // --version needs no display at all.
    auto headless = QProcessEnvironment::systemEnvironment();
    headless.remove("DISPLAY");
    headless.remove("QT_QPA_PLATFORM");
    const Run gui = runProgram(kGui, {"--version"}, headless);
    QCOMPARE(gui.exitCode, 0);
    QCOMPARE(gui.out.trimmed(), QStringLiteral("riglens %1").arg(riglens::core::kVersion));
  }

  void guiRefusesBadArguments() {
    QCOMPARE(runProgram(kGui, {"--no-such-option"}).exitCode, 2);
    const Run run = runProgram(kGui, {"--screenshot", "x.png", "--size", "huge"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.err.contains("--size"));
  }

  void guiScreenshotWritesTheWindow() {
    const QString path = riglens::test::outputPath("riglens_screenshot_cli.png");
    QFile::remove(path);
    const Run run = runProgram(kGui, {"--screenshot", path, "--size", "900x600"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(run.out.trimmed(), QFileInfo(path).absoluteFilePath());
    const QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(900, 600));
    QVERIFY(image.pixel(450, 300) != image.pixel(5, 5));  // viewport vs menu bar
  }
};

QTEST_APPLESS_MAIN(TestAppExecutables)
#include "tst_app_executables.moc"
