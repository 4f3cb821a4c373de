// Shared helpers of the riglens-cli commands: option parsing with the CLI's
// exit-code rules, printing errors, loading a run.
#pragma once

#include <cstdio>
#include <optional>

#include <QtCore/QCommandLineParser>
#include <QtCore/QStringList>

#include "cli_commands.h"
#include "riglens/core/run_loader.h"

namespace riglens::cli {

// Parses `args` (args[0] = the command name). Prints help and returns kExitOk
// for --help, prints the error and returns kExitUsage on a bad option, and
// returns nullopt when the command should go on.
std::optional<int> parseCommand(QCommandLineParser& parser, const QStringList& args, const char* command,
                                const char* summary, const char* positional);

int usageError(const char* command, const QString& message);
int inputError(const std::string& message);

// Loads the one positional PATH or reports why not.
std::optional<core::LoadedRun> loadRunArgument(const QCommandLineParser& parser, const char* command, int* exitCode);

}  // namespace riglens::cli
