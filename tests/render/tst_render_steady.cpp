// Drawing a document frame after frame holds no more memory than its first
// frames did. Lavapipe (Mesa 22.3) specialises a shader on the uniform values
// its branches test and compiles the copy again at every draw that binds the
// uniform buffers anew (a part's block is one such bind), keeping each copy
// until the pipeline goes: the tank drawn again and again grew 1.3 MiB a
// frame and took twice as long (shaders/uniform_branches.glsl). Each row
// draws one document in one look or tint, warms up, then draws more frames
// with the camera turning and the pose moving, and compares the process's
// resident memory before and after.

#include <QtTest/QTest>
#include <functional>

#include "built_glb.h"
#include "gltf_material_fixture.h"
#include "gltf_scene_fixture.h"
#include "render_checks.h"
#include "resident_memory.h"
#include "riglens/core/character/character_scene.h"
#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/render/character/character_renderer.h"
#include "riglens/render/splats/splat_renderer.h"
#include "riglens/samples/character_sample.h"
#include "riglens/samples/gaussian_samples.h"
#include "riglens/samples/gnm_bake.h"
#include "test_checks.h"

using namespace riglens;

namespace {

// Frames before measuring: the first frames make the pipelines and fill
// lavapipe's and Qt's caches.
constexpr int kWarmUpFrames = 6;
constexpr int kMeasuredFrames = 40;
// Resident memory may move by this much over the measured frames without a
// leak: most rows measured -0.06..+0.06 MiB, and now and then one grew once
// by 1.0-2.2 MiB (not the same row from run to run, nor in every run:
// lavapipe's and llvmpipe's threads touching more memory). One shader
// compiled again at each frame costs about 270 KiB a frame (the tank's ten
// parts, 2.7 MiB), 10 MiB over kMeasuredFrames.
constexpr std::int64_t kSteadyGrowthBytes = std::int64_t(4) << 20;

std::shared_ptr<const core::LoadedRun> fixture(const char* name) {
  static QTemporaryDir dir;
  if (std::string(name) == "materials.glb") return test::loadBuiltGlb(test::makeMaterialShowcase(), dir.filePath(name));
  if (std::string(name) == "character.glb")
    return test::loadBuiltGlb(test::makeAnimatedCharacter(), dir.filePath(name));
  return test::sampleRun(name);
}

// Draws kWarmUpFrames, then kMeasuredFrames more; what resident memory grew
// by in those, or why a frame failed.
core::Expected<std::int64_t> growthOverFrames(const std::function<core::Expected<void>(int)>& frame) {
  for (int f = 0; f < kWarmUpFrames; ++f)
    if (auto ok = frame(f); !ok) return ok.error();
  const std::int64_t before = test::residentBytes();
  for (int f = 0; f < kMeasuredFrames; ++f)
    if (auto ok = frame(kWarmUpFrames + f); !ok) return ok.error();
  return test::residentBytes() - before;
}

QString steadyProblem(const QString& what, std::int64_t grown) {
  qInfo("%s: resident memory %+.2f MiB over %d frames", qPrintable(what), double(grown) / 1048576.0, kMeasuredFrames);
  if (grown <= kSteadyGrowthBytes) return {};
  return QString("%1: resident memory grew %2 MiB over %3 frames")
      .arg(what)
      .arg(double(grown) / 1048576.0, 0, 'f', 2)
      .arg(kMeasuredFrames);
}

core::AosRigPack sampleHead() {
  auto bake = samples::makeSampleCharacter(RIGLENS_DATA_DIR "/ict-face");
  if (!bake) qFatal("%s", bake.error().message.c_str());
  auto bytes = samples::bakeAosRig(*bake);
  auto pack = core::parseAosRig(std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes).value()), "sample");
  if (!pack) qFatal("%s", pack.error().message.c_str());
  return std::move(pack).value();
}

}  // namespace

class TestRenderSteady : public test::RenderTestCase {
  Q_OBJECT

 public:
  TestRenderSteady() : RenderTestCase(render::Backend::Vulkan) {}

 private slots:
  void drawingAgainHoldsNoMoreMemory_data() {
    QTest::addColumn<QString>("document");
    QTest::addColumn<int>("tint");
    QTest::addColumn<int>("look");
    QTest::addColumn<int>("highlight");
    const auto row = [](const char* name, const char* document, core::TintMode tint, core::Look look, int highlight) {
      QTest::newRow(name) << document << int(tint) << int(look) << highlight;
    };
    using core::Look, core::TintMode;
    row("cubes, colour", "tank-cubes", TintMode::Color, Look::Review, -1);
    row("cubes, part tint, a part highlighted", "tank-cubes", TintMode::Part, Look::Review, 1);
    row("cubes, joint tint", "tank-cubes", TintMode::Joint, Look::Review, -1);
    row("cubes, normals", "tank-cubes", TintMode::Normals, Look::Review, -1);
    row("cubes, wireframe", "tank-cubes", TintMode::Wireframe, Look::Review, -1);
    row("cubes, sockets", "tank-cubes", TintMode::Sockets, Look::Review, -1);
    row("smooth, colour", "tank-smooth", TintMode::Color, Look::Review, 0);
    row("smooth, PBR look", "tank-smooth", TintMode::Color, Look::Pbr, -1);
    row("walker, colour", "walker-cubes", TintMode::Color, Look::Review, -1);
    row("materials, colour", "materials.glb", TintMode::Color, Look::Review, -1);
    row("materials, PBR look", "materials.glb", TintMode::Color, Look::Pbr, 0);
    row("skinned, colour", "character.glb", TintMode::Color, Look::Review, -1);
    row("skinned, joint tint", "character.glb", TintMode::Joint, Look::Review, -1);
    row("skinned, PBR look", "character.glb", TintMode::Color, Look::Pbr, -1);
  }

  void drawingAgainHoldsNoMoreMemory() {
    QFETCH(QString, document);
    QFETCH(int, tint);
    QFETCH(int, look);
    QFETCH(int, highlight);
    const auto run = fixture(document.toStdString().c_str());
    QVERIFY(run);
    auto drawn = test::runOnCanvas(*m_device, run, QSize(320, 240));
    QVERIFY_OK(drawn);
    core::RigController controller(run->rig);
    for (const core::ClipInfo& clip : controller.clips())
      if (!clip.autoPlay) {
        QVERIFY_OK(controller.play(clip.name));
        break;
      }
    core::OrbitCamera camera = test::defaultCamera(*run);
    render::ViewSettings view;
    view.tint = core::TintMode(tint);
    view.look = core::Look(look);
    view.highlightPart = highlight;
    view.environmentBackground = view.look == core::Look::Pbr;
    const auto frame = [&](int f) {
      controller.update(1.0 / 30.0);
      controller.evaluate();
      camera.setAngles(float(f) * 7.0f, 15.0f);
      auto state = render::buildFrameState(*run, controller.partWorlds(), camera, 4.0f / 3.0f, view);
      return drawn->canvas->renderWithoutReadback(*drawn->renderer, state);
    };
    auto grown = growthOverFrames(frame);
    QVERIFY_OK(grown);
    const QString problem = steadyProblem(document, *grown);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
  }

  // The splat scene in each rasteriser, and the sample character (its
  // expression changing every frame) by the device's routes and the GPU's.
  void splatsAndCharactersHoldNoMoreMemory_data() {
    QTest::addColumn<int>("raster");
    QTest::addColumn<bool>("character");
    QTest::newRow("splats, compute tiles") << int(render::SplatRaster::Compute) << false;
    QTest::newRow("splats, quads") << int(render::SplatRaster::Quads) << false;
    QTest::newRow("splats, CPU tiles") << int(render::SplatRaster::Cpu) << false;
    QTest::newRow("character, the device's routes") << int(render::SplatRaster::Auto) << true;
    QTest::newRow("character, GNM and tiles on the GPU") << int(render::SplatRaster::Compute) << true;
  }

  void splatsAndCharactersHoldNoMoreMemory() {
    QFETCH(int, raster);
    QFETCH(bool, character);
    auto canvas = render::OffscreenCanvas::create(*m_device, QSize(320, 240));
    QVERIFY_OK(canvas);
    core::OrbitCamera camera;
    render::FrameState state;
    std::function<core::Expected<void>(int)> frame;
    std::unique_ptr<render::SplatRenderer> splats;
    std::unique_ptr<render::CharacterRenderer> face;
    if (!character) {
      auto cloud = core::parseGaussianPly(core::encodeGaussianPly(samples::makeGaussianTorus(20000)), "torus.ply");
      QVERIFY_OK(cloud);
      const auto shared = std::make_shared<const core::GaussianCloud>(std::move(cloud).value());
      camera.frame(core::cloudBounds(*shared));
      splats = std::make_unique<render::SplatRenderer>(*m_device);
      splats->setRaster(render::SplatRaster(raster));
      splats->setCloud(shared);
      frame = [&](int) { return (*canvas)->renderWithoutReadback(*splats, state); };
    } else {
      static const auto pack = std::make_shared<const core::AosRigPack>(sampleHead());
      camera.frame(*core::characterRestBounds(*pack));
      face = std::make_unique<render::CharacterRenderer>(*m_device);
      if (render::SplatRaster(raster) != render::SplatRaster::Auto) {
        face->setRaster(render::SplatRaster(raster));
        face->setGnmRoute(render::GnmRoute::Gpu);
      }
      face->setPack(pack);
      frame = [&](int f) {
        render::CharacterFrame controls;
        controls.controls.assign(pack->coeffCount + 4, 0.0f);
        controls.controls[std::size_t(f) % pack->coeffCount] = 1.0f;  // a new expression: GNM and the lift again
        face->setFrame(controls);
        return (*canvas)->renderWithoutReadback(*face, state);
      };
    }
    const auto turning = [&](int f) {
      camera.setAngles(float(f) * 7.0f, 15.0f);
      state.view = camera.view();
      state.projection = camera.projection(4.0f / 3.0f);
      return frame(f);
    };
    auto grown = growthOverFrames(turning);
    QVERIFY_OK(grown);
    const QString problem = steadyProblem(QTest::currentDataTag(), *grown);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
  }
};

QTEST_MAIN(TestRenderSteady)
#include "tst_render_steady.moc"
