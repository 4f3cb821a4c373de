#include "run_program.h"

#include <QtCore/QProcess>

namespace riglens::test {

namespace {
constexpr int kProgramTimeoutMs = 120000;
}

ProgramRun runProgram(const QString& program, const QStringList& args, const QProcessEnvironment& env) {
  QProcess process;
  process.setProcessEnvironment(env);
  process.start(program, args);
  ProgramRun run;
  if (!process.waitForFinished(kProgramTimeoutMs)) {
    process.kill();
    return run;
  }
  run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
  run.out = QString::fromUtf8(process.readAllStandardOutput());
  run.err = QString::fromUtf8(process.readAllStandardError());
  return run;
}

}  // namespace riglens::test
