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

#include <cstring>
#include <random>

#include "riglens/core/gnm.h"
#include "riglens/core/gnm_bake.h"

using namespace riglens::core;

namespace {

const AosRigPack& fullHead() {
  static const AosRigPack pack = [] {
    GnmBake b;
    b.vertexCount = 17821;
    b.coeffCount = 383;
    b.regions = {{"left_eye", 100}, {"right_eye", 100}, {"lower_face", 150}, {"tongue", 32}, {"pupils", 1}};
    b.joints = {{"neck", -1}, {"head", 0}, {"jaw", 1}, {"eye_l", 1}, {"eye_r", 1}};
    b.eyeNames = {"eye_l", "eye_r"};
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> u(-0.01f, 0.01f);
    const std::size_t V = b.vertexCount, E = b.coeffCount;
    b.neutral.resize(V * 3);
    for (auto& x : b.neutral) x = u(rng) * 10.0f;
    b.basis.resize(V * E * 3);
    for (auto& x : b.basis) x = u(rng);
    for (std::size_t v = 0; v < V; ++v) {
      b.skinIndex.insert(b.skinIndex.end(), {1, 2, 0, 3});
      b.skinWeight.insert(b.skinWeight.end(), {0.7f, 0.2f, 0.1f, 0.0f});
    }
    b.eyeWeights.assign(2 * V, 0.0f);
    for (std::size_t v = 0; v < 400; ++v) b.eyeWeights[v] = b.eyeWeights[V + 400 + v] = 1.0f;
    const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (int j = 0; j < 5; ++j) b.restWorld.insert(b.restWorld.end(), identity, identity + 16);
    b.faces = {0, 1, 2};
    auto bytes = bakeAosRig(b);
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

void BM_MemoryBandwidth(benchmark::State& state) {
  std::vector<std::uint8_t> a(64 << 20, 1), b(64 << 20);
  for (auto _ : state) {
    std::memcpy(b.data(), a.data(), a.size());
    benchmark::DoNotOptimize(b.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * std::int64_t(a.size()) * 2);  // read + write
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
