// riglens-cli: the engine from the command line.
//
//   riglens-cli <command> [options]     commands: inspect, pose, export, render, samples
//
// Exit codes: 0 success, 1 bad input (message on stderr), 2 usage error.
#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtGui/QGuiApplication>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>

#include "cli_commands.h"
#include "file_size_limit.h"
#include "program_entry.h"
#include "riglens/core/base/stage_timings.h"
#include "riglens/core/base/version.h"

// main(), run by the executable (launch/program_library.h).
int riglens_program_main(int argc, char* argv[]) {
  riglens::launch::reportFileSizeLimitAsError();
  auto& timings = riglens::core::StageTimings::instance();
  timings.add("process start (exec to main)", riglens::core::processAgeMs());
  // `render` needs a GPU: a QGuiApplication on a windowless platform that has
  // Vulkan (vkkhrdisplay) unless the caller chose one (xcb for OpenGL).
  bool gpuBackend = false;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string_view(argv[i]) == "--backend" && std::string_view(argv[i + 1]) == "gpu") gpuBackend = true;
  const bool needsGui = argc > 1 && (std::string_view(argv[1]) == "render" || gpuBackend);
  std::unique_ptr<QCoreApplication> app;
  if (needsGui) {
    bool opengl = false;
    for (int i = 2; i + 1 < argc; ++i)
      if (std::string_view(argv[i]) == "--backend" && std::string_view(argv[i + 1]) == "opengl") opengl = true;
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", opengl ? "xcb" : "vkkhrdisplay");
    // vkkhrdisplay prints a harmless warning when it finds no display to use.
    qputenv("QT_LOGGING_RULES", "qt.qpa.*=false");
    timings.time("Qt init (QGuiApplication)", [&] { app = std::make_unique<QGuiApplication>(argc, argv); });
  } else {
    app = std::make_unique<QCoreApplication>(argc, argv);
  }
  QCoreApplication::setApplicationName(QStringLiteral("riglens-cli"));
  QCoreApplication::setApplicationVersion(QString::fromUtf8(riglens::core::kVersion));
  // The loaders return their refusals as values; this is the last line for
  // anything else (a library's exception, memory running out): a message and
  // exit 1, never an abort.
  try {
    return riglens::cli::run(QCoreApplication::arguments());
  } catch (const std::bad_alloc&) {
    std::fputs("riglens-cli: not enough memory for this input\n", stderr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "riglens-cli: unexpected failure: %s\n", e.what());
  } catch (...) {
    std::fputs("riglens-cli: unexpected failure\n", stderr);
  }
  return riglens::cli::kExitBadInput;
}
