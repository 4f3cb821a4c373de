#include "viewer_options.h"

#include <QtCore/QCommandLineParser>
#include <cmath>
#include <cstdio>

#include "riglens/core/base/version.h"
#include "riglens/core/open/reader_listings.h"
#include "riglens/core/view/look.h"

namespace riglens::app {

namespace {

bool parseSize(const QString& text, QSize* size) {
  const QStringList parts = text.split('x');
  if (parts.size() != 2) return false;
  bool okW = false, okH = false;
  const int w = parts[0].toInt(&okW), h = parts[1].toInt(&okH);
  if (!okW || !okH || w < 64 || h < 64 || w > 8192 || h > 8192) return false;
  *size = QSize(w, h);
  return true;
}

struct Options {
  QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                QStringLiteral("Save the window as PNG once the document is shown whole (loaded, "
                                               "decoded, uploaded, drawn), print its path and exit."),
                                QStringLiteral("file.png")};
  QCommandLineOption screenshotTimeout{
      QStringLiteral("screenshot-timeout"),
      QStringLiteral("Seconds --screenshot waits for the document to be shown whole before it fails (default 120)."),
      QStringLiteral("S"), QStringLiteral("120")};
  QCommandLineOption size{QStringLiteral("size"), QStringLiteral("Window size for --screenshot (default 1280x800)."),
                          QStringLiteral("WxH"), QStringLiteral("1280x800")};
  QCommandLineOption tint{QStringLiteral("tint"),
                          QStringLiteral("Tint mode: color, part, joint, normals, wireframe, sockets (characters: "
                                         "joint, uv, height, flat, normals)."),
                          QStringLiteral("mode"), QStringLiteral("color")};
  QCommandLineOption look{QStringLiteral("look"),
                          QStringLiteral("Models: review (default; the tints work in it) or pbr (glTF's "
                                         "metallic-roughness, the file's lights)."),
                          QStringLiteral("look"), QStringLiteral("review")};
  QCommandLineOption toneMap{QStringLiteral("tone-map"),
                             QStringLiteral("The PBR look's tone mapping: neutral (default), aces or none."),
                             QStringLiteral("map"), QStringLiteral("neutral")};
  QCommandLineOption exposure{QStringLiteral("exposure"), QStringLiteral("The PBR look's exposure in stops."),
                              QStringLiteral("EV"), QStringLiteral("0")};
  QCommandLineOption environment{QStringLiteral("environment"),
                                 QStringLiteral("The PBR look's environment light: an equirectangular .hdr or .exr, "
                                                "or studio (default, made procedurally)."),
                                 QStringLiteral("file"), QStringLiteral("studio")};
  QCommandLineOption environmentRotation{QStringLiteral("environment-rotation"),
                                         QStringLiteral("Turn the environment DEG degrees about the up axis."),
                                         QStringLiteral("DEG"), QStringLiteral("0")};
  QCommandLineOption environmentBackground{QStringLiteral("environment-background"),
                                           QStringLiteral("Draw the environment behind the model (PBR look).")};
  QCommandLineOption play{QStringLiteral("play"), QStringLiteral("Play this animation (paused at --time-ms)."),
                          QStringLiteral("name")};
  QCommandLineOption time{QStringLiteral("time-ms"), QStringLiteral("Clip time for --play (default 0)."),
                          QStringLiteral("T"), QStringLiteral("0")};
  QCommandLineOption set{QStringLiteral("set"),
                         QStringLiteral("Set a caller joint, a VRM avatar's expression (0 to 1) or a character's "
                                        "expression channel (repeatable)."),
                         QStringLiteral("NAME=VALUE")};
  QCommandLineOption timings{QStringLiteral("timings"),
                             QStringLiteral("With --screenshot: print where the time from process start to the "
                                            "saved window went, by stage (stderr).")};
  QCommandLineOption samples{QStringLiteral("samples"),
                             QStringLiteral("MSAA samples for the window: 1, 2, 4 or 8 (default: 4 on a GPU, 1 on a "
                                            "software rasteriser, where 4x costs a quarter of the start-up)."),
                             QStringLiteral("N")};
  QCommandLineOption backend{QStringLiteral("backend"),
                             QStringLiteral("Graphics API for the window: vulkan or opengl (default: Vulkan when a "
                                            "Vulkan device exists, else OpenGL; QSG_RHI_BACKEND also chooses)."),
                             QStringLiteral("api")};

  QCommandLineOption watch{QStringLiteral("watch"),
                           QStringLiteral("Reload the document when its files change on disk (File > Watch for "
                                          "Changes; on unless turned off there).")};
  QCommandLineOption noWatch{QStringLiteral("no-watch"),
                             QStringLiteral("Do not reload the document when its files change, this session.")};

  QCommandLineOption compare{QStringLiteral("compare"),
                             QStringLiteral("Compare the document with another version of it (File > Compare "
                                            "With...): posed alike, side by side or overlaid."),
                             QStringLiteral("path")};
  QCommandLineOption compareMode{QStringLiteral("compare-mode"),
                                 QStringLiteral("How --compare shows the two: side (A left, B right, one camera; "
                                                "the default) or overlay (B coloured by each vertex's distance to A)."),
                                 QStringLiteral("mode"), QStringLiteral("side")};

  void addTo(QCommandLineParser& parser) const {
    for (const QCommandLineOption* o : {&screenshot,
                                        &screenshotTimeout,
                                        &size,
                                        &tint,
                                        &look,
                                        &toneMap,
                                        &exposure,
                                        &environment,
                                        &environmentRotation,
                                        &environmentBackground,
                                        &play,
                                        &time,
                                        &set,
                                        &timings,
                                        &samples,
                                        &backend,
                                        &watch,
                                        &noWatch,
                                        &compare,
                                        &compareMode})
      parser.addOption(*o);
  }
};

int usageError(const QString& message) {
  std::fprintf(stderr, "riglens: %s\n", qPrintable(message));
  return 2;
}

// The values of a parse that succeeded, checked; or the usage error's exit code.
std::variant<ViewerOptions, int> readOptions(const QCommandLineParser& parser, const Options& o) {
  ViewerOptions v;
  if (!parser.positionalArguments().isEmpty()) v.path = parser.positionalArguments().first();
  v.screenshot = parser.value(o.screenshot);
  v.timings = parser.isSet(o.timings);
  if (v.timings && v.screenshot.isEmpty()) return usageError(QStringLiteral("--timings needs --screenshot"));
  if (!parseSize(parser.value(o.size), &v.size))
    return usageError(QStringLiteral("--size must be WxH between 64 and 8192, got '%1'").arg(parser.value(o.size)));
  bool ok = false;
  const double timeoutS = parser.value(o.screenshotTimeout).toDouble(&ok);
  if (!ok || timeoutS <= 0 || timeoutS > 3600)
    return usageError(QStringLiteral("--screenshot-timeout must be seconds between 0 and 3600, got '%1'")
                          .arg(parser.value(o.screenshotTimeout)));
  v.screenshotTimeoutMs = int(timeoutS * 1000);
  if (parser.isSet(o.samples)) {
    v.samples = parser.value(o.samples).toInt();
    if (v.samples != 1 && v.samples != 2 && v.samples != 4 && v.samples != 8)
      return usageError(QStringLiteral("--samples must be 1, 2, 4 or 8, got '%1'").arg(parser.value(o.samples)));
  }
  v.backend = parser.value(o.backend).toLower();
  if (parser.isSet(o.backend) && v.backend != QLatin1String("vulkan") && v.backend != QLatin1String("opengl"))
    return usageError(QStringLiteral("--backend must be vulkan or opengl, got '%1'").arg(v.backend));
  if (parser.isSet(o.watch) && parser.isSet(o.noWatch))
    return usageError(QStringLiteral("--watch and --no-watch contradict each other"));
  if (parser.isSet(o.watch) || parser.isSet(o.noWatch)) v.watch = parser.isSet(o.watch);
  v.compare = parser.value(o.compare);
  v.compareMode = parser.value(o.compareMode);
  if (v.compareMode != QLatin1String("side") && v.compareMode != QLatin1String("overlay"))
    return usageError(QStringLiteral("--compare-mode must be side or overlay, got '%1'").arg(v.compareMode));
  if (parser.isSet(o.compareMode) && v.compare.isEmpty())
    return usageError(QStringLiteral("--compare-mode needs --compare"));
  v.tint = parser.value(o.tint);
  v.tintSet = parser.isSet(o.tint);
  if (parser.isSet(o.look)) {
    core::Look look;
    if (!core::parseLook(parser.value(o.look).toStdString(), &look))
      return usageError(QStringLiteral("--look must be review or pbr, got '%1'").arg(parser.value(o.look)));
    v.view[QStringLiteral("look")] = parser.value(o.look);
  }
  if (parser.isSet(o.toneMap)) {
    core::ToneMap toneMap;
    if (!core::parseToneMap(parser.value(o.toneMap).toStdString(), &toneMap))
      return usageError(
          QStringLiteral("--tone-map must be neutral, aces or none, got '%1'").arg(parser.value(o.toneMap)));
    v.view[QStringLiteral("toneMap")] = parser.value(o.toneMap);
  }
  if (parser.isSet(o.exposure)) {
    const double stops = parser.value(o.exposure).toDouble(&ok);
    if (!ok || !std::isfinite(stops) || std::abs(stops) > core::kMaxExposureStops)
      return usageError(QStringLiteral("--exposure must be stops between -%1 and %1, got '%2'")
                            .arg(core::kMaxExposureStops)
                            .arg(parser.value(o.exposure)));
    v.view[QStringLiteral("exposure")] = stops;
  }
  if (parser.isSet(o.environmentRotation)) {
    const double degrees = parser.value(o.environmentRotation).toDouble(&ok);
    if (!ok || !std::isfinite(degrees))
      return usageError(
          QStringLiteral("--environment-rotation must be degrees, got '%1'").arg(parser.value(o.environmentRotation)));
    v.view[QStringLiteral("environmentRotation")] = degrees;
  }
  if (parser.isSet(o.environmentBackground)) v.view[QStringLiteral("environmentBackground")] = true;
  if (parser.isSet(o.environment)) v.environment = parser.value(o.environment);
  if (parser.isSet(o.play)) v.play = parser.value(o.play);
  v.timeMs = parser.value(o.time).toDouble();
  v.sets = parser.values(o.set);
  return v;
}

}  // namespace

std::variant<ViewerOptions, int> parseViewerOptions(int argc, char* argv[]) {
  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("RigLens: review voxel rigs and splat characters."));
  const QCommandLineOption help = parser.addHelpOption();
  const QCommandLineOption version = parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("path"),
                               QStringLiteral("What to open (riglens-cli formats lists the readers): ") +
                                   QString::fromStdString(core::openableSentence()) + QStringLiteral("."),
                               QStringLiteral("[path]"));
  const Options options;
  options.addTo(parser);
  QStringList arguments;
  for (int i = 0; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
  if (!parser.parse(arguments)) {
    std::fprintf(stderr, "riglens: %s\n\n%s", qPrintable(parser.errorText()), qPrintable(parser.helpText()));
    return 2;
  }
  if (parser.isSet(help)) {
    std::fputs(qPrintable(parser.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("riglens"))),
               stdout);
    return 0;
  }
  if (parser.isSet(version)) {
    std::printf("riglens %s\n", riglens::core::kVersion);
    return 0;
  }
  return readOptions(parser, options);
}

}  // namespace riglens::app
