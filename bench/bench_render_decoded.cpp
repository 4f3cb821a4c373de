// bench_render's decoded character: the app's decoded sample (the ICT face
// with the shipped sample decoders, uv_res 128, as `riglens-cli character
// make-sample` writes it), one viewer frame at 1280x720 in which a new
// decode is lifted and drawn while the view turns. The decodes themselves
// run before the timed loop (the viewer runs them on a worker thread; their
// cost is bench_decoded's): two rig vectors alternate, so every frame lifts a
// new geometry (both passes) and re-rasterises.
//   BM_DecodedCharacterFrame/route/samples/pass   route 0 the GPU's (GNM,
//                               the decoded lift and the compute tiles on the
//                               GPU), 1 the CPU's (all three on the CPU, the
//                               default where the device is a CPU rasteriser);
//                               pass 0 written without a render pass, 1 in one
//                               (applyPassArg)
#include <benchmark/benchmark.h>

#include "render_bench_device.h"
#include "riglens/core/decoded/decoded_character.h"
#include "riglens/core/view/orbit_camera.h"
#include "riglens/decode/opencv_decoder.h"
#include "riglens/render/character/character_renderer.h"
#include "riglens/render/device/offscreen_canvas.h"
#include "riglens/render/rig/frame_builder.h"
#include "riglens/samples/character_sample.h"

namespace riglens::bench {
namespace {

struct DecodedSample {
  std::shared_ptr<const core::Bundle> bundle;
  std::unique_ptr<core::DecodedCharacter> character;
  std::shared_ptr<render::DecodedLayout> layout;
  std::shared_ptr<const core::DecodedOutputs> decodes[2];  // two rigs: two geometries
};

// Built once; throws (the benchmark fails) when the data is missing.
DecodedSample& decodedSample() {
  static DecodedSample sample = [] {
    const std::filesystem::path out = std::filesystem::temp_directory_path() / "riglens-bench-decoded-sample";
    samples::SampleBundleOptions options;
    options.decoders = packedOr("sample-decoders", RIGLENS_SAMPLE_DECODERS_DIR);
    if (auto ok = samples::writeSampleCharacter(ictFace(), out, options); !ok)
      throw std::runtime_error(ok.error().message);
    auto loaded = core::loadBundle(out / "sample-bundle");
    if (!loaded) throw std::runtime_error(loaded.error().message);
    DecodedSample s;
    s.bundle = std::make_shared<const core::Bundle>(std::move(loaded).value());
    core::Diagnostics notes;
    auto opened = core::DecodedCharacter::open(s.bundle, decode::openCvOpener(), {}, notes);
    if (!opened) throw std::runtime_error(opened.error().message);
    s.character = std::move(opened).value();
    s.layout = std::make_shared<render::DecodedLayout>();
    s.layout->bundle = s.bundle;
    s.layout->branches = s.character->liftSpecs();
    s.layout->capacity = s.character->capacity();
    core::OrbitCamera orbit;
    orbit.frame(s.character->bounds(), 16.0f / 9.0f);
    std::vector<float> rig = s.character->referenceRig();
    for (auto& decode : s.decodes) {
      auto pass = s.character->decode(rig, core::pluckerCamera(orbit, 16.0f / 9.0f));
      if (!pass) throw std::runtime_error(pass.error().message);
      decode = std::make_shared<const core::DecodedOutputs>(s.character->outputs(*pass));
      rig[26] += 0.5f;  // a jaw coefficient: the next decode is a new geometry
    }
    return s;
  }();
  return sample;
}

void BM_DecodedCharacterFrame(benchmark::State& state) {
  DecodedSample& sample = decodedSample();
  const bool cpu = state.range(0) == 1;
  auto canvas = render::OffscreenCanvas::create(*device(), QSize(1280, 720), int(state.range(1)));
  if (!canvas) {
    state.SkipWithError(canvas.error().message.c_str());
    return;
  }
  applyPassArg(**canvas, state.range(2));
  render::CharacterRenderer renderer(*device());
  renderer.setGnmRoute(cpu ? render::GnmRoute::Cpu : render::GnmRoute::Gpu);
  renderer.setRaster(cpu ? render::SplatRaster::Cpu : render::SplatRaster::Compute);
  renderer.setPack(std::shared_ptr<const core::AosRigPack>(sample.bundle, &*sample.bundle->gnmPack));
  renderer.setDecodedLayout(sample.layout);
  render::CharacterFrame frame;
  frame.awaitDecode = true;
  renderer.setFrame(frame);
  core::OrbitCamera camera;
  camera.frame(sample.character->bounds(), 16.0f / 9.0f);
  // Untimed: the uploads, and the compute tiles sizing their room for the view.
  for (int warm = 0; warm < 2; ++warm) {
    renderer.setDecodedOutputs(sample.decodes[warm]);
    (void)(*canvas)->renderWithoutReadback(renderer, render::cameraFrameState(camera, 16.0f / 9.0f));
  }
  if (!renderer.showingDecoded()) {
    state.SkipWithError("the decoded character was not drawn");
    return;
  }
  float yaw = 0;
  std::size_t next = 0;
  GpuPassTimes gpu;
  for (auto _ : state) {
    renderer.setDecodedOutputs(sample.decodes[next ^= 1]);
    camera.setAngles(yaw += 1.0f, 10.0f);
    (void)(*canvas)->renderWithoutReadback(renderer, render::cameraFrameState(camera, 16.0f / 9.0f));
    gpu.add(**canvas);
  }
  gpu.report(state);
  state.counters["lifted"] = double(renderer.liftedDecodes());
  state.counters["gaussians"] = double(sample.layout->capacity);
}

BENCHMARK(BM_DecodedCharacterFrame)
    ->ArgsProduct({{0, 1}, {1, 4}, {0, 1}})
    ->ArgNames({"route", "samples", "pass"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace riglens::bench
