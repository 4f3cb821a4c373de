// engine/render on a real QRhi device (Vulkan; lavapipe on headless
// machines): a compute dispatch checked against its CPU reference, and an
// offscreen draw read back and checked pixel by pixel.
#include <QtCore/QScopeGuard>
#include <QtCore/QTemporaryDir>
#include <QtTest/QTest>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <random>

#include "render_checks.h"
#include "riglens/core/base/point_transform.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/render/device/rhi_device.h"
#include "riglens/render/parity/draw_triangles_offscreen.h"
#include "riglens/render/parity/transform_points_on_gpu.h"
#include "riglens/samples/sample_runs.h"
#include "test_paths.h"

using namespace riglens;

namespace {

bool colorNear(QRgb actual, QColor expected, int tolerance) {
  return std::abs(qRed(actual) - expected.red()) <= tolerance &&
         std::abs(qGreen(actual) - expected.green()) <= tolerance &&
         std::abs(qBlue(actual) - expected.blue()) <= tolerance;
}

}  // namespace

class TestRenderSmoke : public test::RenderTestCase {
  Q_OBJECT

 public:
  TestRenderSmoke() : RenderTestCase(render::Backend::Vulkan) {}

 private slots:
  void deviceRunsCompute() { QVERIFY(m_device->supportsCompute()); }

  void computeMatchesCpuReference() {
    // 1000 points: not a multiple of the workgroup size, so the bounds check
    // in the shader is exercised too.
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> coord(-64.0f, 64.0f);
    std::vector<glm::vec4> points(1000);
    for (auto& p : points) p = {coord(rng), coord(rng), coord(rng), 1.0f};
    glm::mat4 m = glm::translate(glm::mat4(1.0f), {16.0f, 10.0f, 16.0f});
    m = glm::rotate(m, 0.64f, glm::vec3(0, 1, 0));
    m = glm::rotate(m, -0.3f, glm::vec3(1, 0, 0));
    m = glm::translate(m, {-16.0f, -10.0f, -16.0f});

    auto gpu = render::transformPointsOnGpu(*m_device, m, points);
    QVERIFY2(gpu.hasValue(), gpu ? "" : gpu.error().message.c_str());
    std::vector<glm::vec4> cpu(points.size());
    core::transformPoints(m, points, cpu);
    QCOMPARE(gpu->size(), cpu.size());
    float worst = 0.0f;
    for (std::size_t i = 0; i < cpu.size(); ++i)
      for (int c = 0; c < 4; ++c) {
        const float scale = std::max(1.0f, std::abs(cpu[i][c]));
        worst = std::max(worst, std::abs((*gpu)[i][c] - cpu[i][c]) / scale);
      }
    QVERIFY2(worst <= core::tolerance::kGpuCpuRelative, qPrintable(QString::number(worst)));
  }

  void aShaderFolderReplacesTheBuiltInShadersItHolds() {
    // RIGLENS_SHADER_DIR (kernel tuning): a .qsb the folder holds is used
    // instead of the built-in one (a broken one is refused, naming it), and
    // one it lacks stays built in.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    qputenv("RIGLENS_SHADER_DIR", dir.path().toUtf8());
    const auto restore = qScopeGuard([] { qunsetenv("RIGLENS_SHADER_DIR"); });
    const std::vector<glm::vec4> points{{1, 2, 3, 1}, {-4, 5, 6, 1}};
    const glm::mat4 m = glm::translate(glm::mat4(1.0f), {0.5f, -1.0f, 2.0f});
    auto built = render::transformPointsOnGpu(*m_device, m, points);  // the folder is empty
    QVERIFY2(built.hasValue(), built ? "" : built.error().message.c_str());

    const QString path = dir.filePath("transform_points.comp.qsb");
    QFile broken(path);
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("not a shader");
    broken.close();
    auto refused = render::transformPointsOnGpu(*m_device, m, points);
    QVERIFY(!refused.hasValue());
    QVERIFY2(refused.error().message.find(path.toStdString()) != std::string::npos, refused.error().message.c_str());

    QVERIFY(QFile::remove(path));
    QVERIFY(QFile::copy(":/shaders/transform_points.comp.qsb", path));  // the built-in build, from the folder
    auto fromFolder = render::transformPointsOnGpu(*m_device, m, points);
    QVERIFY2(fromFolder.hasValue(), fromFolder ? "" : fromFolder.error().message.c_str());
    for (std::size_t i = 0; i < points.size(); ++i) QCOMPARE((*fromFolder)[i], (*built)[i]);
  }

  void offscreenDrawReadsBack() {
    // A triangle whose red apex points up (+y): checks the pipeline, the
    // clip-space correction and the readback orientation at once.
    const std::vector<render::ColorVertex> triangle{
        {0.0f, 0.8f, 0.0f, 1, 0, 0},
        {-0.8f, -0.8f, 0.0f, 0, 1, 0},
        {0.8f, -0.8f, 0.0f, 0, 0, 1},
    };
    const QColor clear(32, 40, 48);
    auto image = render::drawColoredTrianglesOffscreen(*m_device, QSize(64, 64), triangle, glm::mat4(1.0f), clear);
    QVERIFY2(image.hasValue(), image ? "" : image.error().message.c_str());
    image->save(test::outputPath("render_smoke_triangle.png"));
    QCOMPARE(image->size(), QSize(64, 64));
    const int tol = core::tolerance::kColorChannel;
    QVERIFY(colorNear(image->pixel(1, 1), clear, tol));    // top-left: background
    QVERIFY(colorNear(image->pixel(62, 62), clear, tol));  // bottom-right: background
    const QRgb nearApex = image->pixel(32, 10);
    QVERIFY2(qRed(nearApex) > 180 && qGreen(nearApex) < 60 && qBlue(nearApex) < 60,
             qPrintable(QColor(nearApex).name()));
    const QRgb nearLeft = image->pixel(10, 56);
    QVERIFY2(qGreen(nearLeft) > 180 && qRed(nearLeft) < 60, qPrintable(QColor(nearLeft).name()));
    const QRgb nearRight = image->pixel(54, 56);
    QVERIFY2(qBlue(nearRight) > 180 && qRed(nearRight) < 60, qPrintable(QColor(nearRight).name()));
  }

  void drawsAPosedSampleRun() {
    // Every part of the generated tank, posed by the core (turret turned,
    // gun raised), flattened into one unlit triangle list: the geometry and
    // the poses reach the GPU intact.
    auto sample = samples::makeSampleRun("tank-cubes");
    QVERIFY(sample);
    QTemporaryDir dir;
    QVERIFY(samples::writeSampleRun(*sample, dir.path().toStdString()));
    auto run = core::loadRun(dir.path().toStdString());
    QVERIFY(run);
    core::RigController controller(run->rig);
    QVERIFY(controller.setCaller("turret_yaw", 0.8));
    QVERIFY(controller.setCaller("gun_pitch", 0.5));
    controller.evaluate();
    const auto& worlds = controller.partWorlds();
    std::vector<render::ColorVertex> vertices;
    for (std::size_t p = 0; p < run->meshes.size(); ++p) {
      const auto& mesh = run->meshes[p];
      for (std::uint32_t index : mesh.indices) {
        const glm::vec4 v = worlds[p] * glm::vec4(mesh.positions[index * 3], mesh.positions[index * 3 + 1],
                                                  mesh.positions[index * 3 + 2], 1.0f);
        vertices.push_back(
            {v.x, v.y, v.z, mesh.colors[index * 3], mesh.colors[index * 3 + 1], mesh.colors[index * 3 + 2]});
      }
    }
    const glm::mat4 view = glm::lookAt(glm::vec3(60, 45, 70), glm::vec3(16, 8, 20), glm::vec3(0, 1, 0));
    const glm::mat4 proj = glm::perspective(glm::radians(40.0f), 1.0f, 1.0f, 500.0f);
    const QColor clear(32, 38, 46);
    auto image = render::drawColoredTrianglesOffscreen(*m_device, QSize(256, 256), vertices, proj * view, clear);
    QVERIFY2(image.hasValue(), image ? "" : image.error().message.c_str());
    image->save(test::outputPath("render_smoke_tank.png"));
    int covered = 0;
    for (int y = 0; y < 256; ++y)
      for (int x = 0; x < 256; ++x) covered += !colorNear(image->pixel(x, y), clear, 2);
    QVERIFY2(covered > 256 * 256 / 10, qPrintable(QString::number(covered)));
  }
};

QTEST_MAIN(TestRenderSmoke)
#include "tst_render_smoke.moc"
