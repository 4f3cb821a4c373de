// Renderer benchmarks on the device QRhi picks (lavapipe on machines without
// a GPU), windowless (QT_QPA_PLATFORM=vkkhrdisplay).
//
//   BM_RenderFrame/large        one 1280x720 frame of the large run (64 parts,
//                               2.72M triangles), 4x MSAA, no readback
//   BM_RenderFrame/tank         the same for the tank sample: the baseline the
//                               large frame is compared with (cost per triangle)
//   BM_RenderFrame/large_pbr, /tank_pbr   the same frames in the PBR look
//                               (core::Look::Pbr: Appendix B, two studio lights,
//                               the environment, the neutral tone map)
//   BM_EnvironmentLight/width   the PBR look's image-based light made from a
//                               studio map that wide (GPU passes, read back)
//   BM_RenderFrameReadback      the large frame read back into a QImage, as
//                               `riglens-cli render` does before writing the PNG
//   BM_GnmGpu, BM_LiftGpu, BM_RadixSortGpu   one compute pass alone
//   BM_OrlDeformGpu/scene, BM_OrlDeformCpu/scene   the ORL deform (24,049
//                               vertices) as the shader runs it, and as
//                               core::orlDeform runs it on the CPU (the
//                               software rasterisers' route, and the reference);
//                               scene 0 the sample ORL character (44 channels,
//                               4 joints), 1 a synthetic pack of MetaHuman
//                               density (800 channels, 2.37M CSR entries, 870
//                               joints, 8 influences)
//   BM_SplatFrame/n/passes/raster/scene   a splat frame cut after 0..3 passes,
//                               raster 0 the compute tiles (the default), 1 the
//                               quads; scene 0 the dense torus (gaussians shrink
//                               as n grows, a capture's overlap), 1 the torus of
//                               fixed 6 cm gaussians (n = 1M: ~150 tiles each),
//                               2 the scene-like cloud (samples/scene_like_cloud.h)
//                               at 1920x1080; --write-splat-scenes=DIR writes
//                               these clouds and cameras for a peer to draw;
//                               pass 0 the canvas writes splats without a render
//                               pass (riglens-cli, review), 1 in one (the window)
//   BM_CharacterFrame/passes/raster/scene/samples/pass the viewer's character
//                               frame cut after 0..4 passes; scene 0 a full-size
//                               head (V 17,821, E 383, all active), 1 the app's
//                               sample character; pass as above
//   BM_DecodedCharacterFrame/route   the app's decoded sample character
//                               (bench_render_decoded.cpp): a frame in which a
//                               new decode is lifted and drawn; route 0 the
//                               device's default, 1 the GPU's, 2 the CPU's
// Every frame also reports its passes' GPU times (gpu_<pass>_ms, Vulkan
// timestamps through render::GpuTimer) and their sum, gpu_ms, and its
// submissions and compute dispatches per iteration.
//   BM_MemoryBandwidth          the same run's memcpy baseline
// Time from `riglens-cli render` start to PNG, against F3D on the same model:
// tools/bench-render.sh.
#include <benchmark/benchmark.h>

#include "memory_bandwidth.h"
#include "peers/sort_keys.h"
#include "render_bench_device.h"
#include "splat_bench_scenes.h"

using riglens::bench::applyPassArg;
using riglens::bench::BM_MemoryBandwidth;

#include <QtGui/QGuiApplication>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>

#include "riglens/core/character/character_scene.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/pose.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/core/rig/scene_bounds.h"
#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/core/view/orbit_camera.h"
#include "riglens/render/character/character_renderer.h"
#include "riglens/render/character/gpu_character.h"
#include "riglens/render/character/gpu_lift.h"
#include "riglens/render/character/gpu_orl.h"
#include "riglens/render/device/offscreen_canvas.h"
#include "riglens/render/parity/environment_light_on_gpu.h"
#include "riglens/render/rig/frame_builder.h"
#include "riglens/render/rig/rig_renderer.h"
#include "riglens/render/splats/gpu_sort.h"
#include "riglens/render/splats/splat_renderer.h"
#include "riglens/samples/character_sample.h"
#include "riglens/samples/gaussian_samples.h"
#include "riglens/samples/gnm_bake.h"
#include "riglens/samples/orl_sample.h"
#include "riglens/samples/sample_runs.h"

namespace fs = std::filesystem;
using namespace riglens;

namespace {

using bench::device;
using bench::GpuPassTimes;

std::shared_ptr<const core::LoadedRun> sample(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("riglens-bench-" + name);
  if (!fs::exists(dir / "rig.json")) {
    auto s = samples::makeSampleRun(name);
    if (!s || !samples::writeSampleRun(*s, dir)) std::exit(1);
  }
  auto run = core::loadRun(dir);
  if (!run) std::exit(1);
  return std::make_shared<const core::LoadedRun>(std::move(run).value());
}

void renderFrames(benchmark::State& state, const std::string& name, bool readback,
                  core::Look look = core::Look::Review) {
  render::ViewSettings view;
  view.look = look;
  auto run = sample(name);
  auto canvas = render::OffscreenCanvas::create(*device(), QSize(1280, 720));
  if (!canvas) {
    state.SkipWithError(canvas.error().message.c_str());
    return;
  }
  render::RigRenderer renderer(*device());
  renderer.setModel(run);
  core::RigController controller(run->rig);
  core::OrbitCamera camera;
  camera.frame(core::posedBounds(*run, controller.partWorlds()));
  // The first frame uploads the geometry; time the frames after it.
  (void)(*canvas)->renderWithoutReadback(
      renderer, render::buildFrameState(*run, controller.partWorlds(), camera, 16.0f / 9.0f, view));
  std::size_t triangles = 0;
  for (const auto& m : run->meshes) triangles += m.triangleCount();
  for (auto _ : state) {
    controller.update(1.0 / 60.0);  // a new pose every frame: uniforms only
    controller.evaluate();
    const auto frame = render::buildFrameState(*run, controller.partWorlds(), camera, 16.0f / 9.0f, view);
    if (readback) {
      auto image = (*canvas)->render(renderer, frame);
      benchmark::DoNotOptimize(image);
    } else {
      (void)(*canvas)->renderWithoutReadback(renderer, frame);
    }
  }
  state.counters["triangles"] = double(triangles);
}

void BM_RenderFrame(benchmark::State& state, const char* name, core::Look look) {
  renderFrames(state, name, false, look);
}

using bench::ictFace;

// The viewer's sample character (ICT-FaceKit: V 9,409, 53 expressions), as the app opens it.
const core::AosRigPack& sampleHead() {
  static const core::AosRigPack pack = [] {
    auto bake = samples::makeSampleCharacter(ictFace());
    if (!bake) throw std::runtime_error(bake.error().message);
    auto bytes = samples::bakeAosRig(*bake);
    return std::move(
               core::parseAosRig(std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes).value()), "sample"))
        .value();
  }();
  return pack;
}

const core::AosRigPack& fullHead() {
  static const core::AosRigPack pack = [] {
    auto bytes = samples::bakeAosRig(samples::syntheticGnmHead());
    return std::move(core::parseAosRig(std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes).value()),
                                       "synthetic"))
        .value();
  }();
  return pack;
}

// One submitted frame holding only the GNM compute pass (V 17,821, E 383):
// range(0) active coefficients, range(1) the kernel's workgroup size (0: the
// one GpuGnm picks for this device, reported as gnm_group).
void BM_GnmGpu(benchmark::State& state) {
  const core::AosRigPack& pack = fullHead();
  auto gnm = render::GpuGnm::create(*device(), pack, render::GnmRoute::Gpu, std::uint32_t(state.range(1)));
  if (!gnm) {
    state.SkipWithError(gnm.error().message.c_str());
    return;
  }
  std::vector<float> controls(387, 0.0f);
  for (int i = 0; i < state.range(0); ++i) controls[std::size_t(i * 383 / state.range(0))] = 0.5f;
  const core::GnmJointState joints(pack);
  const auto frame = [&] {
    (void)(*gnm)->setControls(controls, joints);
    (void)(*gnm)->runOffscreenFrame();  // waits for the GPU
  };
  frame();  // uploads the basis
  GpuPassTimes gpu;
  for (auto _ : state) {
    frame();
    gpu.add();
  }
  gpu.report(state);
  state.counters["gnm_group"] = double((*gnm)->groupSize());
  state.counters["multiprocessors"] = double(device()->multiprocessors());
  // Bytes a frame must read from the basis (the active columns of every row).
  state.SetBytesProcessed(state.iterations() * std::int64_t(pack.vertexCount) * state.range(0) * 3 * 2);
}
// An ORL pack of MetaHuman density on 24,049 vertices: 800 channels whose
// targets cover 2.37M (vertex, channel) entries, 870 joints in a chain of
// short branches, 8 influences a vertex. Outputs go in directly (no DNA).
core::OrlCharacter denseOrl() {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  samples::OrlPackParts p;
  const std::size_t V = samples::kOrlSkinVertexCount, J = 870, C = 800, perChannel = 2965;
  p.vertexCount = V;
  p.maxInfluence = 8;
  p.channelCount = C;
  for (std::size_t v = 0; v < V * 3; ++v) p.neutral.push_back(30.0f * unit(rng));
  for (std::size_t j = 0; j < J; ++j) {
    p.jointNames.push_back("joint" + std::to_string(j));
    p.jointParents.push_back(std::int32_t(j == 0 ? 0 : (j - 1) / 4));
    p.jointNeutral.insert(p.jointNeutral.end(), {0.1f, 0.2f, 0.1f, 0, 0, 0, 1, 1, 1});
    p.inverseBind.insert(p.inverseBind.end(), {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  }
  for (std::size_t v = 0; v < V; ++v)
    for (int i = 0; i < 8; ++i) {
      p.skinIndex.push_back(std::uint16_t(rng() % J));
      p.skinWeight.push_back(0.125f);
    }
  for (std::size_t c = 0; c < C; ++c) {
    samples::OrlPackParts::Target t{int(c), {}, {}};
    const std::size_t start = rng() % V;
    for (std::size_t k = 0; k < perChannel; ++k) {
      t.vertices.push_back(std::uint16_t((start + k * 7) % V));
      for (int d = 0; d < 3; ++d) t.deltas.push_back(unit(rng) - 0.5f);
    }
    p.targets.push_back(std::move(t));
  }
  auto bytes = samples::writeOrlPack(p);
  auto pack = core::parseOrlPack(*bytes, "dense.orl");
  if (!pack) std::exit(1);
  core::OrlCharacter character;
  character.pack = std::make_shared<const core::OrlPack>(std::move(pack).value());
  return character;
}

// The sample ORL character, or the dense pack (scene 1), with one frame's outputs:
// every channel at 0.3 and every joint turned a little.
struct OrlBench {
  core::OrlCharacter character;
  std::vector<float> joints, weights;
};
const OrlBench& orlBench(std::int64_t scene) {
  static std::map<std::int64_t, OrlBench> made;
  auto it = made.find(scene);
  if (it != made.end()) return it->second;
  OrlBench b;
  if (scene == 0) {
    auto sample = samples::makeSampleOrl(ictFace());
    if (!sample) std::exit(1);
    auto bytes = samples::writeOrlPack(sample->pack);
    auto pack = core::parseOrlPack(*bytes, "orl_pack.bin");
    b.character.pack = std::make_shared<const core::OrlPack>(std::move(pack).value());
  } else {
    b.character = denseOrl();
  }
  const core::OrlPack& pack = *b.character.pack;
  b.weights.assign(pack.channelCount, 0.3f);
  b.joints.assign(pack.jointCount * 9, 0.0f);
  for (std::size_t j = 0; j < pack.jointCount; ++j) b.joints[j * 9 + 3] = 2.0f;
  return made.emplace(scene, std::move(b)).first->second;
}

void BM_OrlDeformGpu(benchmark::State& state) {
  const OrlBench& b = orlBench(state.range(0));
  auto orl = render::GpuOrl::create(*device(), b.character);
  if (!orl) {
    state.SkipWithError(orl.error().message.c_str());
    return;
  }
  (void)(*orl)->setOutputs(b.joints, b.weights);
  (void)(*orl)->runOffscreenFrame();  // the one-time uploads
  GpuPassTimes gpu;
  for (auto _ : state) {
    (void)(*orl)->setOutputs(b.joints, b.weights);  // the CPU's share: skin rows from the joint outputs
    (void)(*orl)->runOffscreenFrame();              // waits for the GPU
    gpu.add();
  }
  gpu.report(state);
  state.counters["csr_entries"] = double((*orl)->csrEntries());
}

void BM_OrlDeformCpu(benchmark::State& state) {
  const OrlBench& b = orlBench(state.range(0));
  for (auto _ : state) {
    auto posed = core::orlDeform(*b.character.pack, b.joints, b.weights);
    benchmark::DoNotOptimize(posed);
  }
  state.counters["csr_entries"] = double(b.character.pack->bsIndex.size());
}

// One submitted frame holding only the debug lift of V posed vertices (the
// positions uploaded once, as the GNM pass leaves them on the GPU).
void BM_LiftGpu(benchmark::State& state) {
  const core::AosRigPack& pack = fullHead();
  const std::size_t V = pack.vertexCount;
  auto lift = render::GpuLift::create(*device(), V, core::SplatSink(V));
  if (!lift) {
    state.SkipWithError(lift.error().message.c_str());
    return;
  }
  const core::FitTransform fit = core::fitVertsTransform({pack.neutral.data(), V * 3});
  core::DebugLiftParams params;
  params.vertexCount = params.slotCount = std::uint32_t(V);
  params.shading = core::LiftShading::Normal;
  params.affine = fit.rows;
  params.centroid = fit.centroid;
  (void)(*lift)->setFrame(params, {pack.neutral.data(), V * 3}, {});
  (void)(*lift)->runOffscreenFrame();
  GpuPassTimes gpu;
  for (auto _ : state) {
    (void)(*lift)->setFrame(params, {}, {});
    (void)(*lift)->runOffscreenFrame();  // waits for the GPU
    gpu.add();
  }
  gpu.report(state);
  // Per vertex: read 12 bytes, write 52 (centre, covariance A/B, colour).
  state.SetBytesProcessed(state.iterations() * std::int64_t(V) * 64);
}
// The PBR look's image-based light made from a studio map `range(0)` texels
// wide (uploaded, mipmapped, prefiltered into 7 levels, irradiance, BRDF
// table), read back; gpu_environment_ms is the GPU's share (timestamps).
void BM_EnvironmentLight(benchmark::State& state) {
  const auto map = std::make_shared<const core::EnvironmentMap>(core::studioEnvironment(int(state.range(0))));
  GpuPassTimes gpu;
  for (auto _ : state) {
    auto maps = render::environmentLightOnGpu(*device(), map);
    if (!maps) {
      state.SkipWithError(maps.error().message.c_str());
      return;
    }
    benchmark::DoNotOptimize(maps->irradiance.rgba.data());
    gpu.add();
  }
  gpu.report(state);
}

void BM_RenderFrameReadback(benchmark::State& state) {
  renderFrames(state, "large", true);
}

// The splat sort alone: upload N keys of range(1) bits (32: the tile keys,
// 16: the quads' depth keys) and their indices, one radix pass per 8 bits.
// range(2) picks the keys (peers/sort_keys.h): 0 hashed, 1 the LCG sequence
// of the earlier tables (it measured the same); range(3) the algorithm, 1
// reduce-then-scan, 2 one-sweep. bench/peers/cuda_peers.cu times CUB on the
// same keys.
void BM_RadixSortGpu(benchmark::State& state) {
  const auto n = std::uint32_t(state.range(0));
  const auto bits = std::uint32_t(state.range(1));
  const auto algorithm = state.range(3) == 2 ? render::SortAlgorithm::OneSweep : render::SortAlgorithm::ReduceThenScan;
  auto sort = render::GpuRadixSort::create(*device(), n, bits, algorithm);
  if (!sort) {
    state.SkipWithError(sort.error().message.c_str());
    return;
  }
  std::vector<std::uint32_t> keys, values;
  bench::makeSortKeys(n, int(bits), state.range(2) == 1, keys, values);
  GpuPassTimes gpu;
  for (auto _ : state) {
    (void)(*sort)->runOffscreenFrame(keys, values);
    gpu.add();
  }
  gpu.report(state);
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  // Bytes moved per element and pass: read key+value twice (histogram,
  // scatter), write key+value, plus the histogram: ~28 bytes a pass.
  state.SetBytesProcessed(state.iterations() * std::int64_t(n) * 28 * std::int64_t((bits + 7) / 8));
}

// The benchmarks' raster argument: 0 the compute tiles, 1 quads, 2 the CPU's rasteriser.
render::SplatRaster rasterArg(std::int64_t arg) {
  return arg == 0 ? render::SplatRaster::Compute : arg == 1 ? render::SplatRaster::Quads : render::SplatRaster::Cpu;
}

// Which passes a benchmark frame runs: range(1) passes, cut in frame order
// (rig, project, sort, raster). The per-pass cost of one frame is the
// difference between consecutive cuts, all measured in the same run.
render::SplatPasses passesUpTo(std::int64_t count, bool withRig) {
  render::SplatPasses p;
  int left = int(count);
  if (withRig) p.rig = left-- > 0;
  p.project = left-- > 0;
  p.sort = left-- > 0;
  p.raster = left-- > 0;
  return p;
}

// Bytes the compute passes must move per splat (what the memory bandwidth
// bounds): projection reads the sink (52) and writes the projected pair (32)
// and a key/value (8); the sort moves ~112 per key (4 passes of 28). The
// raster reads 36 per splat plus whatever the quads cover (fragment-bound).
std::int64_t splatComputeBytes(const render::SplatPasses& p) {
  return (p.project ? 92 : 0) + (p.sort ? 112 : 0) + (p.raster ? 36 : 0);
}

// Frame `index` of a BM_SplatFrame scene's camera.
render::FrameState splatBenchFrame(const bench::SplatBenchSetup& setup, int index) {
  const bench::SplatBenchCamera camera = bench::splatBenchCamera(setup, index);
  render::FrameState frame;
  frame.projection = camera.projection;
  frame.view = camera.view;
  return frame;
}

// A BM_SplatFrame scene's cloud, made and parsed once per process: the
// benchmark library calls a benchmark several times (to size its iterations,
// once per repetition), and making, encoding and parsing the 3M SH-3 cloud
// took ~25 s a time, most of a device run's minutes.
struct SplatBenchCloud {
  bench::SplatBenchSetup setup;
  std::shared_ptr<const core::GaussianCloud> cloud;  // null: the .ply round trip failed
};
const SplatBenchCloud& splatBenchCloud(bench::SplatBenchScene scene, std::size_t n) {
  static std::map<std::pair<int, std::size_t>, SplatBenchCloud> made;
  auto [it, fresh] = made.try_emplace({int(scene), n});
  if (fresh) {
    it->second.setup = bench::splatBenchSetup(scene, n);
    auto cloud = core::parseGaussianPly(core::encodeGaussianPly(it->second.setup.gaussians, it->second.setup.shDegree),
                                        "splats");
    if (cloud) it->second.cloud = std::make_shared<const core::GaussianCloud>(std::move(cloud).value());
    it->second.setup.gaussians = {};  // the parsed cloud is what frames draw
  }
  return it->second;
}

// A splat frame of N gaussians, cut after range(1) of its passes (0 none:
// the frame's clear and MSAA resolve alone, 1 projection, 2 + sort, 3 +
// quads: the whole frame); range(2) the rasteriser (rasterArg), range(3) the
// scene (bench::SplatBenchScene: the tori at 1280x720, the scene-like SH-3
// cloud at 1920x1080), range(4) the target's samples (1: how splats render,
// 4: the app's window), range(5) the pass argument (applyPassArg).
void BM_SplatFrame(benchmark::State& state) {
  const auto n = std::size_t(state.range(0));
  const SplatBenchCloud& bench = splatBenchCloud(bench::SplatBenchScene(state.range(3)), n);
  const bench::SplatBenchSetup& setup = bench.setup;
  auto canvas = render::OffscreenCanvas::create(*device(), QSize(setup.width, setup.height), int(state.range(4)));
  if (!bench.cloud || !canvas) {
    state.SkipWithError("setup failed");
    return;
  }
  applyPassArg(**canvas, state.range(5));
  render::SplatRenderer renderer(*device());
  renderer.setRaster(rasterArg(state.range(2)));
  renderer.setCloud(bench.cloud);
  const render::SplatPasses passes = passesUpTo(state.range(1), false);
  renderer.setPasses(passes);
  const auto draw = [&](int index) {
    (void)(*canvas)->renderWithoutReadback(renderer, splatBenchFrame(setup, index % 360));
  };
  // Untimed: the uploads, and the compute tiles sizing their room for the view.
  for (int warm = 0; warm < 2; ++warm) draw(0);
  int index = 0;
  GpuPassTimes gpu;
  for (auto _ : state) {
    draw(index++);  // the view changes every frame: a full re-sort
    gpu.add(**canvas);
  }
  gpu.report(state);
  state.SetItemsProcessed(state.iterations() * std::int64_t(n));
  state.SetBytesProcessed(state.iterations() * std::int64_t(n) * splatComputeBytes(passes));
  state.counters["tile_keys"] = double(renderer.tileKeys());
  state.counters["tiles_held"] = double(renderer.tilesHoldingKeys());  // the parts' rule: against multiprocessors * 3
  state.counters["drew_compute"] = renderer.rasterUsed() == render::SplatRaster::Compute ? 1 : 0;
  state.counters["cpu_raster_ms"] = renderer.cpuRasterMs();
}

// The first frame of a BM_SplatFrame scene, drawn as the benchmark draws it
// and written as a PNG (for --write-splat-scenes).
std::string drawSplatBenchScene(const bench::SplatBenchSetup& setup, std::span<const std::uint8_t> ply,
                                const std::filesystem::path& png) {
  auto cloud = core::parseGaussianPly(ply, "splats");
  if (!cloud) return cloud.error().message;
  auto canvas = render::OffscreenCanvas::create(*device(), QSize(setup.width, setup.height), 1);
  if (!canvas) return canvas.error().message;
  render::SplatRenderer renderer(*device());
  renderer.setCloud(std::make_shared<const core::GaussianCloud>(std::move(cloud).value()));
  auto image = (*canvas)->render(renderer, splatBenchFrame(setup, 0));
  if (!image) return image.error().message;
  return image->save(QString::fromStdString(png.string())) ? std::string() : "cannot write " + png.string();
}

// One viewer frame of a full-size character (V 17,821, E 383, every
// coefficient active) at 1280x720, as the app runs it: GNM -> lift ->
// projection -> sort -> quads chained in one command buffer, the controls
// and the view changing every frame; cut after range(0) passes (0 none,
// 1 rig, 2 + projection, 3 + sort, 4 the whole frame); range(1) the
// rasteriser, range(2) the head (0 full, 1 the sample), range(3) samples,
// range(4) the pass argument (applyPassArg).
void BM_CharacterFrame(benchmark::State& state) {
  static const auto full = std::make_shared<const core::AosRigPack>(fullHead());
  static const auto sample = std::make_shared<const core::AosRigPack>(sampleHead());
  const auto& pack = state.range(2) == 0 ? full : sample;
  auto canvas = render::OffscreenCanvas::create(*device(), QSize(1280, 720), int(state.range(3)));
  if (!canvas) {
    state.SkipWithError(canvas.error().message.c_str());
    return;
  }
  applyPassArg(**canvas, state.range(4));
  render::CharacterRenderer renderer(*device());
  renderer.setRaster(rasterArg(state.range(1)));
  renderer.setPack(pack);
  const render::SplatPasses passes = passesUpTo(state.range(0), true);
  renderer.setPasses(passes);
  core::OrbitCamera camera;
  camera.frame(*core::characterRestBounds(*pack), 16.0f / 9.0f);
  render::FrameState frame;
  frame.projection = camera.projection(16.0f / 9.0f);
  frame.view = camera.view();
  render::CharacterFrame controls;
  controls.controls.assign(pack->coeffCount + 4, 0.25f);
  renderer.setFrame(controls);
  // Untimed: the uploads, and the compute tiles sizing their room for the view.
  for (int warm = 0; warm < 2; ++warm) (void)(*canvas)->renderWithoutReadback(renderer, frame);
  float yaw = 0;
  GpuPassTimes gpu;
  for (auto _ : state) {
    controls.controls[0] = -controls.controls[0];  // new controls: GNM and the lift run again
    renderer.setFrame(controls);
    camera.setAngles(yaw += 1.0f, 10.0f);
    frame.view = camera.view();
    (void)(*canvas)->renderWithoutReadback(renderer, frame);
    gpu.add(**canvas);
  }
  gpu.report(state);
  // GNM reads the active basis columns (V*E*3 halves) and writes V*12; the lift 64 per vertex.
  const std::int64_t V = std::int64_t(pack->vertexCount), E = std::int64_t(pack->coeffCount);
  const std::int64_t rig = passes.rig ? V * E * 6 + V * 12 + V * 64 : 0;
  state.SetBytesProcessed(state.iterations() * (rig + V * splatComputeBytes(passes)));
  state.counters["posed_frames"] = double(renderer.posedFrames());
}

}  // namespace

// Real time: the rasteriser works on its own threads, so CPU time of this
// thread says little.
BENCHMARK_CAPTURE(BM_RenderFrame, tank, "tank-cubes", core::Look::Review)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_RenderFrame, tank_pbr, "tank-cubes", core::Look::Pbr)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_RenderFrame, large, "large", core::Look::Review)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_RenderFrame, large_pbr, "large", core::Look::Pbr)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_RenderFrameReadback)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_EnvironmentLight)->Arg(1024)->Arg(2048)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_MemoryBandwidth)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LiftGpu)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GnmGpu)
    ->ArgsProduct({{383, 30, 12}, {0}})
    ->ArgsProduct({{383}, {256, 272, 288, 320, 384}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_OrlDeformGpu)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_OrlDeformCpu)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SplatFrame)
    ->ArgsProduct({{17821, 262144, 1 << 20}, {0, 3}, {0, 1, 2}, {0, 1}, {1, 4}, {0, 1}})
    ->ArgNames({"n", "passes", "raster", "scene", "samples", "pass"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_SplatFrame)  // the scene-like cloud, 3M gaussians of SH degree 3
    ->ArgsProduct({{17821, 3 << 20}, {0, 3}, {0, 1, 2}, {2}, {1}, {0, 1}})
    ->ArgNames({"n", "passes", "raster", "scene", "samples", "pass"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_CharacterFrame)
    ->ArgsProduct({{0, 4}, {0, 1, 2}, {0, 1}, {1, 4}, {0, 1}})
    ->ArgNames({"passes", "raster", "scene", "samples", "pass"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
// N, key bits, keys (0 hashed, 1 LCG), algorithm (1 reduce-then-scan, 2 one-sweep).
BENCHMARK(BM_RadixSortGpu)
    ->ArgsProduct({{17821, 262144, 1 << 19, 557056, 655360, 1 << 20, 16 << 20}, {32}, {0}, {1, 2}})
    ->ArgsProduct({{262144, 1 << 20, 16 << 20}, {16}, {0}, {1, 2}})
    ->Args({262144, 32, 1, 1})
    ->Args({1 << 20, 32, 1, 1})
    ->ArgNames({"", "", "", "alg"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

int main(int argc, char** argv) {
  if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "vkkhrdisplay");
  qputenv("QT_LOGGING_RULES", "qt.qpa.*=false");
  QGuiApplication app(argc, argv);
  auto d = render::RhiDevice::createOffscreen(render::Backend::Vulkan);
  if (!d) {
    std::fprintf(stderr, "bench_render: %s\n", d.error().message.c_str());
    return 1;
  }
  device() = std::move(d).value();
  std::fprintf(stderr, "device: %s\n", device()->deviceName().c_str());
  constexpr std::string_view kWriteScenes = "--write-splat-scenes=";
  if (argc > 1 && std::string_view(argv[1]).starts_with(kWriteScenes)) {
    constexpr int kFrames = 360;  // a whole turn: every view the benchmark's frames use
    const std::string error =
        bench::writeSplatBenchScenes(std::string(argv[1] + kWriteScenes.size()), kFrames, drawSplatBenchScene);
    if (!error.empty()) std::fprintf(stderr, "bench_render: %s\n", error.c_str());
    return error.empty() ? 0 : 1;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  device().reset();
  return 0;
}
