// GNM CPU pose of a full-size head (V = 17,821, E = 383; synthesised: no real
// pack ships with the project), dense (all 383 coefficients) and with 30
// active ones, against the memory bandwidth measured in the same run.
//
//   BM_MemoryBandwidth   memcpy of a 64 MB buffer: bytes/s the machine moves
//   BM_GnmForward/383    every coefficient: reads the whole fp16 basis (40.9 MB)
//   BM_GnmForward/30     a typical ARKit-driven frame
//   BM_GnmForwardThreaded  the same on every hardware thread (real time)
//   BM_GnmPose/30        + seam + 4-influence skinning
// GB/s counters count the basis bytes a frame must read (V*E*3*2 dense; the
// strided reads of the active columns for the sparse case).
#include <benchmark/benchmark.h>

#include "memory_bandwidth.h"

using riglens::bench::BM_MemoryBandwidth;

#include <cstring>

#include "riglens/core/character/gnm.h"
#include "riglens/samples/gnm_bake.h"

using namespace riglens::core;
using namespace riglens::samples;

namespace {

const AosRigPack& fullHead() {
  static const AosRigPack pack = [] {
    auto bytes = bakeAosRig(syntheticGnmHead());
    auto parsed = parseAosRig(std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes).value()), "synthetic");
    return std::move(parsed).value();
  }();
  return pack;
}

std::vector<float> controls(int active) {
  std::vector<float> c(387, 0.0f);
  for (int i = 0; i < active; ++i) c[std::size_t(i * 383 / active)] = 0.5f;
  c[383] = 0.1f;  // some gaze
  return c;
}

void BM_GnmForward(benchmark::State& state) {
  const AosRigPack& pack = fullHead();
  const auto c = controls(int(state.range(0)));
  for (auto _ : state) {
    auto out = gnmForward(pack, c);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(state.iterations() * std::int64_t(pack.vertexCount) * state.range(0) * 3 * 2);
}

void BM_GnmForwardThreaded(benchmark::State& state) {
  const AosRigPack& pack = fullHead();
  const auto c = controls(int(state.range(0)));
  for (auto _ : state) {
    auto out = gnmForward(pack, c, 0);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(state.iterations() * std::int64_t(pack.vertexCount) * state.range(0) * 3 * 2);
}

void BM_GnmPose(benchmark::State& state) {
  const AosRigPack& pack = fullHead();
  const auto c = controls(int(state.range(0)));
  GnmJointState joints(pack);
  joints.setJointOverrides({{"jaw", glm::angleAxis(0.2, glm::dvec3(1, 0, 0))}});
  for (auto _ : state) {
    auto out = gnmPose(pack, c, &joints);
    benchmark::DoNotOptimize(out);
  }
}

}  // namespace

BENCHMARK(BM_MemoryBandwidth)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GnmForward)->Arg(383)->Arg(30)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GnmForwardThreaded)->Arg(383)->Arg(30)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GnmPose)->Arg(30)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
