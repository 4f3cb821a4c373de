// The DNA evaluator (core::DnaRig) per frame, against the same run's memcpy
// baselines: copying the frame's outputs (9 floats per joint + one per
// channel: the least any evaluator writes) and copying the joint matrix's
// values once (the least a dense evaluator reads). Two rigs: the sample ORL
// character's DNA, and a synthetic DNA of MetaHuman size (174 GUI / 263 raw
// controls, 600 PSDs, 800 joints in 40 groups, 800 channels, 80 maps; the
// densities of a real face rig as ORL.md reports them). "allocations"
// counts operator new calls inside the timed loop: it must be 0.
//
// `bench_dna --write-dnas DIR` writes both DNAs (sample-orl.dna,
// metahuman-size.dna) with RigLens' own writer and exits, so another
// evaluator (RigLogic) can be timed and checked on exactly these rigs.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <new>
#include <random>

#include "riglens/core/base/file_io.h"
#include "riglens/core/dna/dna_rig.h"
#include "riglens/samples/dna_writer.h"
#include "riglens/samples/orl_sample.h"

namespace {

std::atomic<long> g_allocations{0};

}  // namespace

// The replacement pair is malloc/free on both sides; GCC's check sees only
// the library's new and this free.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace {

using riglens::core::Dna;

Dna metaHumanSizeDna() {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  Dna d;
  d.lodCount = 1;
  const std::size_t G = 174, R = 263, P = 600, J = 800, N = 800, A = 80;
  for (std::size_t i = 0; i < G; ++i) d.guiControlNames.push_back("CTRL_" + std::to_string(i) + ".ty");
  for (std::size_t i = 0; i < R; ++i) d.rawControlNames.push_back("CTRL_expressions.e" + std::to_string(i));
  for (std::size_t j = 0; j < J; ++j)
    d.jointNames.push_back("FACIAL_" + std::to_string(j)), d.jointParents.push_back(0);
  for (std::size_t i = 0; i < N; ++i) d.blendShapeNames.push_back("bs" + std::to_string(i));
  for (std::size_t i = 0; i < A; ++i) d.animatedMapNames.push_back("am" + std::to_string(i));
  for (std::size_t r = 0; r < 400; ++r)  // GUI -> raw: bipolar widgets, two rows each
    for (float sign : {1.0f, -1.0f}) {
      d.guiToRaw.inputs.push_back(std::uint16_t(r % G)),
          d.guiToRaw.outputs.push_back(std::uint16_t((r * 7 + (sign < 0)) % R));
      d.guiToRaw.from.push_back(sign > 0 ? 0 : -1), d.guiToRaw.to.push_back(sign > 0 ? 1 : 0);
      d.guiToRaw.slope.push_back(sign), d.guiToRaw.cut.push_back(0);
    }
  d.psdCount = std::uint16_t(P);
  for (std::size_t p = 0; p < P; ++p)
    for (std::size_t k = 0; k < 2 + p % 2; ++k)
      d.psdRows.push_back(std::uint16_t(R + p)), d.psdColumns.push_back(std::uint16_t(rng() % R)),
          d.psdValues.push_back(1);
  const std::size_t C = R + P;
  for (std::size_t g = 0; g < 40; ++g) {  // 20 joints x 6 attributes = 120 rows over 30 controls
    riglens::core::DnaJointGroup group;
    for (std::size_t c = 0; c < 30; ++c) group.inputs.push_back(std::uint16_t(rng() % C));
    for (std::size_t j = 0; j < 20; ++j) {
      group.joints.push_back(std::uint16_t(g * 20 + j));
      for (std::size_t a : {0, 1, 2, 3, 4, 5}) group.outputs.push_back(std::uint16_t((g * 20 + j) * 9 + a));
    }
    for (std::size_t i = 0; i < group.outputs.size() * group.inputs.size(); ++i) group.values.push_back(value(rng));
    group.lods = {std::uint16_t(group.outputs.size())};
    d.jointGroups.push_back(std::move(group));
  }
  for (std::size_t i = 0; i < N; ++i)
    d.blendShapeInputs.push_back(std::uint16_t(i < R ? i : R + (i - R) % P)),
        d.blendShapeOutputs.push_back(std::uint16_t(i));
  d.blendShapeLods = {std::uint16_t(N)};
  for (std::size_t m = 0; m < A; ++m) {
    d.animatedMaps.inputs.push_back(std::uint16_t(m)), d.animatedMaps.outputs.push_back(std::uint16_t(m));
    d.animatedMaps.from.push_back(0), d.animatedMaps.to.push_back(1), d.animatedMaps.slope.push_back(1),
        d.animatedMaps.cut.push_back(0);
  }
  d.animatedMapLods = {std::uint16_t(A)};
  return d;
}

std::unique_ptr<riglens::core::DnaRig> rigOf(Dna d) {
  auto rig = riglens::core::DnaRig::create(std::make_shared<const Dna>(std::move(d)));
  return rig ? std::move(rig).value() : nullptr;
}

void evaluateFrames(benchmark::State& state, riglens::core::DnaRig& rig) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> frame(rig.guiControls().size());
  for (float& v : frame) v = value(rng);
  const long before = g_allocations.load();
  for (auto _ : state) {
    std::copy(frame.begin(), frame.end(), rig.guiControls().begin());
    rig.mapGuiToRaw();
    rig.calculate();
    benchmark::DoNotOptimize(rig.jointOutputs().data());
    frame[state.iterations() % frame.size()] = value(rng);  // a moving control, as a slider drag
  }
  state.counters["allocations"] = double(g_allocations.load() - before);
  state.counters["joints"] = double(rig.dna().jointCount());
  state.counters["channels"] = double(rig.dna().blendShapeCount());
}

void BM_DnaSample(benchmark::State& state) {
  auto rig = rigOf(riglens::samples::sampleOrlDna());
  evaluateFrames(state, *rig);
}
BENCHMARK(BM_DnaSample);

void BM_DnaMetaHumanSize(benchmark::State& state) {
  auto rig = rigOf(metaHumanSizeDna());
  evaluateFrames(state, *rig);
}
BENCHMARK(BM_DnaMetaHumanSize);

// Baselines, for the MetaHuman-size rig: its outputs written once, its joint matrix read once.
void BM_MemcpyOutputs(benchmark::State& state) {
  std::vector<float> from(800 * 9 + 800 + 80, 1.0f), to(from.size());
  for (auto _ : state) {
    std::memcpy(to.data(), from.data(), from.size() * 4);
    benchmark::DoNotOptimize(to.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_MemcpyOutputs);

void BM_MemcpyJointMatrix(benchmark::State& state) {
  std::vector<float> from(40 * 120 * 30, 1.0f), to(from.size());
  for (auto _ : state) {
    std::memcpy(to.data(), from.data(), from.size() * 4);
    benchmark::DoNotOptimize(to.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_MemcpyJointMatrix);

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--write-dnas") == 0) {
    const std::filesystem::path dir = argv[2];
    for (const auto& [name, dna] : {std::pair{"sample-orl.dna", riglens::samples::sampleOrlDna()},
                                    std::pair{"metahuman-size.dna", metaHumanSizeDna()}}) {
      auto bytes = riglens::samples::writeDna(dna);
      if (!bytes || !riglens::core::writeFileAtomically(dir / name, *bytes)) return 1;
      std::printf("%s\n", (dir / name).c_str());
    }
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
