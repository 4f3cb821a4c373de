// Renderer benchmarks on the device QRhi picks (lavapipe on machines without
// a GPU), windowless (QT_QPA_PLATFORM=vkkhrdisplay).
//
//   BM_RenderFrame/large        one 1280x720 frame of the large run (64 parts,
//                               2.72M triangles), 4x MSAA, no readback
//   BM_RenderFrame/tank         the same for the tank sample: the baseline the
//                               large frame is compared with (cost per triangle)
//   BM_RenderFrameReadback      the large frame read back into a QImage, as
//                               `riglens-cli render` does before writing the PNG
// Time from `riglens-cli render` start to PNG, against F3D on the same model:
// tools/bench-render.sh.
#include <benchmark/benchmark.h>

#include <QtGui/QGuiApplication>

#include <filesystem>

#include "riglens/core/orbit_camera.h"
#include "riglens/core/pose.h"
#include "riglens/core/rig_controller.h"
#include "riglens/core/run_loader.h"
#include "riglens/core/sample_runs.h"
#include "riglens/core/scene_bounds.h"
#include "riglens/render/frame_builder.h"
#include "riglens/render/offscreen_canvas.h"
#include "riglens/render/rig_renderer.h"

namespace fs = std::filesystem;
using namespace riglens;

namespace {

std::unique_ptr<render::RhiDevice>& device() {
  static std::unique_ptr<render::RhiDevice> d;
  return d;
}

std::shared_ptr<const core::LoadedRun> sample(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("riglens-bench-" + name);
  if (!fs::exists(dir / "rig.json")) {
    auto s = core::makeSampleRun(name);
    if (!s || !core::writeSampleRun(*s, dir)) std::exit(1);
  }
  auto run = core::loadRun(dir);
  if (!run) std::exit(1);
  return std::make_shared<const core::LoadedRun>(std::move(run).value());
}

void renderFrames(benchmark::State& state, const std::string& name, bool readback) {
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
  (void)(*canvas)->renderWithoutReadback(renderer, render::buildFrameState(*run, controller.partWorlds(), camera, 16.0f / 9.0f, {}));
  std::size_t triangles = 0;
  for (const auto& m : run->meshes) triangles += m.triangleCount();
  for (auto _ : state) {
    controller.update(1.0 / 60.0);  // a new pose every frame: uniforms only
    const auto frame = render::buildFrameState(*run, controller.partWorlds(), camera, 16.0f / 9.0f, {});
    if (readback) {
      auto image = (*canvas)->render(renderer, frame);
      benchmark::DoNotOptimize(image);
    } else {
      (void)(*canvas)->renderWithoutReadback(renderer, frame);
    }
  }
  state.counters["triangles"] = double(triangles);
}

void BM_RenderFrame(benchmark::State& state, const char* name) { renderFrames(state, name, false); }
void BM_RenderFrameReadback(benchmark::State& state) { renderFrames(state, "large", true); }

}  // namespace

// Real time: the rasteriser works on its own threads, so CPU time of this
// thread says little.
BENCHMARK_CAPTURE(BM_RenderFrame, tank, "tank-cubes")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_RenderFrame, large, "large")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_RenderFrameReadback)->Unit(benchmark::kMillisecond)->UseRealTime();

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
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  device().reset();
  return 0;
}
