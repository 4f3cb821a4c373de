#include "render_checks.h"

#include <QtCore/QDir>
#include <QtCore/QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <map>

#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/pose.h"
#include "riglens/core/rig/scene_bounds.h"
#include "riglens/samples/sample_runs.h"
#include "test_checks.h"
#include "test_paths.h"

namespace {
// Darker than this (the sum of linear RGB) has no hue worth matching.
constexpr double kDarkest = 1e-3;
// A ray this close to parallel to a triangle's plane does not hit it.
constexpr double kParallel = 1e-12;
}  // namespace

namespace riglens::test {

std::shared_ptr<const core::LoadedRun> sampleRun(const std::string& name) {
  static QTemporaryDir dir;
  static std::map<std::string, std::shared_ptr<const core::LoadedRun>> cache;
  if (auto it = cache.find(name); it != cache.end()) return it->second;
  const std::filesystem::path folder = std::filesystem::path(dir.path().toStdString()) / name;
  auto sample = samples::makeSampleRun(name);
  if (!sample || !samples::writeSampleRun(*sample, folder)) qFatal("cannot write sample %s", name.c_str());
  auto run = core::loadRun(folder);
  if (!run) qFatal("%s", run.error().message.c_str());
  auto shared = std::make_shared<const core::LoadedRun>(std::move(run).value());
  cache[name] = shared;
  return shared;
}

std::vector<glm::mat4> posedWorlds(const core::LoadedRun& run, const Pose& pose) {
  core::RigController controller(run.rig);
  for (const auto& [name, value] : pose.callers)
    if (!controller.setCaller(name, value)) qFatal("bad caller %s", name.c_str());
  if (!pose.play.empty() && !controller.play(pose.play)) qFatal("bad clip %s", pose.play.c_str());
  controller.seekPlayable(pose.timeMs);
  controller.setClockMs(pose.timeMs);
  controller.evaluate();
  return controller.partWorlds();
}

core::OrbitCamera defaultCamera(const core::LoadedRun& run) {
  core::OrbitCamera camera;
  camera.frame(core::posedBounds(run, core::poseRig(run.rig, core::restJointValues(run.rig))));
  return camera;
}

QString compareWithGolden(const QImage& actualIn, const QString& name, GoldenTolerance tolerance) {
  const QImage actual = actualIn.convertToFormat(QImage::Format_RGBA8888);
  const QString goldenPath = QStringLiteral(RIGLENS_SOURCE_DIR "/tests/render/golden/%1.png").arg(name);
  const QString outDir = outputPath("golden");
  QDir().mkpath(outDir);
  const QString actualPath = outDir + "/" + name + ".png";
  const QImage golden = QImage(goldenPath).convertToFormat(QImage::Format_RGBA8888);
  if (golden.isNull()) {
    actual.save(actualPath);
    return QString("no golden image %1: wrote the output to %2 (look at it, then copy it there)")
        .arg(goldenPath, actualPath);
  }
  return compareImages(actual, golden, name, tolerance);
}

QString compareImages(const QImage& actualIn, const QImage& expectedIn, const QString& name,
                      GoldenTolerance tolerance) {
  const QImage actual = actualIn.convertToFormat(QImage::Format_RGBA8888);
  const QImage golden = expectedIn.convertToFormat(QImage::Format_RGBA8888);
  const QString outDir = outputPath("golden");
  QDir().mkpath(outDir);
  const QString actualPath = outDir + "/" + name + ".png";
  if (golden.size() != actual.size()) {
    actual.save(actualPath);
    return QString("size %1x%2 differs from the expected image's").arg(actual.width()).arg(actual.height());
  }
  QImage diff(actual.size(), QImage::Format_RGBA8888);
  diff.fill(Qt::black);
  long differing = 0;
  for (int y = 0; y < actual.height(); ++y)
    for (int x = 0; x < actual.width(); ++x) {
      const QRgb a = actual.pixel(x, y), g = golden.pixel(x, y);
      const int d =
          std::max({std::abs(qRed(a) - qRed(g)), std::abs(qGreen(a) - qGreen(g)), std::abs(qBlue(a) - qBlue(g))});
      if (d > tolerance.channel) {
        ++differing;
        diff.setPixel(x, y, qRgb(255, 0, 255));
      }
    }
  const double fraction = double(differing) / double(actual.width() * actual.height());
  if (fraction <= tolerance.maxDifferingFraction) return {};
  actual.save(actualPath);
  diff.save(outDir + "/" + name + ".diff.png");
  return QString("%1: %2% of pixels differ by more than %3 (allowed %4%); actual and diff in %5")
      .arg(name)
      .arg(fraction * 100, 0, 'f', 3)
      .arg(tolerance.channel)
      .arg(tolerance.maxDifferingFraction * 100)
      .arg(outDir);
}

int nearestTint(QRgb pixel, const std::vector<glm::vec3>& tints) {
  const auto linear = [](int c) {
    const double v = c / 255.0;
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
  };
  glm::dvec3 p(linear(qRed(pixel)), linear(qGreen(pixel)), linear(qBlue(pixel)));
  const double sum = p.x + p.y + p.z;
  if (sum < kDarkest) return -1;
  p /= sum;
  int best = -1;
  double bestDistance = 1e9;
  for (std::size_t i = 0; i < tints.size(); ++i) {
    glm::dvec3 t(tints[i]);
    t /= (t.x + t.y + t.z);
    const double d = glm::length(p - t);
    if (d < bestDistance) {
      bestDistance = d;
      best = static_cast<int>(i);
    }
  }
  return best;
}

namespace {

struct Triangle {
  glm::dvec3 a, b, c;
};

// Moller-Trumbore ray/triangle intersection ("Fast, Minimum Storage
// Ray/Triangle Intersection", 1997): the distance along the ray, or -1.
double intersect(const glm::dvec3& origin, const glm::dvec3& dir, const Triangle& t) {
  const glm::dvec3 e1 = t.b - t.a, e2 = t.c - t.a;
  const glm::dvec3 p = glm::cross(dir, e2);
  const double det = glm::dot(e1, p);
  if (std::abs(det) < kParallel) return -1;
  const double inv = 1.0 / det;
  const glm::dvec3 s = origin - t.a;
  const double u = glm::dot(s, p) * inv;
  if (u < 0 || u > 1) return -1;
  const glm::dvec3 q = glm::cross(s, e1);
  const double v = glm::dot(dir, q) * inv;
  if (v < 0 || u + v > 1) return -1;
  const double d = glm::dot(e2, q) * inv;
  return d > 0 ? d : -1;
}

}  // namespace

std::vector<std::optional<QPoint>> visiblePartPixels(const core::LoadedRun& run, const std::vector<glm::mat4>& worlds,
                                                     const core::OrbitCamera& camera, QSize size) {
  std::vector<std::vector<Triangle>> triangles(run.meshes.size());
  for (std::size_t p = 0; p < run.meshes.size(); ++p) {
    const auto& m = run.meshes[p];
    const glm::dmat4 w(worlds[p]);
    const auto at = [&](std::uint32_t i) {
      return glm::dvec3(w * glm::dvec4(m.positions[i * 3], m.positions[i * 3 + 1], m.positions[i * 3 + 2], 1));
    };
    for (std::size_t i = 0; i + 2 < m.indices.size(); i += 3)
      triangles[p].push_back({at(m.indices[i]), at(m.indices[i + 1]), at(m.indices[i + 2])});
  }
  const glm::dvec3 eye(camera.eye());
  const glm::dmat4 viewProj =
      glm::dmat4(camera.projection(float(size.width()) / float(size.height()))) * glm::dmat4(camera.view());
  std::vector<std::optional<QPoint>> out(run.meshes.size());
  for (std::size_t p = 0; p < run.meshes.size(); ++p) {
    // Candidates: the largest triangles facing the camera, well inside them.
    std::vector<std::pair<double, glm::dvec3>> candidates;
    for (const Triangle& t : triangles[p]) {
      const glm::dvec3 n = glm::cross(t.b - t.a, t.c - t.a);
      const glm::dvec3 centre = (t.a + t.b + t.c) / 3.0;
      if (glm::dot(n, eye - centre) <= 0) continue;
      candidates.emplace_back(glm::length(n), centre);
    }
    std::sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t c = 0; c < candidates.size() && c < 64; ++c) {
      const glm::dvec3 point = candidates[c].second;
      const glm::dvec3 dir = glm::normalize(point - eye);
      const double distance = glm::length(point - eye);
      bool hidden = false;
      for (std::size_t q = 0; q < triangles.size() && !hidden; ++q)
        for (const Triangle& t : triangles[q]) {
          const double d = intersect(eye, dir, t);
          if (d > 0 && d < distance - 1e-3 * distance) {
            hidden = true;
            break;
          }
        }
      if (hidden) continue;
      const glm::dvec4 clip = viewProj * glm::dvec4(point, 1);
      const glm::dvec3 ndc = glm::dvec3(clip) / clip.w;
      const QPoint pixel(int((ndc.x * 0.5 + 0.5) * size.width()), int((0.5 - ndc.y * 0.5) * size.height()));
      if (QRect(QPoint(0, 0), size).contains(pixel)) {
        out[p] = pixel;
        break;
      }
    }
  }
  return out;
}

core::Expected<RunOnCanvas> runOnCanvas(render::RhiDevice& device, std::shared_ptr<const core::LoadedRun> run,
                                        QSize size) {
  auto canvas = render::OffscreenCanvas::create(device, size);
  if (!canvas) return canvas.error();
  RunOnCanvas out{std::move(canvas).value(), std::make_unique<render::RigRenderer>(device)};
  out.renderer->setModel(std::move(run));
  return out;
}

void RenderTestCase::initTestCase() {
  // The same test on the other backend (tests/render/CMakeLists.txt registers
  // the character passes on OpenGL this way).
  if (const QByteArray forced = qgetenv("RIGLENS_TEST_BACKEND"); !forced.isEmpty())
    m_backend = forced == "opengl" ? render::Backend::OpenGL : render::Backend::Vulkan;
  auto device = render::RhiDevice::createOffscreen(m_backend);
  QVERIFY_OK(device);
  m_device = std::move(device).value();
  QCOMPARE(m_device->backend(), m_backend);
  qInfo("device: %s (%s)", m_device->deviceName().c_str(), render::backendName(m_backend));
}

void RenderTestCase::cleanupTestCase() {
  m_device.reset();
}

}  // namespace riglens::test
