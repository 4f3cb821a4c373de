// GNM CPU pose of a full-size head (V = 17,821, E = 383; synthesised: no real
// pack ships with the project), dense (all 383 coefficients) and with 30
// active ones, against the memory bandwidth measured in the same run.
//
//   BM_MemoryBandwidth   memcpy of a 64 MB buffer: bytes/s the machine moves
//   BM_GnmForward/383    every coefficient: reads the whole fp16 basis (40.9 MB)
//   BM_GnmForward/150    below half: by columns of a coefficient-major copy
//   BM_GnmForward/30     a typical ARKit-driven frame
//   BM_GnmForwardThreaded  the same on every hardware thread (real time)
//   BM_GnmPose/30        + seam + 4-influence skinning
//   BM_EigenGemv         the peer (Eigen, Debian's): the same shape as an f32
//                        GEMV, y = B x with B (3V x E) column-major (81.9 MB)
//   BM_EigenColumnGather/30  the sparse peer: y = sum over the 30 active
//                        coefficients of x_c * B.col(c)
// GB/s counters count the basis bytes a frame must read (V*E*3*2 dense, V*3*2
// per active coefficient by columns).
#include <benchmark/benchmark.h>

#include "memory_bandwidth.h"

using riglens::bench::BM_MemoryBandwidth;

#include <Eigen/Dense>
#include <cstring>

#include "riglens/core/base/half_float.h"
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

// The basis as Eigen's peers read it: f32, one column of 3V per coefficient.
const Eigen::MatrixXf& eigenBasis() {
  static const Eigen::MatrixXf basis = [] {
    const AosRigPack& pack = fullHead();
    const std::size_t V = pack.vertexCount, E = pack.coeffCount;
    Eigen::MatrixXf b(Eigen::Index(V * 3), Eigen::Index(E));
    for (std::size_t v = 0; v < V; ++v)
      for (std::size_t c = 0; c < E; ++c)
        for (std::size_t k = 0; k < 3; ++k)
          b(Eigen::Index(v * 3 + k), Eigen::Index(c)) = halfToFloat(pack.basisHalf[(v * E + c) * 3 + k]);
    return b;
  }();
  return basis;
}

void BM_EigenGemv(benchmark::State& state) {
  const Eigen::MatrixXf& b = eigenBasis();
  const Eigen::VectorXf x = Eigen::VectorXf::Constant(b.cols(), 0.5f);
  Eigen::VectorXf y(b.rows());
  for (auto _ : state) {
    y.noalias() = b * x;
    benchmark::DoNotOptimize(y.data());
  }
  state.SetBytesProcessed(state.iterations() * std::int64_t(b.size()) * 4);
}

void BM_EigenColumnGather(benchmark::State& state) {
  const Eigen::MatrixXf& b = eigenBasis();
  const int active = int(state.range(0));
  Eigen::VectorXf y(b.rows());
  for (auto _ : state) {
    y.setZero();
    for (int i = 0; i < active; ++i) y.noalias() += 0.5f * b.col(Eigen::Index(i * int(b.cols()) / active));
    benchmark::DoNotOptimize(y.data());
  }
  state.SetBytesProcessed(state.iterations() * std::int64_t(b.rows()) * active * 4);
}

}  // namespace

BENCHMARK(BM_MemoryBandwidth)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GnmForward)->Arg(383)->Arg(150)->Arg(30)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GnmForwardThreaded)->Arg(383)->Arg(30)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_GnmPose)->Arg(30)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EigenGemv)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EigenColumnGather)->Arg(30)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
