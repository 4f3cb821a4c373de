// The riglens-cli command table and dispatcher.
#pragma once

#include <QtCore/QStringList>

namespace riglens::cli {

enum ExitCode : int { kExitOk = 0, kExitBadInput = 1, kExitUsage = 2 };

// Runs the command named in args[1] with the remaining arguments.
int run(const QStringList& args);

}  // namespace riglens::cli
