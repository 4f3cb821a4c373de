// Splat-character compute on the GPU against the core's CPU references, read
// back through QRhi (Vulkan / lavapipe): GNM posed vertices on the ICT sample
// character and on a synthetic full-size head (dense and sparse), and the
// debug lift's slots (centres, covariances, colours, cleared slots), with N
// not a multiple of the workgroup.
#include <QtTest/QTest>
#include <algorithm>
#include <cmath>
#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <numeric>
#include <optional>
#include <random>

#include "render_checks.h"
#include "riglens/core/base/color.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/character/character_scene.h"
#include "riglens/core/character/debug_lift.h"
#include "riglens/core/character/gnm.h"
#include "riglens/core/rig/scene_bounds.h"
#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/core/splats/spherical_harmonics.h"
#include "riglens/core/view/orbit_camera.h"
#include "riglens/render/character/character_renderer.h"
#include "riglens/render/character/character_splats.h"
#include "riglens/render/character/gnm_launch.h"
#include "riglens/render/character/gpu_character.h"
#include "riglens/render/device/drawable_stack.h"
#include "riglens/render/device/offscreen_canvas.h"
#include "riglens/render/device/rhi_device.h"
#include "riglens/render/parity/character_splats_on_gpu.h"
#include "riglens/render/parity/lift_on_gpu.h"
#include "riglens/render/parity/shader_layouts.h"
#include "riglens/render/parity/sort_on_gpu.h"
#include "riglens/render/rig/rig_renderer.h"
#include "riglens/render/splats/gpu_sort.h"
#include "riglens/render/splats/splat_renderer.h"
#include "riglens/samples/character_sample.h"
#include "riglens/samples/gaussian_samples.h"
#include "riglens/samples/gnm_bake.h"
#include "riglens/samples/scene_like_cloud.h"
#include "test_checks.h"

namespace {
// A pixel visibly differs from another when its RGB differs by more than the
// golden-image tolerance in each of its three channels, summed.
constexpr int kVisiblyDifferent = 3 * riglens::core::tolerance::kGoldenChannel;
// The CPU and GPU bin the same projection; a splat whose extent ends on a
// tile border within a float ulp may add or drop one tile there.
constexpr double kTileKeysRelative = 1e-3;
// The CPU rasteriser against the compute tiles: only float rounding (the
// shader's exp and log against libm's) tells them apart. Measured on
// lavapipe: 1/255 on 7 pixels of 800x600; allowed 2/255 on 0.1% of pixels,
// tighter than the goldens' tolerance.
const riglens::test::GoldenTolerance kCpuAgainstTiles{2, 0.001};
// The compute tiles' runs blended in parts against the same runs blended
// whole: the parts' colours are summed, and their transmittances
// multiplied, in another order than one run's (float rounding, far below
// 1/255 before the store's rounding to 8 bits).
const riglens::test::GoldenTolerance kPartsAgainstWhole{1, 0.001};
// An 8-bit readback of one blend: the blend and the store each round once.
constexpr double kBlendSteps = 2.0;
// A frame of splats alone written by compute against the same frame drawn in
// a render pass: the same premultiplied pixel over the same background, the
// sum rounded once to 8 bits by the shader's store there and by the blend
// unit here, so one step apart at most, on no more pixels than that.
const riglens::test::GoldenTolerance kWrittenAgainstPass{1, 0.0};
}  // namespace

using namespace riglens;

namespace {

constexpr double kPoseToleranceMetres = core::tolerance::kGnmGpuMetres;

core::AosRigPack parse(std::vector<std::uint8_t> bytes) {
  auto pack = core::parseAosRig(std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes)), "pack");
  if (!pack) qFatal("%s", pack.error().message.c_str());
  return std::move(pack).value();
}

core::AosRigPack syntheticFullHead() {
  return parse(*samples::bakeAosRig(samples::syntheticGnmHead(17821, 383, 3)));
}

double worst(const std::vector<float>& a, const std::vector<float>& b) {
  double w = 0;
  for (std::size_t i = 0; i < a.size(); ++i) w = std::max(w, double(std::abs(a[i] - b[i])));
  return w;
}

// The tank at 160x120 without grid or axes, its rig renderer on a canvas:
// where splats meet voxel depth. The camera looks at the framed centre, so
// the centre pixel shows the tank.
struct TankScene {
  const QSize size{160, 120};
  std::shared_ptr<const riglens::core::LoadedRun> run;
  riglens::core::OrbitCamera camera;
  riglens::render::FrameState state;
  riglens::core::Bounds bounds;
  riglens::test::RunOnCanvas drawn;
  QPoint centrePixel() const { return {size.width() / 2, size.height() / 2}; }
  glm::vec3 towardsCentre() const { return bounds.center() - camera.eye(); }
};

std::optional<TankScene> tankScene(riglens::render::RhiDevice& device) {
  using namespace riglens;
  TankScene scene;
  scene.run = test::sampleRun("tank-cubes");
  const auto worlds = test::posedWorlds(*scene.run, {});
  scene.camera = test::defaultCamera(*scene.run);
  render::ViewSettings view;
  view.showGrid = false;
  view.showAxes = false;
  const float aspect = float(scene.size.width()) / float(scene.size.height());
  scene.state = render::buildFrameState(*scene.run, worlds, scene.camera, aspect, view);
  scene.bounds = core::posedBounds(*scene.run, worlds);
  auto drawn = test::runOnCanvas(device, scene.run, scene.size);
  if (!drawn) return std::nullopt;
  scene.drawn = std::move(drawn).value();
  return scene;
}

// A round gaussian (standard deviation `sigma` along every axis) into `cloud`.
void addRoundSplat(riglens::core::GaussianCloud& cloud, glm::vec3 p, float sigma, std::uint32_t color) {
  cloud.positions.insert(cloud.positions.end(), {p.x, p.y, p.z});
  const float s2 = sigma * sigma;
  cloud.covariance.insert(cloud.covariance.end(), {s2, 0, 0, s2, 0, s2});
  cloud.color.push_back(color);
  ++cloud.count;
}

}  // namespace

Q_DECLARE_METATYPE(riglens::render::SplatRaster)
Q_DECLARE_METATYPE(riglens::render::SortAlgorithm)

namespace {
// The generated torus (20,000 gaussians) as the .ply decoder reads it (null
// if it does not decode), and the wide view the compute tiles are checked at.
std::shared_ptr<const riglens::core::GaussianCloud> torusCloud() {
  using namespace riglens;
  auto cloud = core::parseGaussianPly(core::encodeGaussianPly(samples::makeGaussianTorus(20000)), "torus.ply");
  return cloud ? std::make_shared<const core::GaussianCloud>(std::move(cloud).value()) : nullptr;
}
const QSize kWide(1280, 720);
// Enough of the scene-like cloud for its ground and sky to cover the view
// (a sparser one shows the clear colour between them).
constexpr std::size_t kInsideSceneGaussians = 200000;
constexpr float kWideAspect = 16.0f / 9.0f;

// The torus on a kWide canvas, and a camera framing it: where two rasterisers
// are compared.
struct WideTorus {
  std::shared_ptr<const riglens::core::GaussianCloud> cloud;
  std::unique_ptr<riglens::render::OffscreenCanvas> canvas;
  riglens::core::OrbitCamera camera;
};
std::optional<WideTorus> wideTorus(riglens::render::RhiDevice& device) {
  WideTorus torus{torusCloud(), nullptr, {}};
  auto canvas = riglens::render::OffscreenCanvas::create(device, kWide);
  if (!torus.cloud || !canvas) return std::nullopt;
  torus.canvas = std::move(canvas).value();
  torus.camera.frame(riglens::core::cloudBounds(*torus.cloud), kWideAspect);
  return torus;
}

// A renderer of `cloud` that draws with `raster`.
std::unique_ptr<riglens::render::SplatRenderer> splatRenderer(
    riglens::render::RhiDevice& device, riglens::render::SplatRaster raster,
    std::shared_ptr<const riglens::core::GaussianCloud> cloud) {
  auto renderer = std::make_unique<riglens::render::SplatRenderer>(device);
  renderer->setRaster(raster);
  renderer->setCloud(std::move(cloud));
  return renderer;
}

// The wide torus and three renderers of it: the compute tiles in parts (as a
// test sets them), the compute tiles with every run whole, and the CPU's.
struct TorusInParts {
  WideTorus torus;
  std::unique_ptr<riglens::render::SplatRenderer> parts, whole, cpu;
};

std::optional<TorusInParts> torusInParts(riglens::render::RhiDevice& device) {
  auto torus = wideTorus(device);
  if (!torus) return std::nullopt;
  using riglens::render::SplatRaster;
  const auto cloud = torus->cloud;
  TorusInParts t{std::move(*torus), splatRenderer(device, SplatRaster::Compute, cloud),
                 splatRenderer(device, SplatRaster::Compute, cloud), splatRenderer(device, SplatRaster::Cpu, cloud)};
  t.whole->setTileParts({0, 0});
  return t;
}

// A frame of `renderer`, drawn again where the tiles grew their room.
auto settledFrame(WideTorus& torus, riglens::render::SplatRenderer& renderer,
                  const riglens::render::FrameState& state) {
  auto image = torus.canvas->render(renderer, state);
  if (renderer.wantsAnotherFrame()) image = torus.canvas->render(renderer, state);
  return image;
}

// Every rasteriser, against the same goldens (made with the quads): the
// compute tiles and the CPU's must agree within the golden tolerance.
void rasterisers() {
  QTest::addColumn<riglens::render::SplatRaster>("raster");
  QTest::newRow("compute tiles") << riglens::render::SplatRaster::Compute;
  QTest::newRow("quads") << riglens::render::SplatRaster::Quads;
  QTest::newRow("cpu") << riglens::render::SplatRaster::Cpu;
}
}  // namespace

namespace {
// Whether `sorted` is `keys` sorted stably, with the values 0..n-1 carried
// along (the CPU reference: std::stable_sort of the indices by key).
bool isStableSortOf(const std::vector<std::uint32_t>& keys, const render::SortedPairs& sorted) {
  std::vector<std::uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  if (sorted.second != order || sorted.first.size() != keys.size()) return false;
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (sorted.first[i] != keys[order[i]]) return false;
  return true;
}
}  // namespace

class TestRenderCharacter : public test::RenderTestCase {
  Q_OBJECT

 public:
  TestRenderCharacter() : RenderTestCase(render::Backend::Vulkan) {}

 private slots:
  void shaderLayoutsMatchReflection() {
    auto layouts = render::verifyShaderLayouts();
    QVERIFY_OK(layouts);
  }

  void gnmOnTheSampleCharacter() {
    auto bake = samples::makeSampleCharacter(RIGLENS_DATA_DIR "/ict-face");
    QVERIFY_OK(bake);
    const core::AosRigPack pack = parse(*samples::bakeAosRig(*bake));
    std::vector<float> controls(57, 0.0f);
    controls[3] = 0.8f;
    controls[25] = -0.4f;
    controls[53] = 0.15f;  // left pitch
    controls[56] = -0.2f;  // right yaw
    core::GnmJointState joints(pack);
    joints.setJointOverrides(
        {{"jaw", glm::angleAxis(0.25, glm::dvec3(1, 0, 0))}, {"head", glm::angleAxis(0.1, glm::dvec3(0, 1, 0))}});
    auto cpu = core::gnmPose(pack, controls, &joints);
    auto gpu = render::gnmPoseOnGpu(*m_device, pack, controls, &joints);
    QVERIFY_OK(gpu);
    const double err = worst(*cpu, *gpu);
    QVERIFY2(err <= kPoseToleranceMetres, qPrintable(QString::number(err)));
    QVERIFY(worst(*cpu, std::vector<float>(pack.neutral.data(), pack.neutral.data() + cpu->size())) >
            riglens::core::tolerance::kMoved);  // it moved
  }

  // The workgroup size that evens out the rows the busiest multiprocessor
  // reads (groups handed out evenly). Expected values worked by hand: for
  // V 17,821 on 132 SMs the sizes' groups (64, 68, 72, 80, 96 vertices) number
  // 279, 263, 248, 223, 186, so the busiest SM reads 3x64 = 192, 2x68 = 136,
  // 2x72 = 144, 2x80 = 160, 2x96 = 192 rows; for the sample head (V 9,409):
  // 148, 139, 131, 118, 99 groups, busiest 128, 136, 72, 80, 96.
  void gnmGroupSizeSpreadsRowsEvenly() {
    QCOMPARE(render::gnmBusiestRows(17821, 256, 132), std::size_t(192));
    QCOMPARE(render::gnmBusiestRows(17821, 272, 132), std::size_t(136));
    QCOMPARE(render::gnmBusiestRows(9409, 288, 132), std::size_t(72));
    QCOMPARE(render::gnmGroupSizeFor(17821, 132), 272u);
    QCOMPARE(render::gnmGroupSizeFor(9409, 132), 288u);
    QCOMPARE(render::gnmGroupSizeFor(100, 132), 256u);  // one group of each size: the smallest rows
    QCOMPARE(render::gnmGroupSizeFor(17821, 0), render::kGnmDefaultGroupSize);  // the device did not say
    QCOMPARE(render::gnmVerticesPerGroup(272, true), 68u);
    QCOMPARE(render::gnmVerticesPerGroup(272, false), 272u);
  }

  void gnmOnAFullSizeHeadDenseAndSparse() {
    const core::AosRigPack pack = syntheticFullHead();
    // Dense (every row read), dense with idle lanes (twice), sparse (fewer
    // than a sixteenth active), none.
    // Dense and sparse through every workgroup size the kernel is built with
    // (a device picks one by its multiprocessors; lavapipe says none, so the
    // default would be the only one run); V 17,821 leaves each size's last
    // group partly empty.
    for (int active : {383, 60, 30, 12, 0}) {
      std::vector<float> controls(387, 0.0f);
      for (int i = 0; i < active; ++i) controls[std::size_t(i * 383 / active)] = 0.7f - 0.01f * float(i % 50);
      controls[384] = 0.2f;
      auto cpu = core::gnmPose(pack, controls);
      const bool everySize = active == 383 || active == 12;
      for (std::uint32_t size : render::kGnmGroupSizes) {
        if (!everySize && size != render::kGnmDefaultGroupSize) continue;
        auto gpu = render::gnmPoseOnGpu(*m_device, pack, controls, nullptr, size);
        QVERIFY_OK(gpu);
        const double err = worst(*cpu, *gpu);
        QVERIFY2(err <= kPoseToleranceMetres,
                 qPrintable(QString("%1 active, groups of %2: %3").arg(active).arg(size).arg(err)));
      }
    }
    QVERIFY(!render::gnmPoseOnGpu(*m_device, pack, std::vector<float>(387, 0.0f), nullptr, 100));  // not built
    QVERIFY(!render::gnmPoseOnGpu(*m_device, pack, std::vector<float>(400, 0.0f)));                // longer than dim
  }

  void liftMatchesTheCpuReference() {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(-0.2f, 0.2f);
    const std::uint32_t vertices = 1000;  // not a multiple of 64
    std::vector<float> positions(vertices * 3);
    for (auto& p : positions) p = u(rng);
    const core::FitTransform fit = core::fitVertsTransform(positions, std::nullopt, {0.1f, 0.2f, 0.3f});
    positions[7 * 3 + 1] = std::nanf("");  // not finite: their slots are cleared
    positions[9 * 3 + 2] = INFINITY;
    std::vector<std::uint32_t> tints(vertices);
    for (auto& t : tints) t = core::packRgba(0.5f + u(rng), 0.5f + u(rng), 0.5f + u(rng));
    for (auto shading : {core::LiftShading::Tint, core::LiftShading::Normal, core::LiftShading::Flat}) {
      core::DebugLiftParams params;
      params.vertexCount = vertices;
      params.slotOffset = 37;
      params.slotCount = 1100;  // 100 slots past the vertex count: cleared
      params.shading = shading;
      params.affine = fit.rows;
      params.sigma = 0.003f;
      params.opacity = 0.8f;
      params.centroid = fit.centroid;
      core::SplatSink initial(1200);
      std::fill(initial.color.begin(), initial.color.end(),
                0x12345678u);  // untouched slots keep this
      core::SplatSink cpu = initial;
      core::debugLiftCpu(params, positions, tints, cpu);
      auto gpu = render::debugLiftOnGpu(*m_device, params, positions, tints, initial);
      QVERIFY_OK(gpu);
      for (std::size_t s = 0; s < 1200; ++s) {
        for (int k = 0; k < 4; ++k) {
          QVERIFY2(std::abs(cpu.center[s * 4 + std::size_t(k)] - gpu->center[s * 4 + std::size_t(k)]) <=
                       riglens::core::tolerance::kFloatUnit,
                   qPrintable(QString("%1 %2: %3 vs %4")
                                  .arg(s)
                                  .arg(k)
                                  .arg(cpu.center[s * 4 + std::size_t(k)])
                                  .arg(gpu->center[s * 4 + std::size_t(k)])));
          QCOMPARE(gpu->covarianceA[s * 4 + std::size_t(k)], cpu.covarianceA[s * 4 + std::size_t(k)]);
          QCOMPARE(gpu->covarianceB[s * 4 + std::size_t(k)], cpu.covarianceB[s * 4 + std::size_t(k)]);
        }
        // Colours: exact, except one 8-bit step where a normal component sits on a rounding edge.
        const auto a = core::unpackRgba(cpu.color[s]), b = core::unpackRgba(gpu->color[s]);
        for (int k = 0; k < 4; ++k)
          QVERIFY2(std::abs(a[k] - b[k]) <= riglens::core::tolerance::kColorStep + riglens::core::tolerance::kFloatUnit,
                   qPrintable(QString::number(s)));
      }
      QCOMPARE(gpu->color[0], 0x12345678u);  // before the branch's range
      QCOMPARE(gpu->color[37 + 7], 0u);      // a NaN vertex: cleared
      QCOMPARE(gpu->color[37 + 1050], 0u);   // past the vertex count: cleared
      QCOMPARE(gpu->center[(37 + 1050) * 4 + 3], 1.0f);
      QCOMPARE(gpu->color[37 + 1100], 0x12345678u);  // past the slot range: untouched
    }
  }

  void sortTakesOneSweepWhereTheDeviceRunsIt() {
    // On Vulkan the test device's instance asked for 1.1 and lavapipe and
    // the H200 run subgroups (of 8 and 32): Auto picks the one-sweep
    // kernels. OpenGL has no subgroups here (qsb translates none): Auto
    // picks reduce-then-scan. (A Vulkan QRhi borrowed without its instance
    // also gets none; a second device on this QRhi would disturb its timer,
    // so that case is not run here.)
    const bool vulkan = m_device->backend() == render::Backend::Vulkan;
    QCOMPARE(m_device->subgroupLanes() > 0, vulkan);
    auto sort = render::GpuRadixSort::create(*m_device, 1000);
    QVERIFY_OK(sort);
    QCOMPARE((*sort)->algorithm(), vulkan ? render::SortAlgorithm::OneSweep : render::SortAlgorithm::ReduceThenScan);
  }

  void radixSortIsAStablePermutation_data() {
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("distinct");
    QTest::addColumn<int>("keyBits");
    QTest::addColumn<bool>("gpuCount");
    QTest::addColumn<render::SortAlgorithm>("algorithm");
    struct Case {
      const char* name;
      int count, distinct, keyBits;
      bool gpuCount;
    };
    const Case cases[] = {
        {"1000, not a multiple of a tile", 1000, 30, 32, false},
        {"70000 keys, many duplicates", 70000, 500, 32, false},
        {"300000 keys, 32-bit range", 300000, 0, 32, false},
        {"100000 16-bit keys, 2 passes", 100000, 65536, 16, false},
        {"50000 28-bit keys, 4 passes, count from the GPU", 50000, 1 << 28, 28, true},
        {"9000 20-bit keys, 3 passes: the odd pass count ends in B", 9000, 1 << 20, 20, false},
        {"4096 keys, one whole one-sweep tile, one digit", 4096, 1, 32, false},
        // From kOneSweepWideFrom (589,824) keys the one-sweep takes 8192-key tiles.
        {"540000 keys, 132 narrow tiles, the last one partial", 540000, 0, 32, false},
        {"600000 keys, wide one-sweep tiles, the last one partial", 600000, 0, 32, false},
        {"620000 keys, 1000 distinct, wide tiles, count from the GPU", 620000, 1000, 32, true},
    };
    for (auto algorithm : {render::SortAlgorithm::ReduceThenScan, render::SortAlgorithm::OneSweep})
      for (const Case& c : cases)
        QTest::addRow("%s, %s", render::sortAlgorithmName(algorithm), c.name)
            << c.count << c.distinct << c.keyBits << c.gpuCount << algorithm;
  }
  void radixSortIsAStablePermutation() {
    QFETCH(int, count);
    QFETCH(int, distinct);
    QFETCH(int, keyBits);
    QFETCH(bool, gpuCount);
    QFETCH(render::SortAlgorithm, algorithm);
    std::mt19937 rng{std::uint32_t(count)};
    std::vector<std::uint32_t> keys(static_cast<std::size_t>(count)), values(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
      keys[std::size_t(i)] = distinct > 0 ? rng() % std::uint32_t(distinct) : rng();
      values[std::size_t(i)] = std::uint32_t(i);
    }
    const render::GpuWork before = m_device->timer().work();
    auto sorted = render::radixSortOnGpu(*m_device, keys, values, std::uint32_t(keyBits), gpuCount, algorithm);
    const int lanes = m_device->subgroupLanes();
    if (algorithm == render::SortAlgorithm::OneSweep && lanes != 8 && lanes != 16 && lanes != 32) {
      // A device without the subgroups the one-sweep kernel is built for refuses it, and says so.
      QVERIFY(!sorted);
      QCOMPARE(sorted.error().code, core::ErrorCode::Unsupported);
      return;
    }
    QVERIFY_OK(sorted);
    // One frame, submitted once. Reduce-then-scan: three kernels (counts,
    // scan, scatter) per 8-bit digit of the keys' width; one-sweep: one
    // histogram of every digit, then one kernel per digit.
    const render::GpuWork work = m_device->timer().work() - before;
    const auto digits = std::uint64_t((keyBits + 7) / 8);
    QCOMPARE(work.submissions, std::uint64_t(1));
    QCOMPARE(work.dispatches, algorithm == render::SortAlgorithm::OneSweep ? 1 + digits : 3 * digits);
    QVERIFY2(isStableSortOf(keys, *sorted), "not the stable sort of the keys");
  }

  // One sort run again and again, a frame each, as a renderer runs it: each
  // run clears what the next counts into (the one-sweep histograms alternate),
  // so a run must not see the last one's counts, whatever its size (an empty
  // one between them too).
  void radixSortRunsAgainOnNewKeys_data() {
    QTest::addColumn<bool>("gpuCount");
    QTest::addColumn<render::SortAlgorithm>("algorithm");
    for (auto algorithm : {render::SortAlgorithm::ReduceThenScan, render::SortAlgorithm::OneSweep})
      for (bool gpuCount : {false, true})
        QTest::addRow("%s, count %s", render::sortAlgorithmName(algorithm), gpuCount ? "from the GPU" : "given")
            << gpuCount << algorithm;
  }
  void radixSortRunsAgainOnNewKeys() {
    QFETCH(bool, gpuCount);
    QFETCH(render::SortAlgorithm, algorithm);
    std::mt19937 rng{7};
    const auto keysOf = [&](std::size_t n, std::uint32_t distinct) {
      std::vector<std::uint32_t> keys(n);
      for (auto& k : keys) k = distinct > 0 ? rng() % distinct : rng();
      return keys;
    };
    // 600000 keys take the one-sweep's wide tiles, the sets around them the
    // narrow ones (the capacity decides when the count comes from the GPU).
    const std::vector<std::vector<std::uint32_t>> keySets{keysOf(70000, 500), keysOf(1000, 0),   keysOf(0, 0),
                                                          keysOf(300000, 0),  keysOf(600000, 0), keysOf(4096, 1),
                                                          keysOf(70000, 500), keysOf(600000, 7), keysOf(5, 3)};
    auto sorted = render::radixSortEachOnGpu(*m_device, keySets, 32, gpuCount, algorithm);
    const int lanes = m_device->subgroupLanes();
    if (algorithm == render::SortAlgorithm::OneSweep && lanes != 8 && lanes != 16 && lanes != 32) {
      QVERIFY(!sorted);  // refused, as radixSortIsAStablePermutation checks
      return;
    }
    QVERIFY_OK(sorted);
    QCOMPARE(sorted->size(), keySets.size());
    for (std::size_t s = 0; s < keySets.size(); ++s) {
      QVERIFY2(isStableSortOf(keySets[s], (*sorted)[s]), qPrintable(QString("key set %1").arg(s)));
    }
  }

  void gaussianSceneGolden_data() { rasterisers(); }
  void gaussianSceneGolden() {
    // The generated torus .ply through projection, sort and blending. Same
    // discipline as the voxel goldens: 8/255 per channel, 0.5% of pixels.
    QFETCH(render::SplatRaster, raster);
    const auto shared = torusCloud();
    QVERIFY(shared);
    auto canvas = render::OffscreenCanvas::create(*m_device, QSize(256, 256));
    QVERIFY(canvas);
    render::SplatRenderer renderer(*m_device);
    renderer.setRaster(raster);
    renderer.setCloud(shared);
    core::OrbitCamera camera;
    camera.frame(core::cloudBounds(*shared));
    camera.setAngles(20, 35);
    render::FrameState state;
    state.view = camera.view();
    state.projection = camera.projection(1.0f);
    auto image = (*canvas)->render(renderer, state);
    QVERIFY_OK(image);
    const QString problem = test::compareWithGolden(*image, "gaussians-torus", {});
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    // The hole in the middle shows the background; the ring does not.
    QCOMPARE(QColor(image->pixel(128, 128)).name(), QStringLiteral("#20262e"));
    // Re-sort only when needed: the same view reuses the order (same image);
    // a new view or markGaussiansChanged sorts again.
    QCOMPARE(renderer.sortedFrames(), std::size_t(1));
    auto again = (*canvas)->render(renderer, state);
    QCOMPARE(renderer.sortedFrames(), std::size_t(1));
    QCOMPARE(*again, *image);
    renderer.markGaussiansChanged();
    QVERIFY((*canvas)->render(renderer, state));
    QCOMPARE(renderer.sortedFrames(), std::size_t(2));
    camera.setAngles(40, 35);
    state.view = camera.view();
    QVERIFY((*canvas)->render(renderer, state));
    QCOMPARE(renderer.sortedFrames(), std::size_t(3));
  }

  void computeTilesForgetTheLastFramesTiles() {
    // The tile ranges are not cleared between frames: a tile some key reached
    // in the last frame and none in this one must draw nothing of the last
    // frame's. Close up, the torus covers the view; far off, a few middle
    // tiles. The far view after the close one must be the far view drawn by a
    // renderer that never drew another.
    auto torus = wideTorus(*m_device);
    QVERIFY(torus);
    const auto moved = splatRenderer(*m_device, render::SplatRaster::Compute, torus->cloud);
    const auto fresh = splatRenderer(*m_device, render::SplatRaster::Compute, torus->cloud);
    core::OrbitCamera camera = torus->camera;
    camera.dolly(0.35f);
    QVERIFY_OK(torus->canvas->render(*moved, render::cameraFrameState(camera, kWideAspect)));
    camera.dolly(12.0f);
    const render::FrameState far = render::cameraFrameState(camera, kWideAspect);
    auto after = torus->canvas->render(*moved, far);
    auto expected = torus->canvas->render(*fresh, far);
    QVERIFY_OK(after);
    QVERIFY_OK(expected);
    QCOMPARE(moved->rasterUsed(), render::SplatRaster::Compute);
    QCOMPARE(*after, *expected);
    // and far off, most of the view is the clear colour
    QCOMPARE(QColor(after->pixel(5, 5)).name(), QStringLiteral("#20262e"));
  }

  void computeTilesGrowTheirRoomAndMatchTheQuads() {
    // The torus's gaussians are large at 1280x720: each touches dozens of
    // tiles, far more keys than the room the tiles start with (4 per splat,
    // at least 256k). The first frame finds out, the renderer grows the room
    // and draws again, and the picture is the quads' within the golden
    // tolerance.
    auto torus = wideTorus(*m_device);
    QVERIFY(torus);
    const auto quads = splatRenderer(*m_device, render::SplatRaster::Quads, torus->cloud);
    const auto tiles = splatRenderer(*m_device, render::SplatRaster::Compute, torus->cloud);
    torus->camera.setAngles(20, 35);
    const render::FrameState state = render::cameraFrameState(torus->camera, kWideAspect);
    auto expected = torus->canvas->render(*quads, state);
    auto actual = torus->canvas->render(*tiles, state);
    QVERIFY_OK(expected);
    QVERIFY_OK(actual);
    QCOMPARE(tiles->rasterUsed(), render::SplatRaster::Compute);
    QVERIFY2(tiles->tileKeys() > (1u << 18), qPrintable(QString::number(tiles->tileKeys())));
    QVERIFY(!tiles->wantsAnotherFrame());
    const QString problem = test::compareImages(*actual, *expected, "torus-tiles-vs-quads", {});
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    // The frame's GPU passes, as the Frame panel lists them: each named once,
    // so the two sorts (draw order by depth, then the tile keys) read apart.
    const render::FrameTimes times = m_device->timer().latest();
    if (m_device->backend() != render::Backend::Vulkan) {  // no timestamps there, and the panel says why
      QVERIFY(!times.available && !times.why.empty());
      return;
    }
    QVERIFY2(times.available, times.why.c_str());
    QStringList names;
    for (const auto& pass : times.passes) names << QString::fromStdString(pass.pass);
    QCOMPARE(QSet<QString>(names.begin(), names.end()).size(), names.size());
    for (const char* pass : {"project", "depth sort", "tile keys", "tile sort", "raster", "draw"})
      QVERIFY2(names.contains(pass), qPrintable(names.join(", ")));
  }

  void cpuRasteriserMatchesTheComputeTiles() {
    // The CPU's rasteriser does the compute tiles' arithmetic (same
    // projection, same 16-bit depth order, same tiles, same per-pixel cut
    // and early termination): at 1280x720 the two images differ only by
    // float rounding (exp and log of the GPU's shader against the CPU's
    // libm): at most 2/255 on 0.1% of the pixels, tighter than the goldens'
    // 8/255 on 0.5%. Measured on lavapipe: 1/255 on 7 pixels of 800x600.
    auto torus = wideTorus(*m_device);
    QVERIFY(torus);
    const auto tilesRenderer = splatRenderer(*m_device, render::SplatRaster::Compute, torus->cloud);
    const auto cpuRenderer = splatRenderer(*m_device, render::SplatRaster::Cpu, torus->cloud);
    render::SplatRenderer &tiles = *tilesRenderer, &cpu = *cpuRenderer;
    // The third view pans the torus into the top left corner: the CPU route
    // uploads and draws only the rect its splats cover, whose rows count
    // from the top on Vulkan and from the bottom on OpenGL.
    for (float yaw : {20.0f, 110.0f, 200.0f}) {
      torus->camera.setAngles(yaw, 35);
      if (yaw > 180.0f) torus->camera.pan(-0.45f, -0.3f);
      const render::FrameState state = render::cameraFrameState(torus->camera, kWideAspect);
      auto expected = torus->canvas->render(tiles, state);
      if (tiles.wantsAnotherFrame()) expected = torus->canvas->render(tiles, state);  // the tiles grew their room
      auto actual = torus->canvas->render(cpu, state);
      QVERIFY_OK(expected);
      QVERIFY_OK(actual);
      QCOMPARE(tiles.rasterUsed(), render::SplatRaster::Compute);
      QCOMPARE(cpu.rasterUsed(), render::SplatRaster::Cpu);
      QVERIFY(!cpu.wantsAnotherFrame());  // final on its first frame: nothing to read back
      // The same (tile, splat) pairs: the same binning of the same projection.
      QVERIFY2(
          std::abs(double(cpu.tileKeys()) - double(tiles.tileKeys())) <= kTileKeysRelative * double(tiles.tileKeys()),
          qPrintable(QString("%1 vs %2 tile keys").arg(cpu.tileKeys()).arg(tiles.tileKeys())));
      const QString problem = test::compareImages(*actual, *expected, "torus-cpu-vs-tiles", kCpuAgainstTiles);
      QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
  }

  void computeTilesInPartsMatchTheCpu_data() {
    QTest::addColumn<int>("partKeys");
    QTest::addColumn<int>("groupsAtOnce");
    QTest::newRow("parts of 256 keys") << 256 << 0;
    QTest::newRow("parts of 512 keys") << 512 << 0;
    // Only the runs longer than the frame's keys over the workgroups are cut
    // (fewer tiles hold keys than that: the view asserts it).
    QTest::newRow("parts of 256 keys, the longest runs") << 256 << 1024;
  }

  void computeTilesInPartsMatchTheCpu() {
    // A tile's run of twice a part's keys or more is blended in parts by
    // workgroups of their own (splat_raster_parts.glsl), each from the
    // transmittance the parts before it left, then summed
    // (splat_raster_merge.comp). The picture must stay the CPU's, which
    // blends every run whole, within kCpuAgainstTiles, and the GPU's own
    // whole runs' within kPartsAgainstWhole.
    QFETCH(int, partKeys);
    QFETCH(int, groupsAtOnce);
    auto t = torusInParts(*m_device);
    QVERIFY(t);
    render::SplatRenderer &parts = *t->parts, &whole = *t->whole, &cpu = *t->cpu;
    parts.setTileParts({std::uint32_t(partKeys), std::uint32_t(groupsAtOnce)});
    for (float yaw : {20.0f, 110.0f}) {
      t->torus.camera.setAngles(yaw, 35);
      const render::FrameState state = render::cameraFrameState(t->torus.camera, kWideAspect);
      const auto actual = settledFrame(t->torus, parts, state);
      const auto wholeRuns = settledFrame(t->torus, whole, state);
      const auto expected = t->torus.canvas->render(cpu, state);
      QVERIFY_OK(actual);
      QVERIFY_OK(wholeRuns);
      QVERIFY_OK(expected);
      QCOMPARE(parts.rasterUsed(), render::SplatRaster::Compute);
      // A run of 2 parts' keys always holds a chunk at least half a part
      // from both its ends: the view has runs the GPU cut.
      const std::uint32_t share = groupsAtOnce > 0 ? cpu.tileKeys() / std::uint32_t(groupsAtOnce) : 0u;
      QVERIFY2(cpu.longestTileKeys() >= 2u * std::uint32_t(partKeys) && cpu.longestTileKeys() > share,
               qPrintable(QString("the longest run holds %1 keys").arg(cpu.longestTileKeys())));
      QVERIFY2(groupsAtOnce == 0 || cpu.tilesHoldingKeys() < std::uint32_t(groupsAtOnce),
               qPrintable(QString("%1 tiles hold keys").arg(cpu.tilesHoldingKeys())));
      QString problem = test::compareImages(*actual, *expected, "torus-parts-vs-cpu", kCpuAgainstTiles);
      QVERIFY2(problem.isEmpty(), qPrintable(problem));
      problem = test::compareImages(*actual, *wholeRuns, "torus-parts-vs-whole", kPartsAgainstWhole);
      QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
  }

  void computeTilesKeepRunsWholeWhereTheTilesFillTheGpu() {
    // Where as many tiles hold keys as the GPU runs workgroups at once, no
    // run is cut (splat_raster_parts.glsl). The GPU counts the tiles holding
    // keys as the CPU's binning does, and a frame with parts whose
    // workgroups the tiles fill is the whole runs' byte for byte.
    auto t = torusInParts(*m_device);
    QVERIFY(t);
    render::SplatRenderer &parts = *t->parts, &whole = *t->whole, &cpu = *t->cpu;
    for (float yaw : {20.0f, 110.0f}) {
      t->torus.camera.setAngles(yaw, 35);
      const render::FrameState state = render::cameraFrameState(t->torus.camera, kWideAspect);
      QVERIFY_OK(t->torus.canvas->render(cpu, state));
      const std::uint32_t held = cpu.tilesHoldingKeys();
      // Without the rule the view's longest runs would be cut.
      QVERIFY2(held > 0 && cpu.longestTileKeys() >= 2u * 256u && cpu.longestTileKeys() > cpu.tileKeys() / held,
               qPrintable(QString("%1 tiles hold keys, the longest %2").arg(held).arg(cpu.longestTileKeys())));
      const auto wholeRuns = settledFrame(t->torus, whole, state);
      QVERIFY_OK(wholeRuns);
      QCOMPARE(whole.tilesHoldingKeys(), held);
      parts.setTileParts({256, held});
      const auto filled = settledFrame(t->torus, parts, state);
      QVERIFY_OK(filled);
      QCOMPARE(parts.tilesHoldingKeys(), held);
      QCOMPARE(*filled, *wholeRuns);
    }
  }

  void splatsAloneAreWrittenWithoutAPass_data() {
    QTest::addColumn<render::SplatRaster>("raster");
    QTest::addColumn<int>("samples");
    for (int samples : {1, 4}) {
      QTest::addRow("compute tiles, %dx", samples) << render::SplatRaster::Compute << samples;
      QTest::addRow("cpu, %dx", samples) << render::SplatRaster::Cpu << samples;
    }
  }
  void splatsAloneAreWrittenWithoutAPass() {
    // A canvas frame of splats alone begins no render pass (the CPU's image:
    // none at 4x): compute writes the splat image over the background into
    // the target. It must be the
    // picture the pass leaves (the clear, the composite blended over it, the
    // resolve at 4x), here with the torus panned into the top left corner so
    // that rows counted the wrong way, or the CPU's rect misplaced, show on
    // either backend.
    QFETCH(render::SplatRaster, raster);
    QFETCH(int, samples);
    auto torus = wideTorus(*m_device);
    QVERIFY(torus);
    auto written = render::OffscreenCanvas::create(*m_device, kWide, samples);
    auto inPass = render::OffscreenCanvas::create(*m_device, kWide, samples);
    QVERIFY_OK(written);
    QVERIFY_OK(inPass);
    (*inPass)->setWritesWithoutPass(false);
    const auto renderer = splatRenderer(*m_device, raster, torus->cloud);
    torus->camera.setAngles(200, 35);
    torus->camera.pan(-0.45f, -0.3f);
    const render::FrameState state = render::cameraFrameState(torus->camera, kWideAspect);
    auto expected = (*inPass)->render(*renderer, state);
    if (renderer->wantsAnotherFrame()) expected = (*inPass)->render(*renderer, state);  // the tiles grew their room
    auto actual = (*written)->render(*renderer, state);
    QVERIFY_OK(expected);
    QVERIFY_OK(actual);
    QCOMPARE(renderer->rasterUsed(), raster);
    QVERIFY((*inPass)->lastFrameHadPass());
    // The CPU's image is written only over a multisampled pass (cheaper
    // there on the CPU devices it is drawn on; SplatRenderer::writesTarget).
    QCOMPARE((*written)->lastFrameHadPass(), raster == render::SplatRaster::Cpu && samples == 1);
    const QString problem = test::compareImages(*actual, *expected, "torus-written-vs-pass", kWrittenAgainstPass);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    // The torus sits top left (where most of its pixels are, not mirrored);
    // the bottom right corner is the background, opaque.
    const auto splatPixels = [&](int x0, int y0) {
      int count = 0;
      for (int y = y0; y < y0 + kWide.height() / 2; ++y)
        for (int x = x0; x < x0 + kWide.width() / 2; ++x) count += (actual->pixel(x, y) & 0xffffffu) != 0x20262eu;
      return count;
    };
    QVERIFY2(splatPixels(0, 0) > 4 * splatPixels(0, kWide.height() / 2), "the torus is not in the top half");
    QCOMPARE(QColor(actual->pixel(kWide.width() - 4, kWide.height() - 4)).name(), QStringLiteral("#20262e"));
    QCOMPARE(qAlpha(actual->pixel(kWide.width() - 4, kWide.height() - 4)), 255);
    // The quads blend in a pass: a canvas draws them in one.
    const auto quads = splatRenderer(*m_device, render::SplatRaster::Quads, torus->cloud);
    QVERIFY_OK((*written)->render(*quads, state));
    QVERIFY((*written)->lastFrameHadPass());
    // The same renderer writing into another canvas's texture (the first gone) writes there.
    written->reset();
    auto another = render::OffscreenCanvas::create(*m_device, kWide, samples);
    QVERIFY_OK(another);
    auto again = (*another)->render(*renderer, state);
    QVERIFY_OK(again);
    QCOMPARE(*again, *actual);
  }

  void aViewFromInsideASceneMatchesAcrossRasterisers() {
    // The scene-like cloud seen as a capture's cameras see it: from inside,
    // with gaussians beside and behind the camera, some just past its near
    // plane. Before the projection culled at the near plane and clamped its
    // Jacobian (as 3DGS does), such a gaussian stretched over the whole view
    // and the picture was one colour. Now the ground fills the bottom (its
    // base colour is green over blue) and the sky the top (blue over green),
    // and the compute tiles draw what the CPU's rasteriser draws.
    auto cloud = core::parseGaussianPly(
        core::encodeGaussianPly(samples::makeSceneLikeCloud(kInsideSceneGaussians), samples::kSceneLikeShDegree),
        "scene.ply");
    QVERIFY_OK(cloud);
    const auto shared = std::make_shared<const core::GaussianCloud>(std::move(cloud).value());
    auto canvas = render::OffscreenCanvas::create(*m_device, kWide);
    QVERIFY_OK(canvas);
    core::OrbitCamera camera;
    camera.frame(samples::sceneLikeCloudFocus(), kWideAspect);
    camera.setAngles(1, 5);  // nearly level: the view's top 10% is sky
    const render::FrameState state = render::cameraFrameState(camera, kWideAspect);
    const auto tiles = splatRenderer(*m_device, render::SplatRaster::Compute, shared);
    const auto cpu = splatRenderer(*m_device, render::SplatRaster::Cpu, shared);
    auto expected = (*canvas)->render(*tiles, state);
    if (tiles->wantsAnotherFrame()) expected = (*canvas)->render(*tiles, state);  // the tiles grew their room
    auto actual = (*canvas)->render(*cpu, state);
    QVERIFY_OK(expected);
    QVERIFY_OK(actual);
    const QString problem = test::compareImages(*actual, *expected, "inside-scene-cpu-vs-tiles", kCpuAgainstTiles);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const auto meanOfRows = [&](int from, int to) {
      double g = 0, b = 0;
      for (int y = from; y < to; ++y) {
        for (int x = 0; x < expected->width(); ++x) {
          g += qGreen(expected->pixel(x, y));
          b += qBlue(expected->pixel(x, y));
        }
      }
      return std::pair{g, b};
    };
    const int band = expected->height() / 10;
    const auto [topGreen, topBlue] = meanOfRows(0, band);
    const auto [bottomGreen, bottomBlue] = meanOfRows(expected->height() - band, expected->height());
    QVERIFY2(topBlue > topGreen, qPrintable(QString("top: green %1, blue %2").arg(topGreen).arg(topBlue)));
    QVERIFY2(bottomGreen > bottomBlue,
             qPrintable(QString("bottom: green %1, blue %2").arg(bottomGreen).arg(bottomBlue)));
  }

  void splatColoursAreDisplayValues() {
    // One opaque gaussian filling the view, written through the .ply decoder:
    // the 3DGS colour 0.5 + C0 * f_dc is a display value, blended as it is,
    // so the centre pixel is 0.99 (the alpha cap) of it over 0.01 of the
    // background — not its sRGB encoding (0.5 would show as 188, not 128).
    constexpr double kShC0 = 0.28209479177387814;
    core::RawGaussian g;  // at the origin, unit scale (log 0), opaque (sigmoid(12) = 0.99999)
    g.opacityLogit = 12.0f;
    const std::array<float, 3> want{0.5f, 0.25f, 0.75f};
    for (int k = 0; k < 3; ++k) g.dc[std::size_t(k)] = float((want[std::size_t(k)] - 0.5) / kShC0);
    auto cloud = core::parseGaussianPly(core::encodeGaussianPly(std::vector<core::RawGaussian>{g}), "one.ply");
    QVERIFY_OK(cloud);
    auto canvas = render::OffscreenCanvas::create(*m_device, QSize(32, 32));
    QVERIFY(canvas);
    render::SplatRenderer renderer(*m_device);
    renderer.setCloud(std::make_shared<const core::GaussianCloud>(std::move(cloud).value()));
    render::FrameState state;
    state.view = glm::lookAt(glm::vec3(0, 0, 4), glm::vec3(0), glm::vec3(0, 1, 0));
    state.projection = glm::perspective(glm::radians(40.0f), 1.0f, 0.1f, 100.0f);
    auto image = (*canvas)->render(renderer, state);
    QVERIFY(image);
    const QColor centre(image->pixel(16, 16));
    const glm::vec3 bg(state.background);
    const int got[3] = {centre.red(), centre.green(), centre.blue()};
    for (int k = 0; k < 3; ++k) {
      const double expected = 255.0 * (0.99 * double(want[std::size_t(k)]) + 0.01 * double(bg[k]));
      QVERIFY2(std::abs(got[k] - expected) <= kBlendSteps,
               qPrintable(QString("channel %1: %2, expected %3").arg(k).arg(got[k]).arg(expected)));
    }
  }

  void sphericalHarmonicsColourFollowsTheView() {
    // One opaque gaussian of SH degree 3 with coefficients in every band:
    // seen from four sides, the centre pixel is core::shColor for that view
    // direction (the CPU reference of splat_project.comp), blended 0.99 over
    // the background as above; the sides differ from each other.
    for (int degree : {1, 2, 3}) {
      core::RawGaussian g;
      g.opacityLogit = 12.0f;
      g.dc = {0.2f, -0.1f, 0.3f};
      const int K = (degree + 1) * (degree + 1) - 1;
      for (int i = 0; i < 3 * K; ++i) g.shRest.push_back(0.25f * float((i * 7) % 5 - 2));
      auto cloud = core::parseGaussianPly(core::encodeGaussianPly(std::vector<core::RawGaussian>{g}, degree), "sh.ply");
      QVERIFY_OK(cloud);
      QCOMPARE(cloud->shDegree, degree);
      auto canvas = render::OffscreenCanvas::create(*m_device, QSize(32, 32));
      QVERIFY(canvas);
      render::SplatRenderer renderer(*m_device);
      renderer.setCloud(std::make_shared<const core::GaussianCloud>(std::move(cloud).value()));
      std::vector<QColor> seen;
      for (const glm::vec3 eye :
           {glm::vec3(0, 0, 4), glm::vec3(4, 0, 0), glm::vec3(0, 0, -4), glm::vec3(0, 4, 0.01f)}) {
        render::FrameState state;
        state.view = glm::lookAt(eye, glm::vec3(0), glm::vec3(0, 1, 0));
        state.projection = glm::perspective(glm::radians(40.0f), 1.0f, 0.1f, 100.0f);
        auto image = (*canvas)->render(renderer, state);
        QVERIFY(image);
        const QColor centre(image->pixel(16, 16));
        seen.push_back(centre);
        const glm::vec3 want =
            glm::min(core::shColor(g.dc.data(), g.shRest.data(), degree, glm::normalize(-eye)), glm::vec3(1.0f));
        const glm::vec3 bg(state.background);
        const int got[3] = {centre.red(), centre.green(), centre.blue()};
        for (int k = 0; k < 3; ++k) {
          const double expected = 255.0 * (0.99 * double(want[k]) + 0.01 * double(bg[k]));
          QVERIFY2(std::abs(got[k] - expected) <= kBlendSteps,
                   qPrintable(
                       QString("degree %1, channel %2: %3, expected %4").arg(degree).arg(k).arg(got[k]).arg(expected)));
        }
      }
      QVERIFY(seen[0] != seen[1] || seen[1] != seen[2]);
    }
  }

  void boundingSphereCullsWholeFrames() {
    // The owner's sphere around the torus: a view that cannot see it skips
    // projection, sort and quads (background only); looking back draws it as
    // before from the order kept for that view.
    auto cloud = core::parseGaussianPly(core::encodeGaussianPly(samples::makeGaussianTorus(2000)), "torus.ply");
    QVERIFY(cloud);
    const core::Bounds bounds = core::cloudBounds(*cloud);
    auto canvas = render::OffscreenCanvas::create(*m_device, QSize(96, 96));
    QVERIFY(canvas);
    render::SplatRenderer renderer(*m_device);
    renderer.setCloud(std::make_shared<const core::GaussianCloud>(std::move(cloud).value()));
    renderer.setBoundingSphere(bounds.center(), bounds.radius());
    core::OrbitCamera camera;
    camera.frame(bounds);
    render::FrameState state;
    state.view = camera.view();
    state.projection = camera.projection(1.0f);
    auto seen = (*canvas)->render(renderer, state);
    QVERIFY(seen);
    QCOMPARE(renderer.culledFrames(), std::size_t(0));
    QCOMPARE(renderer.sortedFrames(), std::size_t(1));
    // Turn the camera around on the spot: the torus is behind it.
    render::FrameState away = state;
    away.view = glm::rotate(glm::mat4(1.0f), glm::pi<float>(), glm::vec3(0, 1, 0)) * state.view;
    auto empty = (*canvas)->render(renderer, away);
    QVERIFY(empty);
    QCOMPARE(renderer.culledFrames(), std::size_t(1));
    QCOMPARE(renderer.sortedFrames(), std::size_t(1));
    for (int y = 0; y < empty->height(); ++y)
      for (int x = 0; x < empty->width(); ++x) QCOMPARE(QColor(empty->pixel(x, y)).name(), QStringLiteral("#20262e"));
    auto again = (*canvas)->render(renderer, state);
    QVERIFY(again);
    QCOMPARE(renderer.sortedFrames(), std::size_t(1));  // the order for this view still holds
    QCOMPARE(*again, *seen);
    // A sphere that cannot contain anything is refused (culling off): the frame draws.
    renderer.setBoundingSphere(bounds.center(), -1.0f);
    QVERIFY((*canvas)->render(renderer, away));
    QCOMPARE(renderer.culledFrames(), std::size_t(1));
  }

  void sampleCharacterGoldens() {
    // The sample character in every tint, neutral and with an expression
    // (eyes, jaw, gaze), through GNM, the lift and the splat renderer, by both
    // routes: read back into a cloud (characterSplatsOnGpu) and chained on the
    // GPU in one frame (CharacterRenderer, the app's and the CLI's path) —
    // both must match the same golden. The camera is framed once on the
    // neutral face so the two expressions share a frame. Same discipline as
    // the other goldens: 8/255, 0.5% of pixels.
    auto bake = samples::makeSampleCharacter(RIGLENS_DATA_DIR "/ict-face");
    QVERIFY_OK(bake);
    const auto pack = std::make_shared<const core::AosRigPack>(parse(*samples::bakeAosRig(*bake)));
    std::vector<float> expression(57, 0.0f);
    expression[0] = 2.0f;    // left_eye_000
    expression[10] = 2.0f;   // right_eye_000
    expression[20] = 3.0f;   // lower_face_000: the jaw drops
    expression[21] = -2.0f;  // lower_face_001
    expression[54] = 0.3f;   // gaze yaw, left
    expression[56] = 0.3f;   // gaze yaw, right
    const QSize size(192, 192);
    auto canvas = render::OffscreenCanvas::create(*m_device, size);
    QVERIFY(canvas);
    std::optional<core::OrbitCamera> camera;
    render::CharacterRenderer chained(*m_device);     // one renderer across every frame, as the app keeps it
    chained.setRaster(render::SplatRaster::Compute);  // the read-back route below draws quads
    chained.setGnmRoute(render::GnmRoute::Gpu);       // GNM in the shader, whatever the device's default
    chained.setPack(pack);
    // The CPU devices' route: GNM posed on the CPU and uploaded, drawn as quads.
    render::CharacterRenderer cpuPosed(*m_device);
    cpuPosed.setRaster(render::SplatRaster::Quads);
    cpuPosed.setGnmRoute(render::GnmRoute::Cpu);
    cpuPosed.setPack(pack);
    // GNM, the lift and the splats all on the CPU: the image uploaded and composited.
    render::CharacterRenderer cpuDrawn(*m_device);
    cpuDrawn.setRaster(render::SplatRaster::Cpu);
    cpuDrawn.setGnmRoute(render::GnmRoute::Cpu);
    cpuDrawn.setPack(pack);
    std::size_t frames = 0;
    for (const render::CharacterTint tint : render::kAllCharacterTints) {
      QImage neutral;
      for (const auto& [name, controls] :
           {std::pair<const char*, std::vector<float>>{"neutral", {}}, {"expression", expression}}) {
        auto cloud = render::characterSplatsOnGpu(*m_device, *pack, controls, {tint, 0.002f});
        QVERIFY_OK(cloud);
        if (!camera) {
          // The CPU's rest bounds (what the viewer and the CLI frame) are the
          // neutral cloud's, within the GPU pose tolerance.
          const core::Bounds bounds = core::cloudBounds(*cloud);
          auto rest = core::characterRestBounds(*pack);
          QVERIFY(rest);
          // The pose tolerance carried through the fit's scale, with a factor 2 for float rounding
          // in the lift.
          const float allowed = 2 * float(kPoseToleranceMetres) *
                                core::fitVertsTransform({pack->neutral.data(), pack->vertexCount * 3}).scale;
          QVERIFY(glm::all(glm::lessThanEqual(glm::abs(rest->min - bounds.min), glm::vec3(allowed))));
          QVERIFY(glm::all(glm::lessThanEqual(glm::abs(rest->max - bounds.max), glm::vec3(allowed))));
          camera.emplace();
          camera->frame(bounds);
          camera->setAngles(20, 10);
        }
        const render::FrameState state = render::cameraFrameState(*camera, 1.0f);
        const QString golden = QString("character-%1-%2").arg(render::characterTintName(tint), name);

        // The read-back route draws quads, the chained route the compute
        // tiles: both must match the golden.
        render::SplatRenderer renderer(*m_device);
        renderer.setRaster(render::SplatRaster::Quads);
        renderer.setCloud(std::make_shared<const core::GaussianCloud>(std::move(cloud).value()));
        auto image = (*canvas)->render(renderer, state);
        QVERIFY_OK(image);
        const QString problem = test::compareWithGolden(*image, golden, {});
        QVERIFY2(problem.isEmpty(), qPrintable("read-back route (quads): " + problem));

        render::CharacterFrame frame;
        frame.controls = controls;
        frame.look = {tint, 0.002f};
        // Empty when the route draws the frame without an error and matches the golden.
        const auto routeProblem = [&](render::CharacterRenderer& route, const QString& what) -> QString {
          route.setFrame(frame);
          auto drawn = (*canvas)->render(route, state);
          if (!drawn) return what + ": " + QString::fromStdString(drawn.error().message);
          if (!route.error().empty()) return what + ": " + QString::fromStdString(route.error());
          const QString mismatch = test::compareWithGolden(*drawn, golden, {});
          return mismatch.isEmpty() ? mismatch : what + ": " + mismatch;
        };
        const QString chainedProblem = routeProblem(chained, "chained route (compute tiles)");
        QVERIFY2(chainedProblem.isEmpty(), qPrintable(chainedProblem));
        QCOMPARE(chained.posedFrames(), ++frames);  // every change re-ran GNM + lift once
        const QString cpuProblem = routeProblem(cpuPosed, "GNM on the CPU (quads)");
        QVERIFY2(cpuProblem.isEmpty(), qPrintable(cpuProblem));
        const QString cpuDrawnProblem = routeProblem(cpuDrawn, "all on the CPU");
        QVERIFY2(cpuDrawnProblem.isEmpty(), qPrintable(cpuDrawnProblem));
        QCOMPARE(cpuDrawn.splatRenderer()->rasterUsed(), render::SplatRaster::Cpu);

        if (neutral.isNull()) {
          neutral = *image;
        } else {
          // The expression is visible: over 1% of pixels change, twice what the golden tolerance
          // forgives.
          int changed = 0;
          for (int y = 0; y < size.height(); ++y)
            for (int x = 0; x < size.width(); ++x) {
              const QColor a(neutral.pixel(x, y)), b(image->pixel(x, y));
              changed += std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue()) >
                         kVisiblyDifferent;
            }
          QVERIFY2(changed > size.width() * size.height() / 100,
                   qPrintable(golden + QString(": only %1 pixels changed").arg(changed)));
        }
      }
    }
    // An unchanged frame re-runs nothing: neither the rig passes nor the sort.
    const std::size_t sorted = chained.sortedFrames();
    render::FrameState same;
    same.view = camera->view();
    same.projection = camera->projection(1.0f);
    QVERIFY((*canvas)->render(chained, same));
    QCOMPARE(chained.posedFrames(), frames);
    QCOMPARE(chained.sortedFrames(), sorted);
    // The memory report: every buffer of the three passes, the head branch's slots.
    const render::CharacterMemory memory = chained.memory();
    QCOMPARE(memory.packBytes, pack->bytes->size());
    QCOMPARE(memory.branches.size(), std::size_t(1));
    QCOMPARE(memory.branches[0].slotsUsed, std::uint32_t(pack->vertexCount));
    QCOMPARE(memory.branches[0].capacity, std::uint32_t(pack->vertexCount));
    const auto named = [&](const std::string& name) {
      for (const auto& b : memory.buffers)
        if (b.name == name) return b.bytes;
      return std::size_t(0);
    };
    QVERIFY(named("GNM basis (fp16)") >= pack->basisHalf.size() * 2);
    QCOMPARE(named("sink centres"), pack->vertexCount * 16);
    QVERIFY(named("sort keys A") >= pack->vertexCount * 4);
    QCOMPARE(named("lift positions"),
             std::size_t(0));  // the lift reads the GNM pass's buffer, none of its own
    // GNM on the CPU keeps only the posed vertices on the GPU.
    const render::CharacterMemory cpuMemory = cpuPosed.memory();
    QVERIFY(std::none_of(cpuMemory.buffers.begin(), cpuMemory.buffers.end(),
                         [](const auto& b) { return b.name.rfind("GNM", 0) == 0 && b.name != "GNM posed vertices"; }));
    QVERIFY(cpuMemory.gpuBytes() + pack->basisHalf.size() * 2 <= memory.gpuBytes());
  }

  void refusesWhatItCannotDraw() {
    // A pack whose basis is not fp16: the GPU pass refuses, the renderer says
    // why and draws nothing; a bad look (sigma) is refused at the frame.
    auto canvas = render::OffscreenCanvas::create(*m_device, QSize(32, 32));
    QVERIFY(canvas);
    auto bake = samples::makeSampleCharacter(RIGLENS_DATA_DIR "/ict-face");
    QVERIFY(bake);
    auto pack = std::make_shared<core::AosRigPack>(parse(*samples::bakeAosRig(*bake)));
    render::CharacterRenderer renderer(*m_device);
    renderer.setGnmRoute(render::GnmRoute::Gpu);
    renderer.setPack(pack);
    render::CharacterFrame frame;
    frame.look.sigma = -1.0f;
    renderer.setFrame(frame);
    auto image = (*canvas)->render(renderer, {});
    QVERIFY(!image);
    QVERIFY2(renderer.error().find("sigma") != std::string::npos, renderer.error().c_str());
    frame.look.sigma = 0.002f;
    renderer.setFrame(frame);
    QVERIFY((*canvas)->render(renderer, {}));
    QVERIFY(renderer.error().empty());
    pack->basisHalf = {};
    renderer.setPack(pack);
    QVERIFY(!(*canvas)->render(renderer, {}));
    QVERIFY2(renderer.error().find("fp16") != std::string::npos, renderer.error().c_str());
    // On the CPU route an i8 basis poses; no basis at all is refused, not read past.
    renderer.setGnmRoute(render::GnmRoute::Cpu);
    QVERIFY(!(*canvas)->render(renderer, {}));
    QVERIFY2(renderer.error().find("basis holds 0 values") != std::string::npos, renderer.error().c_str());
  }

  void splatPartsKeepTheWholeRunsDepth() {
    // A run cut into parts takes the depth the whole run would: its first
    // splat's, then the one that made the pixel half opaque (the last depth
    // a part set, splat_raster_merge.comp). At the centre pixel a faint splat
    // in front of the tank comes first, 600 faint specks elsewhere in the
    // same tile follow, and an opaque splat behind the tank makes the pixel
    // half opaque in the run's last part: the pixel's depth lies behind the
    // tank, which hides it, cut or whole. (A merge that kept the first
    // part's depth drew it over the tank.)
    auto scene = tankScene(*m_device);
    QVERIFY(scene);
    const QSize size = scene->size;
    const render::FrameState& state = scene->state;
    const glm::vec3 eye = scene->camera.eye(), towards = scene->towardsCentre();
    const float extent = glm::length(scene->bounds.max - scene->bounds.min);
    // Where QImage pixel (x + 0.5, y + 0.5) lies at the depth of `onAxis`:
    // (90, 58) is in the centre pixel's 16x16 tile whichever way the
    // backend's rows run, 10 pixels from it.
    const glm::mat4 viewProj = state.projection * state.view;
    const auto atPixel = [&](glm::vec2 pixel, glm::vec3 onAxis) {
      const glm::vec4 clip = viewProj * glm::vec4(onAxis, 1.0f);
      const glm::vec4 ndc(2.0f * (pixel.x + 0.5f) / float(size.width()) - 1.0f,
                          1.0f - 2.0f * (pixel.y + 0.5f) / float(size.height()), clip.z / clip.w, 1.0f);
      const glm::vec4 world = glm::inverse(viewProj) * ndc;
      return glm::vec3(world) / world.w;
    };
    core::GaussianCloud cloud;
    addRoundSplat(cloud, eye + 0.5f * towards, 0.03f * extent, core::packRgba(1.0f, 0.0f, 1.0f, 0.3f));
    constexpr int kSpecks = 600;  // past two parts of 256 keys
    for (int i = 0; i < kSpecks; ++i)
      addRoundSplat(cloud, atPixel({90.0f, 58.0f}, eye + (0.6f + 0.3f * float(i) / kSpecks) * towards), 0.001f * extent,
                    core::packRgba(0.0f, 1.0f, 0.0f, 0.02f));
    addRoundSplat(cloud, scene->bounds.center() + towards, 0.03f * extent, core::packRgba(1.0f, 0.0f, 1.0f, 1.0f));
    const auto shared = std::make_shared<const core::GaussianCloud>(std::move(cloud));
    render::OffscreenCanvas& canvas = *scene->drawn.canvas;
    auto tankOnly = canvas.render(*scene->drawn.renderer, state);
    QVERIFY(tankOnly);
    const QPoint pixel = scene->centrePixel();
    const auto cpu = splatRenderer(*m_device, render::SplatRaster::Cpu, shared);
    QVERIFY_OK(canvas.render(*cpu, state));
    QVERIFY2(cpu->longestTileKeys() >= 2 * 256, qPrintable(QString::number(cpu->longestTileKeys())));
    for (const std::uint32_t partKeys : {256u, 0u}) {
      const auto splats = splatRenderer(*m_device, render::SplatRaster::Compute, shared);
      splats->setTileParts({partKeys, 0});
      auto splatOnly = canvas.render(*splats, state);
      QVERIFY(splatOnly);
      const QColor alone(splatOnly->pixel(pixel));
      QVERIFY2(alone.red() > 200 && alone.green() < 80, qPrintable(alone.name()));  // magenta covers the pixel
      render::DrawableStack both{scene->drawn.renderer.get(), splats.get()};
      auto composite = canvas.render(both, state);
      QVERIFY(composite);
      QCOMPARE(QColor(composite->pixel(pixel)), QColor(tankOnly->pixel(pixel)));
    }
  }

  void splatsCompositeWithVoxelDepth_data() { rasterisers(); }
  void splatsCompositeWithVoxelDepth() {
    // One small bright cloud on the camera ray through the tank's centre:
    // behind the tank it must be hidden by the voxel depth, in front of it it
    // must show. The splat-only frame proves the cloud covers that pixel.
    QFETCH(render::SplatRaster, raster);
    auto scene = tankScene(*m_device);
    QVERIFY(scene);
    const render::FrameState& state = scene->state;
    const glm::vec3 centre = scene->bounds.center(), towards = scene->towardsCentre();
    const QPoint pixel = scene->centrePixel();
    render::OffscreenCanvas& canvas = *scene->drawn.canvas;
    render::RigRenderer& voxels = *scene->drawn.renderer;
    auto tankOnly = canvas.render(voxels, state);
    QVERIFY(tankOnly);
    QVERIFY(QColor(tankOnly->pixel(pixel)) != QColor::fromRgbF(state.background.r, state.background.g,
                                                               state.background.b));  // the tank is there
    const auto cloudAt = [&](glm::vec3 p) {
      core::GaussianCloud cloud;
      addRoundSplat(cloud, p, 0.03f * glm::length(scene->bounds.max - scene->bounds.min),
                    core::packRgba(1.0f, 0.0f, 1.0f, 1.0f));
      return std::make_shared<const core::GaussianCloud>(std::move(cloud));
    };
    for (const bool behind : {true, false}) {
      render::SplatRenderer splats(*m_device);
      splats.setRaster(raster);
      splats.setCloud(cloudAt(behind ? centre + towards : scene->camera.eye() + 0.5f * towards));
      auto splatOnly = canvas.render(splats, state);
      QVERIFY(splatOnly);
      const QColor alone(splatOnly->pixel(pixel));
      QVERIFY2(alone.red() > 200 && alone.green() < 80,
               qPrintable(alone.name()));  // magenta covers the pixel
      render::DrawableStack both{&voxels, &splats};
      auto composite = canvas.render(both, state);
      QVERIFY(composite);
      const QColor seen(composite->pixel(pixel)), tank(tankOnly->pixel(pixel));
      if (behind) {
        QCOMPARE(seen, tank);
      } else {
        QVERIFY2(seen.red() > 200 && seen.green() < 80, qPrintable(seen.name()));
      }
    }
  }
};

QTEST_MAIN(TestRenderCharacter)
#include "tst_render_character.moc"
