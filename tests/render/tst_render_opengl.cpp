// The rig renderer on the OpenGL backend (llvmpipe under Xvfb): the part
// silhouette check, GPU skinning parity, and a color frame that matches the
// same frame drawn on Vulkan. Overlay lines are off for that comparison: GL
// and Vulkan have different line rasterisation rules, so 1-pixel grid lines
// land on different pixels; the model itself must agree.
#include <QtTest/QTest>
#include <glm/gtc/matrix_transform.hpp>

#include "render_checks.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/rig/skinning.h"
#include "riglens/render/device/offscreen_canvas.h"
#include "riglens/render/parity/shader_layouts.h"
#include "riglens/render/parity/skin_mesh_on_gpu.h"
#include "riglens/render/rig/frame_builder.h"
#include "riglens/render/rig/rig_renderer.h"
#include "test_checks.h"
#include "test_paths.h"

using namespace riglens;

class TestRenderOpenGL : public test::RenderTestCase {
  Q_OBJECT

 public:
  TestRenderOpenGL() : RenderTestCase(render::Backend::OpenGL) {}

 private slots:
  // Each graphics pipeline's two stages link on OpenGL only when they carry
  // the same GLSL versions (the composite's did not: characters could not be
  // drawn on Qt Quick's default backend).
  void everyPipelinesStagesShareTheirGlslVersions() {
    const auto shared = render::verifyPipelineStagesShareGlslVersions();
    QVERIFY_OK(shared);
  }

  void aSoftwareRasteriserIsKnownOnEitherBackend() {
    // QRhi 6.4's OpenGL backend reports no device type; the device tells a
    // software rasteriser by its renderer string, and must agree with what
    // the Vulkan driver of the same machine reports as its type (Mesa's
    // llvmpipe and lavapipe here: a CPU device; a GPU's drivers: not).
    auto vulkan = render::RhiDevice::createOffscreen(render::Backend::Vulkan);
    QVERIFY_OK(vulkan);
    QVERIFY2(m_device->isCpuDevice() == (*vulkan)->isCpuDevice(),
             qPrintable(QString::fromStdString(m_device->deviceName() + " / " + (*vulkan)->deviceName())));
  }

  void drawsTheTankLikeVulkan() {
    auto run = test::sampleRun("tank-cubes");
    const auto worlds = test::posedWorlds(*run, {{{"turret_yaw", 0.8}, {"gun_pitch", 0.4}}, "", 0});
    auto canvas = render::OffscreenCanvas::create(*m_device, QSize(256, 256));
    QVERIFY_OK(canvas);
    render::RigRenderer renderer(*m_device);
    renderer.setModel(run);
    const core::OrbitCamera camera = test::defaultCamera(*run);
    render::ViewSettings plain;
    plain.showGrid = plain.showAxes = false;
    const auto state = render::buildFrameState(*run, worlds, camera, 1.0f, plain);
    auto image = (*canvas)->render(renderer, state);
    QVERIFY_OK(image);
    image->save(test::outputPath("opengl-tank-aim-color.png"));
    auto vulkan = render::RhiDevice::createOffscreen(render::Backend::Vulkan);
    QVERIFY_OK(vulkan);
    {
      auto vkCanvas = render::OffscreenCanvas::create(**vulkan, QSize(256, 256));
      QVERIFY(vkCanvas);
      render::RigRenderer vkRenderer(**vulkan);
      vkRenderer.setModel(run);
      auto reference = (*vkCanvas)->render(vkRenderer, state);
      QVERIFY(reference);
      // MSAA sample positions and edge coverage differ between the two
      // rasterisers: up to 12/255 per channel, and 1% of pixels (edges) more.
      int differing = 0;
      for (int y = 0; y < 256; ++y)
        for (int x = 0; x < 256; ++x) {
          const QRgb a = image->pixel(x, y), b = reference->pixel(x, y);
          differing += std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)),
                                 std::abs(qBlue(a) - qBlue(b))}) > 12;
        }
      QVERIFY2(differing <= 256 * 256 / 100, qPrintable(QString::number(differing)));
    }

    render::ViewSettings view;
    view.tint = core::TintMode::Part;
    view.showGrid = view.showAxes = false;
    auto parts = (*canvas)->render(renderer, render::buildFrameState(*run, worlds, camera, 1.0f, view));
    QVERIFY(parts);
    const auto pixels = test::visiblePartPixels(*run, worlds, camera, QSize(256, 256));
    const auto tints = core::partTints(run->rig);
    for (std::size_t p = 0; p < pixels.size(); ++p)
      if (pixels[p]) QCOMPARE(test::nearestTint(parts->pixel(*pixels[p]), tints), int(p));
  }

  void skinningMatchesTheCpuReference() {
    auto tank = test::sampleRun("tank-cubes");
    core::SkinData skin;
    const core::PartMesh& mesh = tank->meshes[0];
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
      skin.joints.insert(skin.joints.end(), {0, 1, 0, 0});
      skin.weights.insert(skin.weights.end(), {0.25f, 0.75f, 0, 0});
    }
    skin.boneNames = {"a", "b"};
    skin.inverseBinds = {glm::mat4(1.0f), glm::mat4(1.0f)};
    const std::vector<glm::mat4> bones{glm::translate(glm::mat4(1.0f), glm::vec3(1, 2, 3)),
                                       glm::rotate(glm::mat4(1.0f), 0.7f, glm::vec3(0, 1, 0))};
    const core::PartMesh cpu = core::skinMesh(mesh, skin, bones);
    auto gpu = render::skinMeshOnGpu(*m_device, mesh, skin, bones);
    QVERIFY_OK(gpu);
    for (std::size_t i = 0; i < cpu.positions.size(); ++i)
      QCOMPARE_NEAR(gpu->positions[i], cpu.positions[i],
                    core::tolerance::kGpuCpuRelative * std::max(1.0f, std::abs(cpu.positions[i])));
  }
};

QTEST_MAIN(TestRenderOpenGL)
#include "tst_render_opengl.moc"
