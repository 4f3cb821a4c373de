// Helpers of the render tests: sample runs posed into a FrameState, golden
// image comparison (tolerances stated by the caller), and a shading-free
// check of which part a pixel shows.
#pragma once

#include <QtCore/QObject>
#include <QtGui/QImage>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "riglens/core/base/tolerances.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/core/view/orbit_camera.h"
#include "riglens/render/device/offscreen_canvas.h"
#include "riglens/render/device/rhi_device.h"
#include "riglens/render/rig/frame_builder.h"
#include "riglens/render/rig/rig_renderer.h"

namespace riglens::test {

// A generated sample run, loaded (written once per process to a temp folder).
std::shared_ptr<const core::LoadedRun> sampleRun(const std::string& name);

struct Pose {
  std::vector<std::pair<std::string, double>> callers;
  std::string play;  // empty: none
  double timeMs = 0;
};

// Part worlds for a pose (autoPlay at timeMs, the playable from 0 to timeMs).
std::vector<glm::mat4> posedWorlds(const core::LoadedRun& run, const Pose& pose);

// The default camera framed on the run's rest bounds (stable across poses).
core::OrbitCamera defaultCamera(const core::LoadedRun& run);

struct GoldenTolerance {
  int channel = core::tolerance::kGoldenChannel;                            // |actual - golden| per 8-bit channel still
                                                                            // counted as equal
  double maxDifferingFraction = core::tolerance::kGoldenDifferingFraction;  // of all pixels
};

// Compares `actual` with tests/render/golden/<name>.png. On a mismatch or a
// missing golden, writes <test-output>/golden/<name>.png (and a diff image)
// and returns what is wrong; returns an empty string when it matches.
QString compareWithGolden(const QImage& actual, const QString& name, GoldenTolerance tolerance);
// The same comparison against an image made in the test; on failure the
// actual image and the diff are written under the name.
QString compareImages(const QImage& actual, const QImage& expected, const QString& name, GoldenTolerance tolerance);

// The part (index into `tints`) whose tint is closest in chromaticity to the
// pixel: independent of how bright the lighting made it. -1 for background-like
// (grey) pixels.
int nearestTint(QRgb pixel, const std::vector<glm::vec3>& tints);

// For each part with geometry: a point on it that the camera sees (ray cast
// against every posed triangle), projected to pixel coordinates (top row
// first); nullopt when no sampled point of the part is visible.
std::vector<std::optional<QPoint>> visiblePartPixels(const core::LoadedRun& run, const std::vector<glm::mat4>& worlds,
                                                     const core::OrbitCamera& camera, QSize size);

// A canvas of some size and a rig renderer of a run, on one device: what a
// test draws a run with, and may draw more on.
struct RunOnCanvas {
  std::unique_ptr<render::OffscreenCanvas> canvas;
  std::unique_ptr<render::RigRenderer> renderer;
};
core::Expected<RunOnCanvas> runOnCanvas(render::RhiDevice& device, std::shared_ptr<const core::LoadedRun> run,
                                        QSize size);

// A render test's fixture: initTestCase opens the offscreen device of its
// backend (its name logged; the test case fails saying why when the machine
// has none), cleanupTestCase releases it. Test classes derive from it. The
// backend is `backend`, unless the environment's RIGLENS_TEST_BACKEND
// (vulkan or opengl) says another.
class RenderTestCase : public QObject {
  Q_OBJECT

 public:
  explicit RenderTestCase(render::Backend backend) : m_backend(backend) {}

 protected:
  std::unique_ptr<render::RhiDevice> m_device;
  render::Backend backend() const { return m_backend; }

 private slots:
  void initTestCase();
  void cleanupTestCase();

 private:
  render::Backend m_backend;
};

}  // namespace riglens::test
