// Shared helpers of the riglens-cli commands: option parsing with the CLI's
// exit-code rules, printing errors, loading a run.
#pragma once

#include <QtCore/QCommandLineParser>
#include <QtCore/QSize>
#include <QtCore/QStringList>
#include <cstdio>
#include <optional>

#include "cli_commands.h"
#include "riglens/core/character/body_pose.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/run_loader.h"

namespace riglens::cli {

// Parses `args` (args[0] = the command name). Prints help and returns kExitOk
// for --help, prints the error and returns kExitUsage on a bad option, and
// returns nullopt when the command should go on.
std::optional<int> parseCommand(QCommandLineParser& parser, const QStringList& args, const char* command,
                                const char* summary, const char* positional);

int usageError(const char* command, const QString& message);

// --body-pose FILE.json (core::BodyPose): nullopt and *exitCode set when the
// file cannot be read; an empty pose when the option is not set.
std::optional<core::BodyPose> readBodyPose(const QCommandLineParser& parser, const QCommandLineOption& option,
                                           int* exitCode);

// "WxH" with both sides in [16, 8192].
bool parseSize(const QString& text, QSize* size);
int inputError(const std::string& message);

// Loads the one positional PATH or reports why not.
std::optional<core::LoadedRun> loadRunArgument(const QCommandLineParser& parser, const char* command, int* exitCode);

// --set NAME=VALUE..., --expression NAME=WEIGHT..., --play NAME, --time-ms T:
// shared by pose and render.
struct PoseOptions {
  QCommandLineOption set{"set", "Set a caller joint (repeatable), e.g. --set turret_yaw=0.64.", "NAME=VALUE"};
  QCommandLineOption expression{
      "expression", "Set a VRM avatar's expression, 0 to 1 (repeatable), e.g. --expression happy=0.8.", "NAME=WEIGHT"};
  QCommandLineOption play{"play", "Play this animation from 0 ms.", "NAME"};
  QCommandLineOption time{"time-ms", "The clock in ms (autoPlay animations and the played one).", "T", "0"};

  std::vector<std::pair<std::string, double>> callers;
  std::vector<std::pair<std::string, double>> expressions;
  double timeMs = 0;

  void addTo(QCommandLineParser& parser) const { parser.addOptions({set, expression, play, time}); }
  // Reads the values; returns a usage message when they are malformed.
  std::optional<QString> read(const QCommandLineParser& parser);
  // Poses the controller and evaluates it; a bad joint or animation name is bad input.
  core::Expected<void> apply(const QCommandLineParser& parser, core::RigController& controller) const;
  // Only the --set and --expression values (a clip the rig does not have is played elsewhere).
  core::Expected<void> applyCallers(core::RigController& controller) const;
};

}  // namespace riglens::cli
