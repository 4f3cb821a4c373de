// riglens-cli: the engine from the command line.
//
//   riglens-cli <command> [options]     commands: inspect, pose, export, render, samples
//
// Exit codes: 0 success, 1 bad input (message on stderr), 2 usage error.
#include <cstdio>

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>

#include "cli_commands.h"
#include "riglens/core/version.h"

int main(int argc, char* argv[]) {
  QCoreApplication app(argc, argv);
  QCoreApplication::setApplicationName(QStringLiteral("riglens-cli"));
  QCoreApplication::setApplicationVersion(QString::fromUtf8(riglens::core::kVersion));
  return riglens::cli::run(QCoreApplication::arguments());
}
