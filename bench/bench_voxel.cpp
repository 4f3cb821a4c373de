// Voxel core benchmarks on the generated "large" run (64 parts, > 1M
// triangles), written once to a temporary folder.
//
// Baselines measured in the same run:
//   BM_AssimpImportParts  Assimp 5.2 importing the same 64 .glb files
//                         (triangulated, no post-processing): compare with
//                         BM_LoadLargeRun (rig.json + tinygltf + our decode).
//   BM_PoseRestIdentity   a pass over the parts doing nothing but writing the
//                         identity: the floor BM_PoseLargeRig is measured against.
//   BM_KeysVs30Hz         for every track of the large run: the keys a fixed
//                         30 Hz LINEAR bake needs, its max error against the
//                         1 ms truth, and the keys our reduction keeps at that
//                         same max error (counters keys30Hz, keysReduced).
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>

#include <assimp/Importer.hpp>
#include <cstdio>
#include <filesystem>
#include <map>

#include "riglens/core/export/curve_reduction.h"
#include "riglens/core/export/gltf_export.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/fcurve.h"
#include "riglens/core/rig/pose.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/samples/sample_runs.h"

namespace fs = std::filesystem;
using namespace riglens::core;
using namespace riglens::samples;

namespace {

const fs::path& largeRun() {
  static const fs::path folder = [] {
    const fs::path dir = fs::temp_directory_path() / "riglens-bench-large";
    if (!fs::exists(dir / "rig.json")) {
      auto sample = makeSampleRun("large");
      if (!sample || !writeSampleRun(*sample, dir)) {
        std::fprintf(stderr, "cannot write the large sample to %s\n", dir.string().c_str());
        std::exit(1);
      }
    }
    return dir;
  }();
  return folder;
}

std::size_t triangles(const LoadedRun& run) {
  std::size_t n = 0;
  for (const auto& m : run.meshes) n += m.triangleCount();
  return n;
}

void BM_LoadLargeRun(benchmark::State& state) {
  std::size_t tris = 0;
  for (auto _ : state) {
    auto run = loadRun(largeRun());
    if (!run) state.SkipWithError(run.error().message.c_str());
    tris = triangles(*run);
    benchmark::DoNotOptimize(run);
  }
  state.counters["triangles"] = double(tris);
  state.SetItemsProcessed(state.iterations() * std::int64_t(tris));
}

void BM_AssimpImportParts(benchmark::State& state) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(largeRun() / "meshes")) files.push_back(e.path());
  std::size_t tris = 0;
  for (auto _ : state) {
    tris = 0;
    for (const auto& file : files) {
      Assimp::Importer importer;
      const aiScene* scene = importer.ReadFile(file.string(), aiProcess_Triangulate);
      if (!scene) {
        state.SkipWithError(importer.GetErrorString());
        return;
      }
      for (unsigned m = 0; m < scene->mNumMeshes; ++m) tris += scene->mMeshes[m]->mNumFaces;
      benchmark::DoNotOptimize(scene);
    }
  }
  state.counters["triangles"] = double(tris);
  state.SetItemsProcessed(state.iterations() * std::int64_t(tris));
}

void BM_PoseLargeRig(benchmark::State& state) {
  auto run = loadRun(largeRun());
  std::vector<double> values = restJointValues(run->rig);
  for (std::size_t j = 0; j < values.size(); ++j) values[j] = 0.01 * double(j % 7);
  std::vector<glm::mat4> worlds(run->rig.parts().size());
  for (auto _ : state) {
    poseRig(run->rig, values, worlds);
    benchmark::DoNotOptimize(worlds.data());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(worlds.size()));
}

void BM_PoseRestIdentity(benchmark::State& state) {
  std::vector<glm::mat4> worlds(64);
  for (auto _ : state) {
    for (auto& w : worlds) w = glm::mat4(1.0f);
    benchmark::DoNotOptimize(worlds.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * 64);
}

void BM_SampleAllTracks(benchmark::State& state) {
  auto run = loadRun(largeRun());
  double t = 0;
  std::size_t tracks = 0;
  for (auto _ : state) {
    tracks = 0;
    for (const auto& anim : run->rig.animations()) {
      auto values = sampleAnimation(anim, t);
      tracks += values.size();
      benchmark::DoNotOptimize(values.data());
    }
    t += 16.7;
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(tracks));
}

void BM_ControllerFrame(benchmark::State& state) {
  // One app frame: advance the clock, layer the animations, pose every part.
  auto run = loadRun(largeRun());
  RigController controller(run->rig);
  for (auto _ : state) {
    controller.update(1.0 / 60.0);
    controller.evaluate();
    benchmark::DoNotOptimize(controller.partWorlds().data());
  }
}

void BM_ExportLarge(benchmark::State& state) {
  auto run = loadRun(largeRun());
  const fs::path out = fs::temp_directory_path() / "riglens-bench-large.glb";
  ExportReport last;
  for (auto _ : state) {
    auto report = exportRun(*run, out);
    if (!report) {
      state.SkipWithError(report.error().message.c_str());
      return;
    }
    last = *report;
  }
  state.counters["fileMB"] = double(last.bytes) / 1e6;
  state.counters["keys"] = double(last.keysWritten);
  state.counters["denseSamples"] = double(last.denseSamples);
  state.counters["channels"] = double(last.channels);
}

void BM_KeysVs30Hz(benchmark::State& state) {
  auto run = loadRun(largeRun());
  std::map<std::string, double> counters;
  for (auto _ : state) {
    counters.clear();
    for (const auto& anim : run->rig.animations())
      for (const auto& track : anim.tracks) {
        const Joint& joint = run->rig.joints()[track.joint];
        const double end = anim.periodMs;
        const auto value = [&](double t) {
          const double v = t >= end ? sampleKeyframes(track.keyframes, end - 1e-6, end, anim.looping)
                                    : sampleKeyframes(track.keyframes, t, end, anim.looping);
          return clampJointValue(joint, v);
        };
        std::vector<double> t, v;
        for (double x = 0; x <= end; x += 1.0) {
          t.push_back(x);
          v.push_back(value(x));
        }
        // 30 Hz samples, linear between them, measured against the 1 ms truth.
        std::vector<double> t30, v30;
        for (double x = 0; x < end; x += 1000.0 / 30.0) {
          t30.push_back(x);
          v30.push_back(value(x));
        }
        t30.push_back(end);
        v30.push_back(value(end));
        double err = 0;
        for (std::size_t i = 0, k = 0; i < t.size(); ++i) {
          while (k + 2 < t30.size() && t30[k + 1] < t[i]) ++k;
          const double u = (t[i] - t30[k]) / (t30[k + 1] - t30[k]);
          err = std::max(err, std::abs(v30[k] + (v30[k + 1] - v30[k]) * u - v[i]));
        }
        const auto kept = reduceLinearKeys(t, v, std::max(err, 1e-9), 1e9);
        counters[anim.name + ".keys30Hz"] += double(t30.size());
        counters[anim.name + ".keysReduced"] += double(kept.size());
        counters[anim.name + ".maxError30Hz"] = std::max(counters[anim.name + ".maxError30Hz"], err);
      }
  }
  for (const auto& [name, value] : counters) state.counters[name] = value;
}

}  // namespace

BENCHMARK(BM_ExportLarge)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_KeysVs30Hz)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_LoadLargeRun)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_AssimpImportParts)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_PoseLargeRig);
BENCHMARK(BM_PoseRestIdentity);
BENCHMARK(BM_SampleAllTracks);
BENCHMARK(BM_ControllerFrame);
BENCHMARK_MAIN();
