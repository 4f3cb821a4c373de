// The decoded lift on the GPU (shaders/decoded_lift_pass1/2.comp) against its
// CPU reference (core::liftPass1 / liftPass2), on the sample face decoded by
// the test decoders (python3-onnx at build time, OpenCV's DNN at run time):
// the analytic and the offset decoders, with world placement, the bounded
// scale map and the triangle bound switched on; vertices uploaded from the
// CPU and, as the viewer runs it, chained from the GNM pass's buffer in the
// same frame. Re-runs: an appearance-only decode runs pass 2 alone.
#include <QtTest/QTest>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "render_checks.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_file.h"
#include "riglens/core/character/gnm.h"
#include "riglens/core/decoded/decoded_character.h"
#include "riglens/core/decoded/decoded_lift_cpu.h"
#include "riglens/decode/opencv_decoder.h"
#include "riglens/render/character/character_renderer.h"
#include "riglens/render/character/gpu_character.h"
#include "riglens/render/character/gpu_decoded_lift.h"
#include "riglens/render/device/offscreen_canvas.h"
#include "riglens/render/rig/frame_builder.h"
#include "riglens/samples/character_sample.h"
#include "riglens/samples/orl_sample.h"
#include "test_checks.h"
#include "test_paths.h"

using namespace riglens;
namespace fs = std::filesystem;

namespace {

// GPU and CPU run the same float32 formulas; they differ by the order of
// operations and by the driver's exp/log/sqrt (lavapipe: LLVM's): positions
// to 1e-6 m (the face is 0.3 m across: a few ulps), covariances to 1e-4 of
// their largest element (the Jacobi round trip), colours to one 8-bit step.
constexpr double kPositionMetres = 1e-6;
constexpr double kCovarianceRelative = 1e-4;
// The CPU route's picture of a decoded face against the GPU route's: the
// poses differ by the GNM pass's tolerance, the lifts by float order, the
// rasterisers by exp's rounding (the CPU tiles against the compute tiles,
// tst_render_character: 2/255 on 0.1%); a splat's edge moving by a fraction
// of a pixel changes its pixels by a few steps, so the goldens' 8/255 on 0.5%.
const test::GoldenTolerance kCpuRouteAgainstGpuRoute{8, 0.005};

core::PluckerCamera camera() {
  core::PluckerCamera c;
  c.position = {0.1f, 0.05f, 0.6f};
  c.forward = glm::normalize(glm::vec3(-0.1f, -0.05f, -0.6f));
  c.right = glm::normalize(glm::cross(c.forward, glm::vec3(0, 1, 0)));
  c.up = glm::cross(c.right, c.forward);
  c.aspect = 1.5f;
  return c;
}

struct Compared {
  double position = 0, covariance = 0;
  int colour = 0;
  std::size_t occupied = 0, mismatched = 0;
};

Compared compare(const core::SplatSink& a, const core::SplatSink& b) {
  Compared c;
  for (std::size_t s = 0; s < a.capacity(); ++s) {
    if ((a.color[s] == 0u) != (b.color[s] == 0u)) {
      ++c.mismatched;
      continue;
    }
    if (a.color[s] == 0u) continue;
    ++c.occupied;
    for (int k = 0; k < 3; ++k)
      c.position = std::max(c.position, double(std::fabs(a.center[s * 4 + k] - b.center[s * 4 + k])));
    const float ca[6] = {a.covarianceA[s * 4],     a.covarianceA[s * 4 + 1], a.covarianceA[s * 4 + 2],
                         a.covarianceA[s * 4 + 3], a.covarianceB[s * 4],     a.covarianceB[s * 4 + 1]};
    const float cb[6] = {b.covarianceA[s * 4],     b.covarianceA[s * 4 + 1], b.covarianceA[s * 4 + 2],
                         b.covarianceA[s * 4 + 3], b.covarianceB[s * 4],     b.covarianceB[s * 4 + 1]};
    float scale = 0;
    for (float x : ca) scale = std::max(scale, std::fabs(x));
    for (int k = 0; k < 6; ++k) c.covariance = std::max(c.covariance, double(std::fabs(ca[k] - cb[k]) / scale));
    for (int k = 0; k < 4; ++k)
      c.colour =
          std::max(c.colour, std::abs(int((a.color[s] >> (8 * k)) & 0xff) - int((b.color[s] >> (8 * k)) & 0xff)));
  }
  return c;
}

}  // namespace

class TestRenderDecoded : public test::RenderTestCase {
  Q_OBJECT
  QTemporaryDir m_dir;

 public:
  TestRenderDecoded() : RenderTestCase(render::Backend::Vulkan) {}

 private:
  // The sample bundle with `variant`'s decoders; `placed` adds a world
  // placement, the bounded scale map and the triangle bound to scene.json.
  fs::path bundle(const std::string& variant, bool placed) {
    const fs::path out = fs::path(m_dir.path().toStdString()) / (variant + (placed ? "-placed" : ""));
    samples::SampleBundleOptions options;
    options.uvRes = 32;
    options.decoders = fs::path(RIGLENS_TEST_DECODERS_DIR) / variant;
    if (auto ok = samples::writeSampleCharacter(RIGLENS_DATA_DIR "/ict-face", out, options); !ok)
      qFatal("%s", ok.error().message.c_str());
    const fs::path folder = out / "sample-bundle";
    if (placed) {
      auto scene = core::readJsonFile(folder / "scene.json");
      if (!scene) qFatal("%s", scene.error().message.c_str());
      (*scene)["world_scale"] = 1.7;
      (*scene)["world_offset"] = {0.2, -0.1, 0.3};
      (*scene)["world_rotation"] = {10, 35, -5};
      auto& head = (*scene)["branches"]["head"];
      head["sigma_max"] = 0.02;
      head["sigma_offset"] = 0.5;
      head["tri_size_cap"] = 1.5;
      head["sliver_min_quality"] = 0.3;
      const std::string text = scene->dump();
      (void)core::writeFileAtomically(folder / "scene.json",
                                      {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
    }
    return folder;
  }

  // A bundle folder loaded and its decoders opened (shared: the GPU lift keeps the bundle).
  struct Opened {
    std::shared_ptr<const core::Bundle> bundle;
    core::Expected<std::unique_ptr<core::DecodedCharacter>> character = core::makeError(core::ErrorCode::Io, "");
  };
  Opened open(const fs::path& folder) {
    Opened o;
    auto loaded = core::loadBundle(folder);
    if (!loaded) {
      o.character = loaded.error();
      return o;
    }
    o.bundle = std::make_shared<const core::Bundle>(std::move(loaded).value());
    core::Diagnostics notes;
    o.character = core::DecodedCharacter::open(o.bundle, decode::openCvOpener(), {}, notes);
    return o;
  }

  // The decoded layout the viewer hands the renderer for an opened character.
  static std::shared_ptr<render::DecodedLayout> layoutOf(const Opened& opened) {
    auto layout = std::make_shared<render::DecodedLayout>();
    layout->bundle = opened.bundle;
    layout->branches = (*opened.character)->liftSpecs();
    layout->capacity = (*opened.character)->capacity();
    return layout;
  }
  // A square canvas of `side` and the orbit framing the character on it.
  struct Framed {
    std::unique_ptr<render::OffscreenCanvas> canvas;
    core::OrbitCamera orbit;
    render::FrameState state;
  };
  std::optional<Framed> framed(const core::DecodedCharacter& c, int side) {
    auto canvas = render::OffscreenCanvas::create(*m_device, QSize(side, side), 1);
    if (!canvas) return std::nullopt;
    Framed f{std::move(canvas).value(), {}, {}};
    f.orbit.frame(c.bounds(), 1.0f);
    f.state = render::cameraFrameState(f.orbit, 1.0f);
    return f;
  }

  void checkParity(const std::string& variant, bool placed) {
    Opened opened = open(bundle(variant, placed));
    QVERIFY_OK(opened.character);
    const auto& shared = opened.bundle;
    core::DecodedCharacter& c = **opened.character;
    std::vector<float> rig = c.referenceRig();
    rig[26] = 0.8f;  // a jaw coefficient
    rig[54] = 0.2f;  // gaze
    auto pass = c.decode(rig, camera());
    QVERIFY_OK(pass);
    auto posed = core::gnmPose(*shared->gnmPack, rig);
    QVERIFY_OK(posed);
    core::SplatSink cpu(c.capacity());
    c.liftCpu(*posed, cpu);

    auto lift =
        render::GpuDecodedLift::create(*m_device, shared, c.liftSpecs(), c.capacity(), shared->gnmPack->vertexCount);
    QVERIFY_OK(lift);
    QVERIFY_OK((*lift)->setVertices(*posed));
    QVERIFY_OK((*lift)->setOutputs(c.outputs(*pass), true));
    QVERIFY_OK((*lift)->runOffscreenFrame());
    // Pass 1 on its own, texel by texel.
    auto texels = (*lift)->readTexels(0);
    QVERIFY_OK(texels);
    const auto& b = c.branches()[0];
    const auto cpuTexels =
        core::liftPass1(b.decoders.geomUv(), c.liftVertices(0, *posed), *b.mesh, b.decoders.spec().scale);
    double texelError = 0;
    for (std::size_t p = 0; p < cpuTexels.size() / core::kLiftTexelFloats; ++p) {
      const float* g = texels->data() + p * core::kLiftTexelFloats;
      const float* r = cpuTexels.data() + p * core::kLiftTexelFloats;
      QCOMPARE(g[10], r[10]);  // validity
      for (int k = 0; k < 3; ++k) texelError = std::max(texelError, double(std::fabs(g[k] - r[k])));
    }
    QVERIFY2(texelError <= kPositionMetres, qPrintable(QString::number(texelError)));

    auto gpu = (*lift)->readBack();
    QVERIFY_OK(gpu);
    const Compared d = compare(cpu, *gpu);
    QVERIFY2(d.occupied > 300, qPrintable(QString::number(d.occupied)));
    QCOMPARE(d.mismatched, std::size_t(0));
    QVERIFY2(d.position <= kPositionMetres * (placed ? 2 : 1), qPrintable(QString::number(d.position)));
    QVERIFY2(d.covariance <= kCovarianceRelative, qPrintable(QString::number(d.covariance)));
    QVERIFY2(d.colour <= 1, qPrintable(QString::number(d.colour)));
  }

 private slots:
  void analyticDecoderMatchesTheCpu() { checkParity("analytic", false); }
  void offsetDecoderWithPlacementAndBoundsMatchesTheCpu() { checkParity("offset", true); }

  // An ORL bundle (the sample's head and eyes): the head's vertices from the
  // ORL deform, the eyes' from their shell uploaded per branch; both lifts
  // agree with the CPU's, slot by slot.
  void orlBundleWithAShellBranchMatchesTheCpu() {
    const fs::path out = fs::path(m_dir.path().toStdString()) / "orl";
    samples::SampleBundleOptions options{32, fs::path(RIGLENS_TEST_DECODERS_DIR) / "orl", false};
    QVERIFY_OK(samples::writeSampleOrlBundle(RIGLENS_DATA_DIR "/ict-face", out, options));
    Opened opened = open(out / "sample-orl-bundle");
    QVERIFY_OK(opened.character);
    const auto& shared = opened.bundle;
    core::DecodedCharacter& c = **opened.character;
    QCOMPARE(c.branches().size(), std::size_t(2));
    QVERIFY(c.branches()[1].shell != nullptr);
    const auto names = shared->rig["control_names"].get<std::vector<std::string>>();
    std::vector<float> rig(names.size(), 0.0f);
    for (const auto& [name, value] : {std::pair{"CTRL_C_jaw.translateY", 0.8f}, {"CTRL_L_eye.translateX", 0.7f}})
      rig[std::size_t(std::find(names.begin(), names.end(), name) - names.begin())] = value;
    auto pass = c.decode(rig, camera());
    QVERIFY_OK(pass);
    auto pose = core::poseRigCpu(*shared, rig);
    QVERIFY_OK(pose);
    core::SplatSink cpu(c.capacity());
    c.liftCpu(pose->vertices, cpu, pose->jointOutputs);

    const auto specs = c.liftSpecs();
    auto lift = render::GpuDecodedLift::create(*m_device, shared, specs, c.capacity(), shared->orl->pack->vertexCount);
    QVERIFY_OK(lift);
    QVERIFY_OK((*lift)->setVertices(pose->vertices));
    QVERIFY_OK(
        (*lift)->setBranchVertices(1, core::poseOrlShell(*shared->orl->pack, *specs[1].shell, pose->jointOutputs)));
    QVERIFY(!(*lift)->setBranchVertices(0, pose->vertices));  // the head reads the rig's buffer
    QVERIFY_OK((*lift)->setOutputs(c.outputs(*pass), true));
    QVERIFY_OK((*lift)->runOffscreenFrame());
    auto gpu = (*lift)->readBack();
    QVERIFY_OK(gpu);
    const Compared d = compare(cpu, *gpu);
    QVERIFY2(d.occupied > 300, qPrintable(QString::number(d.occupied)));
    QCOMPARE(d.mismatched, std::size_t(0));
    QVERIFY2(d.position <= kPositionMetres, qPrintable(QString::number(d.position)));
    QVERIFY2(d.covariance <= kCovarianceRelative, qPrintable(QString::number(d.covariance)));
    QVERIFY2(d.colour <= 1, qPrintable(QString::number(d.colour)));
    // The eyes' slots hold gaussians (the shell lifted), and they differ from the unturned eyes'.
    core::SplatSink still(c.capacity());
    c.liftCpu(pose->vertices, still, std::vector<float>(pose->jointOutputs.size(), 0.0f));
    const auto& eyes = specs[1].placement;
    std::size_t eyeSlots = 0, eyeMoved = 0;
    for (std::uint32_t sl = eyes.slotOffset; sl < eyes.slotOffset + eyes.slotCount; ++sl) {
      if (gpu->color[sl] == 0u) continue;
      ++eyeSlots;
      eyeMoved += std::fabs(gpu->center[sl * 4] - still.center[sl * 4]) > kPositionMetres;
    }
    QVERIFY2(eyeSlots > 50 && eyeMoved > 10, qPrintable(QString("%1 %2").arg(eyeSlots).arg(eyeMoved)));
  }

  // An opacity mask (none by default): the GPU pass 2 empties the slots the
  // CPU reference empties, and keeps the rest as before.
  void opacityMaskMatchesTheCpu() {
    Opened opened = open(bundle("offset", false));
    QVERIFY_OK(opened.character);
    core::DecodedCharacter& c = **opened.character;
    QVERIFY_OK(c.decode(c.referenceRig(), camera()));
    auto posed = core::gnmPose(*opened.bundle->gnmPack, c.referenceRig());
    core::OpacityMask mask;
    mask.width = 7;
    mask.height = 5;
    for (int y = 0; y < mask.height; ++y)
      for (int x = 0; x < mask.width; ++x) mask.values.push_back(float((x * 3 + y * 5) % 11) / 10.0f);
    mask.threshold = 0.45f;
    const auto& b = c.branches()[0];
    const auto texels =
        core::liftPass1(b.decoders.geomUv(), c.liftVertices(0, *posed), *b.mesh, b.decoders.spec().scale);
    core::SplatSink unmasked(c.capacity()), cpu(c.capacity());
    core::liftPass2(texels, b.decoders.colorUv(), b.decoders.spec().uvRes, b.placement, nullptr, unmasked);
    core::liftPass2(texels, b.decoders.colorUv(), b.decoders.spec().uvRes, b.placement, &mask, cpu);
    auto lift = render::GpuDecodedLift::create(*m_device, opened.bundle, c.liftSpecs(), c.capacity(),
                                               opened.bundle->gnmPack->vertexCount);
    QVERIFY_OK(lift);
    QVERIFY_OK((*lift)->setVertices(*posed));
    QVERIFY_OK((*lift)->setOutputs(c.outputs(core::DecodePass::Full), true));
    QVERIFY_OK((*lift)->setOpacityMask(0, &mask));
    QVERIFY_OK((*lift)->runOffscreenFrame());
    auto gpu = (*lift)->readBack();
    QVERIFY_OK(gpu);
    const Compared d = compare(cpu, *gpu);
    QCOMPARE(d.mismatched, std::size_t(0));
    QVERIFY(d.occupied > 100);
    QVERIFY(compare(unmasked, cpu).mismatched > 100);  // the mask removed slots
    core::OpacityMask broken = mask;
    broken.values.pop_back();
    QVERIFY(!(*lift)->setOpacityMask(0, &broken));
    core::OpacityMask huge{2048, 2048, std::vector<float>(2048 * 2048, 1.0f), 0.5f};
    QVERIFY(!(*lift)->setOpacityMask(0, &huge));
  }

  // The viewer's renderer: a character shown as the preview, then its
  // decoded layout and a decode arrive; frames draw the decoded gaussians,
  // and the preview again when asked.
  void characterRendererSwitchesToTheDecodedSink() {
    Opened opened = open(bundle("visible", false));
    QVERIFY_OK(opened.character);
    const auto& shared = opened.bundle;
    core::DecodedCharacter& c = **opened.character;
    auto view = framed(c, 160);
    QVERIFY(view);
    auto& canvas = view->canvas;
    const core::OrbitCamera& orbit = view->orbit;
    const render::FrameState& state = view->state;
    const auto covered = [&](const QImage& image) {
      int n = 0;
      for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) n += image.pixel(x, y) != image.pixel(0, 0);
      return n;
    };
    render::CharacterRenderer renderer(*m_device);
    // Another character first (the viewer keeps one renderer across documents).
    auto other = core::loadBundle(bundle("analytic", false));
    QVERIFY_OK(other);
    auto otherShared = std::make_shared<const core::Bundle>(std::move(other).value());
    renderer.setPack(std::shared_ptr<const core::AosRigPack>(otherShared, &*otherShared->gnmPack));
    render::CharacterFrame frame;
    renderer.setFrame(frame);
    QVERIFY_OK(canvas->render(renderer, state));
    renderer.setPack(std::shared_ptr<const core::AosRigPack>(shared, &*shared->gnmPack));
    auto preview = canvas->render(renderer, state);
    QVERIFY_OK(preview);
    QVERIFY(covered(*preview) > 500);
    const auto layout = layoutOf(opened);
    renderer.setPack(nullptr);  // the viewer closes the last document first
    QVERIFY_OK(canvas->render(renderer, state));
    renderer.setPack(std::shared_ptr<const core::AosRigPack>(shared, &*shared->gnmPack));
    renderer.setDecodedLayout(layout);
    frame.awaitDecode = true;
    renderer.setFrame(frame);
    auto waiting = canvas->render(renderer, state);
    QVERIFY_OK(waiting);
    QCOMPARE(covered(*waiting), 0);  // a decoded character is coming: nothing yet
    auto pass = c.decode(c.referenceRig(), core::pluckerCamera(orbit, 1.0f));
    QVERIFY_OK(pass);
    renderer.setDecodedOutputs(std::make_shared<const core::DecodedOutputs>(c.outputs(*pass)));
    auto decoded = canvas->render(renderer, state);
    QVERIFY_OK(decoded);
    decoded->save(test::outputPath("decoded_renderer.png"));
    QVERIFY(renderer.showingDecoded());
    QCOMPARE(renderer.liftedDecodes(), std::size_t(1));
    QVERIFY2(covered(*decoded) > 500, qPrintable(QString::number(covered(*decoded))));
    QVERIFY(*decoded != *preview);
    frame.preview = true;
    renderer.setFrame(frame);
    auto back = canvas->render(renderer, state);
    QVERIFY_OK(back);
    QVERIFY(!renderer.showingDecoded());
    QCOMPARE(*back, *preview);
  }

  void cpuRouteLiftFollowsTheGpuLiftsPolicy() {
    // core::DecodedLiftCpu (the CPU route's lift) runs the CPU passes under
    // GpuDecodedLift's policy: the first decode lifts exactly what
    // DecodedCharacter::liftCpu lifts; an appearance-only decode re-runs
    // pass 2 alone; the body's root moves every centre by itself; a hidden
    // branch empties its slots.
    Opened opened = open(bundle("offset", true));
    QVERIFY_OK(opened.character);
    core::DecodedCharacter& c = **opened.character;
    std::vector<float> rig = c.referenceRig();
    rig[26] = 0.8f;
    QVERIFY_OK(c.decode(rig, camera()));
    auto posed = core::gnmPose(*opened.bundle->gnmPack, rig);
    QVERIFY_OK(posed);
    core::DecodedLiftCpu lift(c.liftSpecs(), std::uint32_t(c.capacity()));
    QVERIFY_OK(lift.setOutputs(c.outputs(core::DecodePass::Full), true));
    lift.run(*posed);
    core::SplatSink reference(c.capacity());
    c.liftCpu(*posed, reference);
    const Compared same = compare(reference, *lift.sink());
    QCOMPARE(same.mismatched, std::size_t(0));
    QVERIFY(same.occupied > 500);
    QCOMPARE(same.position, 0.0);
    QCOMPARE(same.colour, 0);
    QCOMPARE(lift.pass1Runs(), std::size_t(1));
    QCOMPARE(lift.pass2Runs(), std::size_t(1));
    const core::SplatSink first = *lift.sink();

    core::PluckerCamera moved = camera();
    moved.position = {-0.3f, 0.05f, 0.5f};
    moved.forward = glm::normalize(-moved.position);
    moved.right = glm::normalize(glm::cross(moved.forward, glm::vec3(0, 1, 0)));
    moved.up = glm::cross(moved.right, moved.forward);
    auto pass = c.decode(rig, moved);
    QVERIFY_OK(pass);
    QCOMPARE(*pass, core::DecodePass::Appearance);
    QVERIFY_OK(lift.setOutputs(c.outputs(*pass), false));
    lift.run(*posed);
    QCOMPARE(lift.pass1Runs(), std::size_t(1));  // geometry cached
    QCOMPARE(lift.pass2Runs(), std::size_t(2));
    QVERIFY(lift.sink()->color != first.color);
    QVERIFY(lift.sink()->center == first.center);

    const glm::vec3 root(0.25f, -0.5f, 0.125f);
    lift.setRootOffset(root);
    lift.run(*posed);
    QCOMPARE(lift.pass2Runs(), std::size_t(3));
    for (std::size_t s = 0; s < first.capacity(); ++s) {
      if (first.color[s] == 0u) continue;
      for (int k = 0; k < 3; ++k)
        QVERIFY(std::fabs(lift.sink()->center[s * 4 + std::size_t(k)] -
                          (first.center[s * 4 + std::size_t(k)] + root[k])) <= kPositionMetres);
    }
    lift.setHiddenBranches({"head"});
    lift.run(*posed);
    for (std::uint32_t colour : lift.sink()->color) QCOMPARE(colour, 0u);
  }

  void cpuRouteDrawsTheDecodedCharacter() {
    // A decoded face in the viewer's renderer on the CPU route (GNM, the
    // lift and the splats on the CPU, as on a device without a GPU) asks
    // the GPU for no compute at all, and draws what the GPU route draws.
    Opened opened = open(bundle("visible", false));
    QVERIFY_OK(opened.character);
    const auto& shared = opened.bundle;
    core::DecodedCharacter& c = **opened.character;
    auto view = framed(c, 240);
    QVERIFY(view);
    auto& canvas = view->canvas;
    const render::FrameState& state = view->state;
    auto pass = c.decode(c.referenceRig(), core::pluckerCamera(view->orbit, 1.0f));
    QVERIFY_OK(pass);
    const auto outputs = std::make_shared<const core::DecodedOutputs>(c.outputs(*pass));
    const auto layout = layoutOf(opened);
    const auto draw = [&](render::GnmRoute route, render::SplatRaster raster, render::GpuWork* work) {
      render::CharacterRenderer renderer(*m_device);
      renderer.setGnmRoute(route);
      renderer.setRaster(raster);
      renderer.setPack(std::shared_ptr<const core::AosRigPack>(shared, &*shared->gnmPack));
      renderer.setDecodedLayout(layout);
      render::CharacterFrame frame;
      frame.awaitDecode = true;
      renderer.setFrame(frame);
      renderer.setDecodedOutputs(outputs);
      const render::GpuWork before = m_device->timer().work();
      auto image = canvas->render(renderer, state);
      if (work) *work = m_device->timer().work() - before;
      if (image && renderer.wantsAnotherFrame()) image = canvas->render(renderer, state);  // the tiles grew
      if (!renderer.showingDecoded()) return core::Expected<QImage>(core::makeError(core::ErrorCode::Gpu, "preview"));
      return image;
    };
    render::GpuWork cpuWork;
    auto cpu = draw(render::GnmRoute::Cpu, render::SplatRaster::Cpu, &cpuWork);
    auto gpu = draw(render::GnmRoute::Gpu, render::SplatRaster::Compute, nullptr);
    QVERIFY_OK(cpu);
    QVERIFY_OK(gpu);
    cpu->save(test::outputPath("decoded_cpu_route.png"));
    QCOMPARE(cpuWork.dispatches, std::uint64_t(0));
    QCOMPARE(cpuWork.submissions, std::uint64_t(1));
    const QString problem = test::compareImages(*cpu, *gpu, "decoded-cpu-vs-gpu-route", kCpuRouteAgainstGpuRoute);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
  }

  // The viewer's chain: GNM posed on the GPU, the lift reading its buffer in
  // the same frame; then an appearance-only decode runs pass 2 alone.
  void chainedFromGnmAndReRunsOnlyPass2() {
    Opened opened = open(bundle("offset", false));
    QVERIFY_OK(opened.character);
    const auto& shared = opened.bundle;
    core::DecodedCharacter& c = **opened.character;
    std::vector<float> rig = c.referenceRig();
    rig[30] = -0.6f;
    QVERIFY_OK(c.decode(rig, camera()));
    auto gnm = render::GpuGnm::create(*m_device, *shared->gnmPack);
    QVERIFY_OK(gnm);
    core::GnmJointState joints(*shared->gnmPack);
    QVERIFY_OK((*gnm)->setControls(rig, joints));
    auto lift = render::GpuDecodedLift::create(*m_device, shared, c.liftSpecs(), c.capacity(),
                                               shared->gnmPack->vertexCount, (*gnm)->posedBuffer());
    QVERIFY_OK(lift);
    QVERIFY(!(*lift)->setVertices(std::vector<float>(shared->gnmPack->vertexCount * 3)));  // it has a source
    QVERIFY_OK((*lift)->setOutputs(c.outputs(core::DecodePass::Full), true));
    QVERIFY_OK(m_device->runOffscreen([&](QRhiCommandBuffer* cb) {
      (*gnm)->encode(cb);
      (*lift)->encode(cb);
    }));
    QCOMPARE((*lift)->pass1Runs(), std::size_t(1));
    QCOMPARE((*lift)->pass2Runs(), std::size_t(1));
    auto posed = core::gnmPose(*shared->gnmPack, rig);
    core::SplatSink cpu(c.capacity());
    c.liftCpu(*posed, cpu);
    auto gpu = (*lift)->readBack();
    QVERIFY_OK(gpu);
    Compared d = compare(cpu, *gpu);
    QCOMPARE(d.mismatched, std::size_t(0));
    // The GNM pass itself differs from the CPU pose by its own tolerance.
    QVERIFY2(d.position <= core::tolerance::kGnmGpuMetres * 4, qPrintable(QString::number(d.position)));

    core::PluckerCamera moved = camera();  // orbit: the rays turn (moment_scale is 0: position alone changes nothing)
    moved.position = {-0.3f, 0.05f, 0.5f};
    moved.forward = glm::normalize(-moved.position);
    moved.right = glm::normalize(glm::cross(moved.forward, glm::vec3(0, 1, 0)));
    moved.up = glm::cross(moved.right, moved.forward);
    auto pass = c.decode(rig, moved);
    QVERIFY_OK(pass);
    QCOMPARE(*pass, core::DecodePass::Appearance);
    QVERIFY_OK((*lift)->setOutputs(c.outputs(*pass), false));
    QVERIFY_OK((*lift)->runOffscreenFrame());
    QCOMPARE((*lift)->pass1Runs(), std::size_t(1));  // geometry cached
    QCOMPARE((*lift)->pass2Runs(), std::size_t(2));
    auto after = (*lift)->readBack();
    QVERIFY_OK(after);
    std::size_t recoloured = 0;
    for (std::size_t s = 0; s < after->capacity(); ++s) recoloured += after->color[s] != gpu->color[s];
    QVERIFY(recoloured > 100);
    for (std::size_t s = 0; s < after->capacity() * 4; ++s) QCOMPARE(after->center[s], gpu->center[s]);
  }
};

QTEST_MAIN(TestRenderDecoded)
#include "tst_render_decoded.moc"
