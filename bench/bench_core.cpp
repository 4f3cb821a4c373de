// engine/core micro-benchmarks.
//
// Baseline: BM_CopyPoints copies the same bytes transformPoints reads and
// writes, so BM_TransformPoints / BM_CopyPoints says how far the transform is
// from memory bandwidth on this machine.
#include <benchmark/benchmark.h>

#include <cstring>
#include <glm/gtc/matrix_transform.hpp>
#include <vector>

#include "riglens/core/base/json_file.h"
#include "riglens/core/base/point_transform.h"

namespace {

std::vector<glm::vec4> makePoints(std::size_t n) {
  std::vector<glm::vec4> points(n);
  for (std::size_t i = 0; i < n; ++i) points[i] = {float(i % 64), float(i % 37), float(i % 23), 1.0f};
  return points;
}

void BM_CopyPoints(benchmark::State& state) {
  const auto in = makePoints(static_cast<std::size_t>(state.range(0)));
  std::vector<glm::vec4> out(in.size());
  for (auto _ : state) {
    std::memcpy(out.data(), in.data(), in.size() * sizeof(glm::vec4));
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_TransformPoints(benchmark::State& state) {
  const auto in = makePoints(static_cast<std::size_t>(state.range(0)));
  std::vector<glm::vec4> out(in.size());
  const glm::mat4 m = glm::rotate(glm::mat4(1.0f), 0.64f, glm::vec3(0, 1, 0));
  for (auto _ : state) {
    riglens::core::transformPoints(m, in, out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void BM_ParseRigJson(benchmark::State& state) {
  std::string text = R"({"parts":[)";
  for (int i = 0; i < state.range(0); ++i)
    text += (i ? "," : "") + std::string(R"({"name":"p)") + std::to_string(i) + R"(","pivot":[1,2,3]})";
  text += "]}";
  for (auto _ : state) {
    auto doc = riglens::core::parseJson(text, "bench.json");
    benchmark::DoNotOptimize(doc);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}

}  // namespace

BENCHMARK(BM_CopyPoints)->Arg(1 << 16);
BENCHMARK(BM_TransformPoints)->Arg(1 << 16);
BENCHMARK(BM_ParseRigJson)->Arg(256);
BENCHMARK_MAIN();
