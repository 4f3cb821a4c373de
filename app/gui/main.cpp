// riglens: the Qt Quick viewer.
//
//   riglens [PATH] [--backend vulkan|opengl] [--samples N] [--screenshot FILE.png [--size WxH] [--timings]]
//
// The window draws with Vulkan when the machine has a Vulkan device, else
// with OpenGL (app/shell/graphics_backend.h); --backend or QSG_RHI_BACKEND
// choose, and the choice is printed on stderr.
//
// --screenshot waits until the document is shown whole (loaded, decoded,
// lifted, uploaded, drawn: the viewport's `shown`), saves the whole window as
// PNG, prints the path and exits (0 on success, 1 on failure or when
// --screenshot-timeout passes first, saying what the view still waited for):
// for docs, tests and headless machines (run under xvfb-run there). --timings
// prints where the time from process start to the saved window went, by stage.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QMetaEnum>
#include <QtCore/QTimer>
#include <QtGui/QGuiApplication>
#include <QtQml/QQmlApplicationEngine>
#include <QtQml/QQmlExtensionPlugin>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <variant>

#include "app_controller.h"
#include "character_controller.h"
#include "file_size_limit.h"
#include "graphics_backend.h"
#include "main_window.h"
#include "program_entry.h"
#include "riglens/core/base/stage_timings.h"
#include "riglens/core/base/version.h"
#include "riglens/render/device/pipeline_cache.h"
#include "viewer_options.h"

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
// folder between runs (render/device/pipeline_cache.h), one file per
// graphics API (Qt warns about another API's data); a caller's own
// QSG_RHI_PIPELINE_CACHE_* settings win. Before the first window.
void keepQuickPipelinesBetweenRuns(const QString& api) {
  const QString pipelines = riglens::render::pipelineCacheFile(QStringLiteral("viewer-") + api);
  if (pipelines.isEmpty() || qEnvironmentVariableIsSet("QSG_RHI_PIPELINE_CACHE_SAVE") ||
      qEnvironmentVariableIsSet("QSG_RHI_PIPELINE_CACHE_LOAD") || !QDir().mkpath(QFileInfo(pipelines).absolutePath()))
    return;
  qputenv("QSG_RHI_PIPELINE_CACHE_SAVE", QFile::encodeName(pipelines));
  if (QFileInfo::exists(pipelines))  // Qt warns about a missing one
    qputenv("QSG_RHI_PIPELINE_CACHE_LOAD", QFile::encodeName(pipelines));
}

// Saves the window once the viewport shows the document whole (its `shown`:
// loaded, decoded, lifted, uploaded, drawn) and one more frame has put the
// panels' final figures on screen, prints the path and quits. Gives up after
// `timeoutMs` with what the view still waited for, and exit code 1: a
// screenshot that does not show the document is an error, not a picture.
void screenshotWhenShown(QQuickWindow* window, riglens::app::AppController* controller, const QString& path,
                         int timeoutMs, StartupClock* clock, bool printTimings) {
  auto* viewport = window->findChild<QQuickItem*>(QStringLiteral("viewport"));
  // Shared with the slots: frameSwapped is queued from the render thread, and
  // frames queued before the save still arrive after it (a plain heap counter
  // deleted in the slot was once written after free: heap corruption).
  auto saved = std::make_shared<bool>(false);
  // The view draws whatever it waits for (a decode, an upload) as it lands;
  // a view that becomes shown between frames asks for one more.
  if (viewport) QObject::connect(viewport, SIGNAL(shownChanged()), window, SLOT(update()));
  QTimer::singleShot(timeoutMs, window, [=] {
    if (*saved) return;
    *saved = true;
    QString waiting = QStringLiteral("the viewport");
    if (viewport) QMetaObject::invokeMethod(viewport, "waitingFor", Q_RETURN_ARG(QString, waiting));
    std::fprintf(stderr, "riglens: --screenshot gave up after %.0f s: the view was still waiting for %s\n",
                 timeoutMs / 1000.0, qPrintable(waiting));
    QCoreApplication::exit(1);
  });
  QObject::connect(
      window, &QQuickWindow::frameSwapped, window,
      [=] {
        // The frame's news (posted before its swap) is in: shown, and the
        // panels hold that frame's figures. The grab polishes and syncs them
        // into a frame of its own, so it shows them without waiting for
        // another frame first (one frame less: 25-60 ms of the tank's cold
        // start on lavapipe).
        if (*saved || !viewport || !viewport->property("shown").toBool()) return;
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
          // What the picture holds and where, for logs of batch screenshots
          // (and the tests that check the picture shows the document).
          const QRectF area(viewport->mapToScene(QPointF(0, 0)), viewport->size());
          std::fprintf(stderr, "riglens: shown: %s (%s) in the viewport at %d,%d %dx%d\n",
                       qPrintable(controller->documentTitle()),
                       QMetaEnum::fromType<riglens::app::AppController::Mode>().valueToKey(int(controller->mode())),
                       int(area.x()), int(area.y()), int(area.width()), int(area.height()));
          // A document this device cannot draw is shown as its refusal: say so.
          if (const QString refusal = controller->characterController()->renderError(); !refusal.isEmpty())
            std::fprintf(stderr, "riglens: the picture shows why it is not drawn: %s\n", qPrintable(refusal));
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

std::optional<QString> applyViewOptions(const riglens::app::ViewerOptions& options, QQuickWindow* window,
                                        riglens::app::AppController& controller) {
  if (auto* character = controller.characterController(); character->active()) {
    // A splat character: character tints, --set drives expression channels.
    if (options.tintSet) {
      character->setTint(options.tint);
      if (character->tint() != options.tint && !(options.tint == "color" && character->tint() == "joint"))
        return QStringLiteral("unknown --tint '%1' for a character (joint, uv, height, flat, normals)")
            .arg(options.tint);
    }
    for (const QString& assignment : options.sets) {
      const auto parsed = parseAssignment(assignment);
      if (!parsed) return QStringLiteral("--set needs NAME=VALUE, got '%1'").arg(assignment);
      const int channel = character->findChannel(parsed->first);
      if (channel < 0) return QStringLiteral("no expression channel named '%1'").arg(parsed->first);
      character->setChannel(channel, parsed->second);
    }
    if (options.play) return QStringLiteral("--play: a splat character has no animations");
    return std::nullopt;
  }
  if (auto* viewport = window->findChild<QQuickItem*>(QStringLiteral("viewport"))) {
    viewport->setProperty("tint", options.tint);
    if (viewport->property("tint").toString() != options.tint)
      return QStringLiteral("unknown --tint '%1'").arg(options.tint);
    // An interactive viewer opens with the look the user left; a screenshot
    // with the defaults, whatever the user chose last (a script's pictures
    // must not depend on it).
    viewport->setProperty("remembersView", options.screenshot.isEmpty());
    for (auto it = options.view.cbegin(); it != options.view.cend(); ++it)
      viewport->setProperty(it.key().toUtf8().constData(), it.value());
    if (options.environment) {
      QVariantMap loaded;
      QMetaObject::invokeMethod(viewport, "loadEnvironment", Q_RETURN_ARG(QVariantMap, loaded),
                                Q_ARG(QVariant, *options.environment));
      if (!loaded.value(QStringLiteral("ok")).toBool()) return loaded.value(QStringLiteral("message")).toString();
    }
  }
  for (const QString& assignment : options.sets) {
    const auto parsed = parseAssignment(assignment);
    if (!parsed) return QStringLiteral("--set needs NAME=VALUE, got '%1'").arg(assignment);
    // A VRM avatar's expression by its name, else a caller joint.
    auto* avatar = controller.avatar();
    const QVariantList expressions = avatar->expressions();
    const bool expression = std::any_of(expressions.cbegin(), expressions.cend(), [&](const QVariant& e) {
      return e.toMap().value(QStringLiteral("name")).toString() == parsed->first;
    });
    if (expression ? !avatar->setExpression(parsed->first, parsed->second)
                   : !controller.setJointValue(parsed->first, parsed->second))
      return controller.lastError();
  }
  if (options.play) {
    if (!controller.playback()->play(*options.play)) return controller.lastError();
    controller.playback()->setPaused(true);
    controller.playback()->seek(options.timeMs);
  }
  return std::nullopt;
}

// --screenshot: the size, the document loaded (or the exit code of a load or
// view option that failed), then the save once it is shown.
std::optional<int> startScreenshot(const riglens::app::ViewerOptions& options, QQuickWindow* window,
                                   riglens::app::AppController& controller, StartupClock* startup,
                                   const std::function<void(const char*)>& lap) {
  window->resize(options.size);
  controller.waitForLoad();
  lap("rest of the load (waited for)");
  if (!controller.hasDocument()) {
    std::fprintf(stderr, "riglens: %s\n", qPrintable(controller.lastError()));
    return 1;
  }
  if (auto problem = applyViewOptions(options, window, controller)) {
    std::fprintf(stderr, "riglens: %s\n", qPrintable(*problem));
    return 1;
  }
  if (!options.compare.isEmpty()) {
    riglens::app::CompareController* compare = controller.compare();
    compare->setMode(options.compareMode);
    compare->open(options.compare);
    compare->waitForLoad();
    if (!compare->active()) {
      std::fprintf(stderr, "riglens: %s\n", qPrintable(controller.lastError()));
      return 1;
    }
  }
  screenshotWhenShown(window, &controller, options.screenshot, options.screenshotTimeoutMs, startup, options.timings);
  return std::nullopt;
}

// A screenshot run ends as soon as its file is whole and its lines are out:
// tearing down the window, the QML engine, the loaded document and the
// graphics device is work nobody waits for (0.09 s of the tank's 0.7 s cold
// start on lavapipe, 2026-12-07), and the kernel takes back the memory and
// the X server the window all the same. What the run keeps is already
// written: the PNG (atomically), settings (each QSettings write syncs as its
// object goes). Qt Quick would write its pipeline cache file
// (QSG_RHI_PIPELINE_CACHE_SAVE) as its device goes, so a screenshot run leaves
// that file as it found it; the driver's own shader cache (Mesa's, NVIDIA's)
// still keeps what the run compiled. Sanitizer builds tear down, so
// LeakSanitizer sees the whole run.
int endScreenshotRun(int exitCode) {
#if defined(__SANITIZE_ADDRESS__)
  return exitCode;
#else
  std::fflush(nullptr);
  std::_Exit(exitCode);
#endif
}

}  // namespace

// main(), run by the executable (launch/program_library.h).
int riglens_program_main(int argc, char* argv[]) {
  riglens::launch::reportFileSizeLimitAsError();
  auto& timings = riglens::core::StageTimings::instance();
  timings.add("process start (exec to main)", riglens::core::processAgeMs());
  QGuiApplication::setOrganizationName(QStringLiteral("RigLens"));
  QGuiApplication::setApplicationName(QStringLiteral("RigLens"));
  QGuiApplication::setApplicationVersion(QString::fromUtf8(riglens::core::kVersion));
  auto parsed = riglens::app::parseViewerOptions(argc, argv);
  if (const int* exitCode = std::get_if<int>(&parsed)) return *exitCode;
  const auto& options = std::get<riglens::app::ViewerOptions>(parsed);
  // Qt Quick reads the variable too, and it wins over an API set in code.
  if (!options.backend.isEmpty()) qputenv("QSG_RHI_BACKEND", options.backend.toLatin1());

  auto lapStart = Clock::now();
  const auto lap = [&](const char* stage) {
    const auto now = Clock::now();
    timings.add(stage, msBetween(lapStart, now));
    lapStart = now;
  };
  QGuiApplication app(argc, argv);
  QGuiApplication::setDesktopFileName(QStringLiteral("riglens"));
  lap("Qt init");

  // The load runs on a worker while the graphics API is chosen and the QML
  // engine builds the window.
  riglens::app::AppController controller;
  // A screenshot is of the files as they were at launch unless --watch says otherwise.
  if (options.watch || !options.screenshot.isEmpty()) controller.setWatchingThisSession(options.watch.value_or(false));
  if (!options.path.isEmpty())
    controller.open(options.path);
  else
    controller.openDefault();
  if (!options.compare.isEmpty() && options.screenshot.isEmpty()) {
    // The comparison starts once the document is in (a screenshot waits for both instead).
    controller.compare()->setMode(options.compareMode);
    QObject::connect(
        &controller, &riglens::app::AppController::documentChanged, &controller,
        [&controller, path = options.compare] { controller.compare()->open(path); }, Qt::SingleShotConnection);
  }
  lap("start of the load (on a worker)");
  keepQuickPipelinesBetweenRuns(riglens::app::chooseGraphicsBackend().api);
  lap("graphics API chosen (Vulkan probed)");
  QQmlApplicationEngine engine;
  QString error;
  QQuickWindow* window = riglens::app::createMainWindow(engine, controller, &error, options.samples);
  if (!window) {
    std::fprintf(stderr, "riglens: cannot create the main window:\n%s\n", qPrintable(error));
    return 1;
  }
  lap("QML engine and main window");
  std::fprintf(stderr, "riglens: drawing with %s (%s)\n", qPrintable(controller.graphics()),
               qPrintable(controller.graphicsReason()));
  StartupClock startup;
  QObject::connect(
      window, &QQuickWindow::sceneGraphInitialized, window,
      [&startup] { startup.sceneGraphReady = Clock::now().time_since_epoch().count(); }, Qt::DirectConnection);
  if (!options.screenshot.isEmpty())
    if (auto exitCode = startScreenshot(options, window, controller, &startup, lap)) return *exitCode;
  startup.eventLoop = Clock::now();
  const int exitCode = QGuiApplication::exec();
  return options.screenshot.isEmpty() ? exitCode : endScreenshotRun(exitCode);
}
