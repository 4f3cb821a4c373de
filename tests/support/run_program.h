// Runs an executable as a user would and collects what it said: the tests
// of riglens and riglens-cli drive them through this.
#pragma once

#include <QtCore/QProcessEnvironment>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace riglens::test {

struct ProgramRun {
  int exitCode = -1;  // -1: it did not finish in time (killed); -2: it crashed
  QString out;
  QString err;
};

// Waits at most two minutes.
ProgramRun runProgram(const QString& program, const QStringList& args,
                      const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment());

}  // namespace riglens::test
