// The decoded character: its decoders through OpenCV's DNN (CPU threads) and
// the lift, on the sample face with decoders of a realistic shape (random
// weights, code [1,256,8,8], zpack 256, ConvTranspose upsampling to uv_res;
// tools/decoders/make_decoders.py --kind realistic, written at build time) at
// uv_res 64, 128 and 256. Baselines measured in the same run:
//
//   BM_MemoryBandwidth           memcpy of 64 MB: what the machine moves
//   BM_DecodeFull/res            trunk -> geom -> appr (a rig change);
//                                counters: trunk/geom/appr ms of the last run,
//                                weight GB/s (decoder weights read per decode)
//   BM_DecodeAppearance/res      plucker + appr (an orbit)
//   BM_LiftCpu/res               both lift passes, the CPU reference
//   BM_LiftGpu/res               both lift passes on the GPU, uploads of the
//                                decode's outputs included (what a full pass costs the viewer)
//   BM_LiftGpuAppearance/res     pass 2 alone after an appearance decode
#include <benchmark/benchmark.h>

#include <QtGui/QGuiApplication>
#include <filesystem>
#include <map>

#include "memory_bandwidth.h"
#include "riglens/core/character/gnm.h"
#include "riglens/core/decoded/decoded_character.h"
#include "riglens/decode/opencv_decoder.h"
#include "riglens/render/character/gpu_decoded_lift.h"
#include "riglens/render/device/rhi_device.h"
#include "riglens/samples/character_sample.h"

using riglens::bench::BM_MemoryBandwidth;
using namespace riglens;
namespace fs = std::filesystem;

namespace {

// Where the data is: beside the executable when packed (bench-decoded/), else the build's.
fs::path dataDir(const char* name, const char* fallback) {
  const fs::path packed = fs::path(QCoreApplication::applicationDirPath().toStdString()) / name;
  return fs::exists(packed) ? packed : fs::path(fallback);
}

struct Character {
  std::shared_ptr<const core::Bundle> bundle;
  std::unique_ptr<core::DecodedCharacter> decoded;
  std::vector<float> posed;
};

Character& character(int res) {
  static std::map<int, Character> cache;
  auto it = cache.find(res);
  if (it != cache.end()) return it->second;
  const fs::path out = fs::temp_directory_path() / ("riglens-bench-decoded-" + std::to_string(res));
  samples::SampleBundleOptions options;
  options.uvRes = res;
  options.decoders = dataDir("decoders", RIGLENS_BENCH_DECODERS_DIR) / ("realistic-" + std::to_string(res));
  if (auto ok = samples::writeSampleCharacter(dataDir("ict-face", RIGLENS_DATA_DIR "/ict-face"), out, options); !ok)
    throw std::runtime_error(ok.error().message);
  auto loaded = core::loadBundle(out / "sample-bundle");
  if (!loaded) throw std::runtime_error(loaded.error().message);
  Character c;
  c.bundle = std::make_shared<const core::Bundle>(std::move(loaded).value());
  core::Diagnostics notes;
  auto decoded = core::DecodedCharacter::open(c.bundle, decode::openCvOpener(), {}, notes);
  if (!decoded) throw std::runtime_error(decoded.error().message);
  c.decoded = std::move(decoded).value();
  c.posed = *core::gnmPose(*c.bundle->gnmPack, c.decoded->referenceRig());
  return cache.emplace(res, std::move(c)).first->second;
}

core::PluckerCamera camera(float x) {
  core::PluckerCamera c;
  c.position = {x, 0.0f, 0.6f};
  c.forward = glm::normalize(-c.position);
  c.right = glm::normalize(glm::cross(c.forward, glm::vec3(0, 1, 0)));
  c.up = glm::cross(c.right, c.forward);
  return c;
}

render::RhiDevice& device() {
  static auto d = render::RhiDevice::createOffscreen(render::Backend::Vulkan);
  if (!d) throw std::runtime_error(d.error().message);
  return **d;
}

void BM_DecodeFull(benchmark::State& state) {
  Character& c = character(int(state.range(0)));
  auto rig = c.decoded->referenceRig();
  static int flip = 0;  // across runs: benchmark calls this function more than once
  for (auto _ : state) {
    rig[26] = float(++flip % 2) * 0.5f;  // a rig change every frame
    auto pass = c.decoded->decode(rig, camera(0.1f));
    if (!pass) return state.SkipWithError(pass.error().message.c_str());
    if (*pass != core::DecodePass::Full) return state.SkipWithError("not a full pass");
  }
  const auto& runs = c.decoded->branches()[0].decoders.runs();
  state.counters["trunk_ms"] = runs.trunkMs;
  state.counters["geom_ms"] = runs.geomMs;
  state.counters["appr_ms"] = runs.apprMs;
  state.counters["weight_MB"] = double(c.decoded->weightBytes()) / 1e6;
  state.SetBytesProcessed(state.iterations() * std::int64_t(c.decoded->weightBytes()));
}

void BM_DecodeAppearance(benchmark::State& state) {
  Character& c = character(int(state.range(0)));
  const auto rig = c.decoded->referenceRig();
  (void)c.decoded->decode(rig, camera(-0.1f));  // neither of the two the loop alternates between
  int flip = 0;
  for (auto _ : state) {
    auto pass = c.decoded->decode(rig, camera(float(++flip % 2) * 0.2f));  // an orbit every frame
    if (!pass) return state.SkipWithError(pass.error().message.c_str());
    if (*pass != core::DecodePass::Appearance) return state.SkipWithError("not an appearance pass");
  }
  state.counters["appr_ms"] = c.decoded->branches()[0].decoders.runs().apprMs;
}

void BM_LiftCpu(benchmark::State& state) {
  Character& c = character(int(state.range(0)));
  (void)c.decoded->decode(c.decoded->referenceRig(), camera(0.05f));
  core::SplatSink sink(c.decoded->capacity());
  for (auto _ : state) {
    c.decoded->liftCpu(c.posed, sink);
    benchmark::DoNotOptimize(sink.color.data());
  }
  state.counters["texels"] = double(c.decoded->capacity());
}

void liftGpu(benchmark::State& state, bool appearanceOnly) {
  Character& c = character(int(state.range(0)));
  auto pass = c.decoded->decode(c.decoded->referenceRig(), camera(0.15f));
  if (!pass) return state.SkipWithError(pass.error().message.c_str());
  const auto full = c.decoded->outputs(core::DecodePass::Full);
  auto lift = render::GpuDecodedLift::create(device(), c.bundle, c.decoded->liftSpecs(), c.decoded->capacity(),
                                             c.bundle->gnmPack->vertexCount);
  if (!lift) return state.SkipWithError(lift.error().message.c_str());
  (void)(*lift)->setVertices(c.posed);
  (void)(*lift)->setOutputs(full, true);
  (void)(*lift)->runOffscreenFrame();
  core::DecodedOutputs appearance = full;
  appearance.pass = core::DecodePass::Appearance;
  for (auto& g : appearance.geom) g.reset();
  for (auto _ : state) {
    if (appearanceOnly) {
      (void)(*lift)->setOutputs(appearance, false);
    } else {
      (void)(*lift)->setVertices(c.posed);
      ++appearance.geometryId;  // a new geometry each frame: both passes
      core::DecodedOutputs next = full;
      next.geometryId = appearance.geometryId;
      (void)(*lift)->setOutputs(next, true);
    }
    if (auto ok = (*lift)->runOffscreenFrame(); !ok) return state.SkipWithError(ok.error().message.c_str());
  }
  state.counters["pass1"] = double((*lift)->pass1Runs());
  state.counters["pass2"] = double((*lift)->pass2Runs());
}

void BM_LiftGpu(benchmark::State& state) {
  liftGpu(state, false);
}
void BM_LiftGpuAppearance(benchmark::State& state) {
  liftGpu(state, true);
}

}  // namespace

BENCHMARK(BM_MemoryBandwidth)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DecodeFull)->Arg(64)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_DecodeAppearance)->Arg(64)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LiftCpu)->Arg(64)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LiftGpu)->Arg(64)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_LiftGpuAppearance)->Arg(64)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();

int main(int argc, char** argv) {
  QGuiApplication app(argc, argv);  // the Vulkan device needs a QGuiApplication
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
