// riglens: the Qt Quick viewer.
//
//   riglens [PATH] [--samples N] [--screenshot FILE.png [--size WxH] [--timings]]
//
// --screenshot waits for the first complete frames, saves the whole window
// as PNG, prints the path and exits (0 on success, 1 on failure): for docs,
// tests and headless machines (run under xvfb-run there). --timings prints
// where the time from process start to the saved window went, by stage.
#include <QtCore/QCommandLineParser>
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtGui/QGuiApplication>
#include <QtQml/QQmlApplicationEngine>
#include <QtQml/QQmlExtensionPlugin>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>

#include "app_controller.h"
#include "character_controller.h"
#include "large_page_malloc.h"
#include "main_window.h"
#include "riglens/core/base/stage_timings.h"
#include "riglens/core/base/version.h"
#include "riglens/render/device/pipeline_cache.h"

Q_IMPORT_QML_PLUGIN(RigLensPlugin)

namespace {

using Clock = std::chrono::steady_clock;

double msBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

// Start-up milestones for --timings. The scene graph's start is stamped on
// the render thread, read on the GUI thread once frames have come.
struct StartupClock {
  Clock::time_point eventLoop;
  std::atomic<Clock::rep> sceneGraphReady{0};  // time_since_epoch().count(); 0: not yet
};

// Qt Quick keeps its compiled pipelines (ours included) in the user's cache
// folder between runs (render/device/pipeline_cache.h); a caller's own
// QSG_RHI_PIPELINE_CACHE_* settings win. Before the first window.
void keepQuickPipelinesBetweenRuns() {
  const QString pipelines = riglens::render::pipelineCacheFile(QStringLiteral("viewer"));
  if (pipelines.isEmpty() || qEnvironmentVariableIsSet("QSG_RHI_PIPELINE_CACHE_SAVE") ||
      qEnvironmentVariableIsSet("QSG_RHI_PIPELINE_CACHE_LOAD") || !QDir().mkpath(QFileInfo(pipelines).absolutePath()))
    return;
  qputenv("QSG_RHI_PIPELINE_CACHE_SAVE", QFile::encodeName(pipelines));
  if (QFileInfo::exists(pipelines))  // Qt warns about a missing one
    qputenv("QSG_RHI_PIPELINE_CACHE_LOAD", QFile::encodeName(pipelines));
}

bool parseSize(const QString& text, QSize* size) {
  const QStringList parts = text.split('x');
  if (parts.size() != 2) return false;
  bool okW = false, okH = false;
  const int w = parts[0].toInt(&okW), h = parts[1].toInt(&okH);
  if (!okW || !okH || w < 64 || h < 64 || w > 8192 || h > 8192) return false;
  *size = QSize(w, h);
  return true;
}

// Saves the window after `framesToWait` swapped frames, then quits. One is
// enough for a model: its frame's news (memory, upload) reaches the panels
// before the frame's frameSwapped, and the grab draws a frame of its own.
void screenshotAfterFrames(QQuickWindow* window, riglens::app::AppController* controller, const QString& path,
                           int framesToWait, StartupClock* clock, bool printTimings) {
  // Shared with the slot: frameSwapped is queued from the render thread, and
  // frames queued before the disconnect still arrive after it (a plain
  // `new int` deleted in the slot was written after free: heap corruption,
  // a crash at exit now and then).
  auto frames = std::make_shared<int>(0);
  auto saved = std::make_shared<bool>(false);
  QObject::connect(
      window, &QQuickWindow::frameSwapped, window,
      [=] {
        if (*saved) return;
        // A decoded character is drawn once its first decode has been lifted,
        // a large model once its last part is on the GPU.
        const auto* viewport = window->findChild<QQuickItem*>(QStringLiteral("viewport"));
        if (controller->characterController()->decodePending() ||
            (viewport && viewport->property("uploading").toBool()))
          *frames = 0;
        if (++*frames < framesToWait) {
          window->update();  // a static scene stops after one frame; ask for more
          return;
        }
        QObject::disconnect(window, &QQuickWindow::frameSwapped, window, nullptr);
        *saved = true;
        auto& timings = riglens::core::StageTimings::instance();
        const auto framesDone = Clock::now();
        if (const Clock::rep ready = clock->sceneGraphReady; ready != 0) {
          const Clock::time_point sceneGraph{Clock::duration(ready)};
          timings.add("event loop to the scene graph (GPU device)", msBetween(clock->eventLoop, sceneGraph));
          // The first frame's upload and pipelines are recorded by the
          // viewport as stages of their own.
          timings.add("frames until the screenshot, the rest",
                      msBetween(sceneGraph, framesDone) - timings.sum("first frame: "));
        }
        const bool ok = timings.time("window grab, PNG encode and write",
                                     [&] { return controller->exporter()->saveScreenshot(window, path); });
        if (ok) {
          std::printf("%s\n", qPrintable(QDir(path).absolutePath()));
          if (printTimings) timings.print();
        } else {
          std::fprintf(stderr, "riglens: %s\n", qPrintable(controller->lastError()));
        }
        QCoreApplication::exit(ok ? 0 : 1);
      },
      Qt::QueuedConnection);
}

// --tint, --play/--time-ms, --set: a reproducible view for screenshots.
// "NAME=VALUE" with a number after the first '='.
std::optional<std::pair<QString, double>> parseAssignment(const QString& assignment) {
  const int eq = assignment.indexOf('=');
  bool ok = false;
  const double value = eq > 0 ? assignment.mid(eq + 1).toDouble(&ok) : 0.0;
  if (!ok) return std::nullopt;
  return std::pair{assignment.left(eq), value};
}

std::optional<QString> applyViewOptions(const QCommandLineParser& parser, QQuickWindow* window,
                                        riglens::app::AppController& controller, const QCommandLineOption& tint,
                                        const QCommandLineOption& play, const QCommandLineOption& time,
                                        const QCommandLineOption& set) {
  if (auto* character = controller.characterController(); character->active()) {
    // A splat character: character tints, --set drives expression channels.
    if (parser.isSet(tint)) {
      character->setTint(parser.value(tint));
      if (character->tint() != parser.value(tint) && !(parser.value(tint) == "color" && character->tint() == "joint"))
        return QStringLiteral("unknown --tint '%1' for a character (joint, uv, height, flat, normals)")
            .arg(parser.value(tint));
    }
    for (const QString& assignment : parser.values(set)) {
      const auto parsed = parseAssignment(assignment);
      if (!parsed) return QStringLiteral("--set needs NAME=VALUE, got '%1'").arg(assignment);
      const int channel = character->findChannel(parsed->first);
      if (channel < 0) return QStringLiteral("no expression channel named '%1'").arg(parsed->first);
      character->setChannel(channel, parsed->second);
    }
    if (parser.isSet(play)) return QStringLiteral("--play: a splat character has no animations");
    return std::nullopt;
  }
  if (auto* viewport = window->findChild<QQuickItem*>(QStringLiteral("viewport"))) {
    viewport->setProperty("tint", parser.value(tint));
    if (viewport->property("tint").toString() != parser.value(tint))
      return QStringLiteral("unknown --tint '%1'").arg(parser.value(tint));
  }
  for (const QString& assignment : parser.values(set)) {
    const auto parsed = parseAssignment(assignment);
    if (!parsed) return QStringLiteral("--set needs NAME=VALUE, got '%1'").arg(assignment);
    if (!controller.setJointValue(parsed->first, parsed->second)) return controller.lastError();
  }
  if (parser.isSet(play)) {
    if (!controller.playback()->play(parser.value(play))) return controller.lastError();
    controller.playback()->setPaused(true);
    controller.playback()->seek(parser.value(time).toDouble());
  }
  return std::nullopt;
}

}  // namespace

int main(int argc, char* argv[]) {
  riglens::launch::useLargePageMalloc(argv);
  auto& timings = riglens::core::StageTimings::instance();
  timings.add("process start (exec to main)", riglens::core::processAgeMs());
  QGuiApplication::setOrganizationName(QStringLiteral("RigLens"));
  QGuiApplication::setApplicationName(QStringLiteral("RigLens"));
  QGuiApplication::setApplicationVersion(QString::fromUtf8(riglens::core::kVersion));

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("RigLens: review voxel rigs and splat characters."));
  const QCommandLineOption helpOption = parser.addHelpOption();
  const QCommandLineOption versionOption = parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("path"),
                               QStringLiteral("A run folder, rig.json, run record, a model (.glb, .gltf, .obj, "
                                              ".fbx, .dae, .stl, mesh .ply), character bundle folder, "
                                              ".aosrig or 3DGS .ply to open."),
                               QStringLiteral("[path]"));
  const QCommandLineOption screenshotOption(
      QStringLiteral("screenshot"),
      QStringLiteral("Save the window as PNG after the first complete frame, print its path and exit."),
      QStringLiteral("file.png"));
  const QCommandLineOption sizeOption(QStringLiteral("size"),
                                      QStringLiteral("Window size for --screenshot (default 1280x800)."),
                                      QStringLiteral("WxH"), QStringLiteral("1280x800"));
  const QCommandLineOption tintOption(
      QStringLiteral("tint"),
      QStringLiteral("Tint mode: color, part, joint, normals, wireframe, sockets (characters: "
                     "joint, uv, height, flat, normals)."),
      QStringLiteral("mode"), QStringLiteral("color"));
  const QCommandLineOption playOption(
      QStringLiteral("play"), QStringLiteral("Play this animation (paused at --time-ms)."), QStringLiteral("name"));
  const QCommandLineOption timeOption(QStringLiteral("time-ms"), QStringLiteral("Clip time for --play (default 0)."),
                                      QStringLiteral("T"), QStringLiteral("0"));
  const QCommandLineOption setOption(
      QStringLiteral("set"), QStringLiteral("Set a caller joint, or a character's expression channel (repeatable)."),
      QStringLiteral("NAME=VALUE"));
  parser.addOption(screenshotOption);
  parser.addOption(sizeOption);
  parser.addOption(tintOption);
  parser.addOption(playOption);
  parser.addOption(timeOption);
  const QCommandLineOption timingsOption(
      QStringLiteral("timings"),
      QStringLiteral("With --screenshot: print where the time from process start to the saved window went, by "
                     "stage (stderr)."));
  const QCommandLineOption samplesOption(
      QStringLiteral("samples"),
      QStringLiteral("MSAA samples for the window: 1, 2, 4 or 8 (default: 4 on a GPU, 1 on a software rasteriser, "
                     "where 4x costs a quarter of the start-up)."),
      QStringLiteral("N"));
  parser.addOption(setOption);
  parser.addOption(timingsOption);
  parser.addOption(samplesOption);

  // Parse before any window system is touched, so --help, --version and
  // usage errors work on a machine without a display.
  QStringList arguments;
  for (int i = 0; i < argc; ++i) arguments << QString::fromLocal8Bit(argv[i]);
  if (!parser.parse(arguments)) {
    std::fprintf(stderr, "riglens: %s\n\n%s", qPrintable(parser.errorText()), qPrintable(parser.helpText()));
    return 2;
  }
  if (parser.isSet(helpOption)) {
    std::fputs(qPrintable(parser.helpText().replace(QStringLiteral("<executable_name>"), QStringLiteral("riglens"))),
               stdout);
    return 0;
  }
  if (parser.isSet(versionOption)) {
    std::printf("riglens %s\n", riglens::core::kVersion);
    return 0;
  }
  if (parser.isSet(timingsOption) && !parser.isSet(screenshotOption)) {
    std::fprintf(stderr, "riglens: --timings needs --screenshot\n");
    return 2;
  }
  QSize size;
  if (!parseSize(parser.value(sizeOption), &size)) {
    std::fprintf(stderr, "riglens: --size must be WxH between 64 and 8192, got '%s'\n",
                 qPrintable(parser.value(sizeOption)));
    return 2;
  }

  int samples = 0;  // WindowSamples decides
  if (parser.isSet(samplesOption)) {
    samples = parser.value(samplesOption).toInt();
    if (samples != 1 && samples != 2 && samples != 4 && samples != 8) {
      std::fprintf(stderr, "riglens: --samples must be 1, 2, 4 or 8, got '%s'\n",
                   qPrintable(parser.value(samplesOption)));
      return 2;
    }
  }

  keepQuickPipelinesBetweenRuns();
  auto lapStart = Clock::now();
  const auto lap = [&](const char* stage) {
    const auto now = Clock::now();
    timings.add(stage, msBetween(lapStart, now));
    lapStart = now;
  };
  QGuiApplication app(argc, argv);
  QGuiApplication::setDesktopFileName(QStringLiteral("riglens"));
  lap("Qt init");

  // The load runs on a worker while the QML engine builds the window.
  riglens::app::AppController controller;
  if (!parser.positionalArguments().isEmpty())
    controller.open(parser.positionalArguments().first());
  else
    controller.openDefault();
  lap("start of the load (on a worker)");
  QQmlApplicationEngine engine;
  QString error;
  QQuickWindow* window = riglens::app::createMainWindow(engine, controller, &error, samples);
  if (!window) {
    std::fprintf(stderr, "riglens: cannot create the main window:\n%s\n", qPrintable(error));
    return 1;
  }
  lap("QML engine and main window");
  StartupClock startup;
  QObject::connect(
      window, &QQuickWindow::sceneGraphInitialized, window,
      [&startup] { startup.sceneGraphReady = Clock::now().time_since_epoch().count(); }, Qt::DirectConnection);

  if (parser.isSet(screenshotOption)) {
    window->resize(size);
    // The first frames after the model is in (or its load failed).
    controller.waitForLoad();
    lap("rest of the load (waited for)");
    if (!controller.hasDocument()) {
      std::fprintf(stderr, "riglens: %s\n", qPrintable(controller.lastError()));
      return 1;
    }
    if (auto problem = applyViewOptions(parser, window, controller, tintOption, playOption, timeOption, setOption)) {
      std::fprintf(stderr, "riglens: %s\n", qPrintable(*problem));
      return 1;
    }
    screenshotAfterFrames(window, &controller, parser.value(screenshotOption), 1, &startup,
                          parser.isSet(timingsOption));
  }
  startup.eventLoop = Clock::now();
  return QGuiApplication::exec();
}
