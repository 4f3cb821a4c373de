// The clouds and cameras of BM_SplatFrame, in one place so that a peer
// rasteriser can be given exactly what bench_render draws:
// `bench_render --write-splat-scenes=DIR` writes each scene's cloud as a
// .ply and its cameras as JSON (docs/benchmarks.md says how gsplat read them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <glm/mat4x4.hpp>
#include <span>
#include <string>
#include <vector>

#include "riglens/core/base/bounds.h"
#include "riglens/core/splats/gaussian_ply.h"

namespace riglens::bench {

enum class SplatBenchScene { DenseTorus = 0, Torus6cm = 1, SceneLike = 2 };

struct SplatBenchSetup {
  std::vector<core::RawGaussian> gaussians;
  int shDegree = 0;
  core::Bounds focus;  // what the camera frames
  int width = 1280, height = 720;
  float pitchDeg = 30.0f;  // the camera turns 1 degree of yaw a frame at this pitch
};

SplatBenchSetup splatBenchSetup(SplatBenchScene scene, std::size_t count);

struct SplatBenchCamera {
  glm::mat4 view, projection;  // OpenGL conventions (core::OrbitCamera)
};
// The camera of frame `frame` (0-based): yaw frame + 1 degrees.
SplatBenchCamera splatBenchCamera(const SplatBenchSetup& setup, int frame);

// Writes <name>.ply and <name>.cameras.json (width, height, fov, near, far,
// and `frames` views and projections, column-major) for the three scenes at
// the sizes the notes quote (1M tori, the 3M scene-like cloud), and calls
// `picture` with each scene, the .ply bytes just written and the path its
// first frame's picture should have (<name>.riglens.png), for a
// side-by-side look with the peer's.
// Returns an error message, or an empty string.
using SplatBenchPicture =
    std::function<std::string(const SplatBenchSetup&, std::span<const std::uint8_t> ply, const std::filesystem::path&)>;
std::string writeSplatBenchScenes(const std::filesystem::path& dir, int frames, const SplatBenchPicture& picture);

}  // namespace riglens::bench
