// Drawing a document frame after frame holds no more memory than its first
// frames did. Lavapipe (Mesa 22.3) specialises a shader on the uniform values
// its branches test and compiles the copy again at every draw that binds the
// uniform buffers anew (a part's block is one such bind), keeping each copy
// until the pipeline goes: the tank drawn again and again grew 1.3 MiB a
// frame and took twice as long (shaders/uniform_branches.glsl). Each row
// draws one document in one look or tint, warms up, then draws more frames
// with the camera turning and the pose moving, and compares the process's
// resident memory before and after.
#include <malloc.h>

#include <QtCore/QFile>
#include <QtTest/QtTest>

#include "built_glb.h"
#include "gltf_material_fixture.h"
#include "gltf_scene_fixture.h"
#include "render_checks.h"
#include "test_checks.h"

using namespace riglens;

namespace {

// Frames before measuring: the first frames make the pipelines and fill
// lavapipe's and Qt's caches.
constexpr int kWarmUpFrames = 6;
constexpr int kMeasuredFrames = 40;
// Resident memory may move by this much over the measured frames without a
// leak (malloc's arenas after malloc_trim: a few hundred KiB on lavapipe); a
// shader compiled again at each frame costs 50 KiB to over 1 MiB a frame,
// 2-50 MiB over kMeasuredFrames.
constexpr std::int64_t kSteadyGrowthBytes = std::int64_t(1) << 20;

std::int64_t residentBytes() {
  malloc_trim(0);
  QFile status("/proc/self/status");
  if (!status.open(QIODevice::ReadOnly)) return -1;
  for (const QByteArray& line : status.readAll().split('\n'))
    if (line.startsWith("VmRSS:")) return line.mid(6).trimmed().split(' ').first().toLongLong() * 1024;
  return -1;
}

std::shared_ptr<const core::LoadedRun> fixture(const char* name) {
  static QTemporaryDir dir;
  if (std::string(name) == "materials.glb") return test::loadBuiltGlb(test::makeMaterialShowcase(), dir.filePath(name));
  if (std::string(name) == "character.glb") return test::loadBuiltGlb(test::makeAnimatedCharacter(), dir.filePath(name));
  return test::sampleRun(name);
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
    for (int f = 0; f < kWarmUpFrames; ++f) QVERIFY_OK(frame(f));
    const std::int64_t before = residentBytes();
    for (int f = 0; f < kMeasuredFrames; ++f) QVERIFY_OK(frame(kWarmUpFrames + f));
    const std::int64_t grown = residentBytes() - before;
    qInfo("%s: resident memory %+.2f MiB over %d frames", qPrintable(document), double(grown) / 1048576.0,
          kMeasuredFrames);
    QVERIFY2(grown <= kSteadyGrowthBytes,
             qPrintable(QString("resident memory grew %1 MiB over %2 frames")
                            .arg(double(grown) / 1048576.0, 0, 'f', 2)
                            .arg(kMeasuredFrames)));
  }
};

QTEST_MAIN(TestRenderSteady)
#include "tst_render_steady.moc"
