#include "cli_commands.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <cstdio>

#include "riglens/core/base/version.h"

namespace riglens::cli {

int runCharacter(const QStringList& args);
int runCompare(const QStringList& args);
int runExport(const QStringList& args);
int runFormats(const QStringList& args);
int runInspect(const QStringList& args);
int runPose(const QStringList& args);
int runRender(const QStringList& args);
int runReview(const QStringList& args);
int runSamples(const QStringList& args);

namespace {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const QStringList& args);
};

// The full command set of riglens-cli.
constexpr Command kCommands[] = {
    {"inspect",
     "Describe anything RigLens reads (riglens-cli formats lists it: runs, models, characters, splat "
     "scenes, DNAs) and every problem found.",
     runInspect},
    {"pose", "Print each part's world matrix for caller values and/or an animation time.", runPose},
    {"compare", "Compare two versions of a run or model posed alike; exit 1 when they differ.", runCompare},
    {"export", "Export a whole rig to one glTF 2.0 GLB (+ interface.json).", runExport},
    {"render", "Render a model offscreen to PNG or a video (tints, poses, turntables, clips).", runRender},
    {"review", "Review many runs, models, characters and splat scenes into one HTML report.", runReview},
    {"samples", "Write the bundled sample runs to a folder.", runSamples},
    {"character", "Splat characters: inspect, pose (GNM), orl-deform, make-sample.", runCharacter},
    {"formats", "List what RigLens opens: each reader's kind, file patterns, MIME type and fuzz target.", runFormats},
};

QString usageText() {
  QString text = QStringLiteral(
                     "Usage: riglens-cli <command> [options]\n"
                     "RigLens %1 - the RigLens engine from the command line.\n\n"
                     "Commands:\n")
                     .arg(QString::fromUtf8(core::kVersion));
  for (const auto& command : kCommands)
    text +=
        QStringLiteral("  %1  %2\n").arg(QString::fromUtf8(command.name), -9).arg(QString::fromUtf8(command.summary));
  text += QStringLiteral(
      "\nOptions:\n"
      "  -h, --help     Show this help (or a command's help: riglens-cli <command> --help).\n"
      "  -v, --version  Show the version.\n\n"
      "Exit codes: 0 success, 1 bad input (message on stderr), 2 usage error.\n");
  return text;
}

}  // namespace

int run(const QStringList& args) {
  if (args.size() < 2) {
    std::fputs(qPrintable(usageText()), stderr);
    return kExitUsage;
  }
  const QString first = args.at(1);
  if (first == QLatin1String("-h") || first == QLatin1String("--help") || first == QLatin1String("help")) {
    std::fputs(qPrintable(usageText()), stdout);
    return kExitOk;
  }
  if (first == QLatin1String("-v") || first == QLatin1String("--version")) {
    std::printf("riglens-cli %s\n", core::kVersion);
    return kExitOk;
  }
  for (const auto& command : kCommands) {
    if (first != QLatin1String(command.name)) continue;
    return command.run(args.mid(1));
  }
  std::fprintf(stderr, "riglens-cli: unknown command '%s'\n\n%s", qPrintable(first), qPrintable(usageText()));
  return kExitUsage;
}

}  // namespace riglens::cli
