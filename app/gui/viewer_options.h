// The riglens viewer's command line: every option, parsed and checked before
// any window system is touched, so --help, --version and usage errors work
// on a machine without a display.
#pragma once

#include <QtCore/QSize>
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtCore/QVariantMap>
#include <optional>
#include <variant>

namespace riglens::app {

struct ViewerOptions {
  QString path;        // empty: the bundled sample
  QString screenshot;  // empty: the interactive window
  int screenshotTimeoutMs = 120000;
  QSize size{1280, 800};
  bool timings = false;
  QString tint = QStringLiteral("color");
  bool tintSet = false;
  // The look's options given on the command line, checked, as the viewport's
  // properties (look, toneMap, exposure, environmentRotation,
  // environmentBackground); those not given keep what the viewer remembers
  // (its defaults under --screenshot).
  QVariantMap view;
  std::optional<QString> environment;  // the PBR look's: studio, or an .hdr / .exr
  std::optional<QString> play;
  double timeMs = 0;
  QStringList sets;                              // NAME=VALUE, as given
  int samples = 0;                               // 0: WindowMsaa decides
  QString backend;                               // "vulkan", "opengl" or empty (graphics_backend.h chooses)
  std::optional<bool> watch;                     // --watch / --no-watch, this session only; else the remembered setting
  QString compare;                               // --compare B: the version the document is compared with (empty: none)
  QString compareMode = QStringLiteral("side");  // --compare-mode side|overlay
};

// The options, or the exit code once help, the version or a usage error has
// been printed (0 or 2).
std::variant<ViewerOptions, int> parseViewerOptions(int argc, char* argv[]);

}  // namespace riglens::app
