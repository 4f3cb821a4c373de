#include "cli_common.h"

namespace riglens::cli {

std::optional<int> parseCommand(QCommandLineParser& parser, const QStringList& args, const char* command,
                                const char* summary, const char* positional) {
  parser.setApplicationDescription(QString::fromUtf8(summary));
  const QCommandLineOption help({"h", "help"}, "Show this help.");
  parser.addOption(help);
  if (positional) parser.addPositionalArgument("path", "A run folder, rig.json, run record or .glb.", positional);
  QStringList argv = args;
  argv[0] = QStringLiteral("riglens-cli %1").arg(QString::fromUtf8(command));
  if (!parser.parse(argv)) return usageError(command, parser.errorText());
  if (parser.isSet(help)) {
    QString text = parser.helpText();
    text.replace(QStringLiteral("<executable_name>"), QStringLiteral("riglens-cli ") + command);
    std::fputs(qPrintable(text), stdout);
    return kExitOk;
  }
  return std::nullopt;
}

int usageError(const char* command, const QString& message) {
  std::fprintf(stderr, "riglens-cli %s: %s\n(see riglens-cli %s --help)\n", command, qPrintable(message), command);
  return kExitUsage;
}

int inputError(const std::string& message) {
  std::fprintf(stderr, "riglens-cli: %s\n", message.c_str());
  return kExitBadInput;
}

std::optional<core::LoadedRun> loadRunArgument(const QCommandLineParser& parser, const char* command, int* exitCode) {
  const QStringList positional = parser.positionalArguments();
  if (positional.size() != 1) {
    *exitCode = usageError(command, positional.isEmpty() ? "missing PATH" : "expected exactly one PATH");
    return std::nullopt;
  }
  auto run = core::loadRun(positional.first().toStdString());
  if (!run) {
    *exitCode = inputError(run.error().message);
    return std::nullopt;
  }
  return std::move(run).value();
}

}  // namespace riglens::cli
