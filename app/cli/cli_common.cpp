#include "cli_common.h"

#include <cmath>

#include "riglens/core/base/json_file.h"
#include "riglens/core/open/asset_readers.h"

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

std::optional<core::BodyPose> readBodyPose(const QCommandLineParser& parser, const QCommandLineOption& option,
                                           int* exitCode) {
  if (!parser.isSet(option)) return core::BodyPose{};
  const std::string path = parser.value(option).toStdString();
  auto doc = core::readJsonFile(path);
  auto pose = doc ? core::bodyPoseFromJson(*doc, path) : core::Expected<core::BodyPose>(doc.error());
  if (!pose) {
    *exitCode = inputError(pose.error().message);
    return std::nullopt;
  }
  return std::move(pose).value();
}

bool parseSize(const QString& text, QSize* size) {
  const QStringList parts = text.split('x');
  bool okW = false, okH = false;
  if (parts.size() != 2) return false;
  *size = QSize(parts[0].toInt(&okW), parts[1].toInt(&okH));
  return okW && okH && size->width() >= 16 && size->height() >= 16 && size->width() <= 8192 && size->height() <= 8192;
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

namespace {

// NAME=VALUE assignments of one option, or a usage message.
std::optional<QString> readAssignments(const QCommandLineParser& parser, const QCommandLineOption& option,
                                       std::vector<std::pair<std::string, double>>& out) {
  out.clear();
  for (const QString& assignment : parser.values(option)) {
    bool ok = false;
    const int eq = assignment.indexOf('=');
    const double value = eq > 0 ? assignment.mid(eq + 1).toDouble(&ok) : 0.0;
    if (eq <= 0 || !ok) return "--" + option.names().first() + " needs NAME=VALUE, got '" + assignment + "'";
    out.emplace_back(assignment.left(eq).toStdString(), value);
  }
  return std::nullopt;
}

}  // namespace

std::optional<QString> PoseOptions::read(const QCommandLineParser& parser) {
  bool ok = false;
  timeMs = parser.value(time).toDouble(&ok);
  if (!ok || !std::isfinite(timeMs)) return "--time-ms needs a number, got '" + parser.value(time) + "'";
  if (auto bad = readAssignments(parser, set, callers)) return bad;
  return readAssignments(parser, expression, expressions);
}

core::Expected<void> PoseOptions::applyCallers(core::RigController& controller) const {
  for (const auto& [name, value] : callers)
    if (auto ok = controller.setCaller(name, value); !ok) return ok;
  for (const auto& [name, value] : expressions)
    if (auto ok = controller.setExpression(name, value); !ok) return ok;
  return {};
}

core::Expected<void> PoseOptions::apply(const QCommandLineParser& parser, core::RigController& controller) const {
  if (auto ok = applyCallers(controller); !ok) return ok;
  if (parser.isSet(play)) {
    if (auto ok = controller.play(parser.value(play).toStdString()); !ok) return ok;
    controller.seekPlayable(timeMs);
  }
  controller.setClockMs(timeMs);
  controller.evaluate();
  return {};
}

}  // namespace riglens::cli
