#include "splat_bench_scenes.h"

#include <nlohmann/json.hpp>

#include "riglens/core/base/file_io.h"
#include "riglens/core/view/orbit_camera.h"
#include "riglens/samples/gaussian_samples.h"
#include "riglens/samples/scene_like_cloud.h"

namespace riglens::bench {

SplatBenchSetup splatBenchSetup(SplatBenchScene scene, std::size_t count) {
  SplatBenchSetup setup;
  if (scene == SplatBenchScene::SceneLike) {
    setup.gaussians = samples::makeSceneLikeCloud(count);
    setup.shDegree = samples::kSceneLikeShDegree;
    setup.focus = samples::sceneLikeCloudFocus();
    setup.width = 1920;
    setup.height = 1080;
    setup.pitchDeg = 15.0f;  // low, as a capture's cameras walk around: the horizon and background in view
    return setup;
  }
  setup.gaussians =
      scene == SplatBenchScene::DenseTorus ? samples::makeDenseGaussianTorus(count) : samples::makeGaussianTorus(count);
  setup.focus.include({-1.3f, -0.3f, -1.3f});
  setup.focus.include({1.3f, 0.3f, 1.3f});
  return setup;
}

SplatBenchCamera splatBenchCamera(const SplatBenchSetup& setup, int frame) {
  const float aspect = float(setup.width) / float(setup.height);
  core::OrbitCamera camera;
  camera.frame(setup.focus, aspect);
  camera.setAngles(float(frame + 1), setup.pitchDeg);
  return {camera.view(), camera.projection(aspect)};
}

namespace {
nlohmann::json columns(const glm::mat4& m) {
  nlohmann::json out = nlohmann::json::array();
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) out.push_back(m[c][r]);
  }
  return out;
}
}  // namespace

std::string writeSplatBenchScenes(const std::filesystem::path& dir, int frames, const SplatBenchPicture& picture) {
  struct Item {
    const char* name;
    SplatBenchScene scene;
    std::size_t count;
  };
  constexpr Item kItems[] = {{"dense-torus-1m", SplatBenchScene::DenseTorus, 1u << 20},
                             {"torus-6cm-1m", SplatBenchScene::Torus6cm, 1u << 20},
                             {"scene-like-3m", SplatBenchScene::SceneLike, 3u << 20}};
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  for (const Item& item : kItems) {
    const SplatBenchSetup setup = splatBenchSetup(item.scene, item.count);
    const auto ply = core::encodeGaussianPly(setup.gaussians, setup.shDegree);
    if (auto written = core::writeFileAtomically(dir / (std::string(item.name) + ".ply"), ply); !written)
      return written.error().message;
    nlohmann::json cameras = {{"width", setup.width},
                              {"height", setup.height},
                              {"count", item.count},
                              {"sh_degree", setup.shDegree},
                              {"fov_y_deg", core::OrbitCamera::kDefaultFovDeg}};
    for (int f = 0; f < frames; ++f) {
      const SplatBenchCamera camera = splatBenchCamera(setup, f);
      cameras["frames"].push_back({{"view", columns(camera.view)}, {"projection", columns(camera.projection)}});
    }
    const std::string text = cameras.dump(1);
    if (auto written = core::writeFileAtomically(dir / (std::string(item.name) + ".cameras.json"),
                                                 {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
        !written)
      return written.error().message;
    if (std::string error = picture(setup, ply, dir / (std::string(item.name) + ".riglens.png")); !error.empty())
      return error;
  }
  return {};
}

}  // namespace riglens::bench
