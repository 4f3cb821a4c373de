// The PBR look's environment (issue 32): an equirectangular map of linear
// radiance the GPU turns into image-based light (a prefiltered specular mip
// chain, diffuse irradiance, the split-sum BRDF table). The default is a
// studio made here procedurally; users open any .hdr (Radiance RGBE, read by
// stb_image) or .exr (read by OpenEXR).
//
// Orientation: row 0 looks straight up (+y), the last row straight down;
// the image's centre column looks along -z (what a camera on +z sees behind
// the model) and columns to its right turn towards +x, so the picture is
// seen unmirrored from inside. equirectDirection and equirectCoordinates
// are that mapping and its inverse.
#pragma once

#include <cstdint>
#include <filesystem>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "riglens/core/base/expected.h"

namespace riglens::core {

struct EnvironmentMap {
  std::string name;  // "studio", or the file's name
  int width = 0, height = 0;
  std::vector<float> rgb;  // width x height x 3, linear radiance, row 0 at the top
  // What the reader accepted but found odd (not 2:1, negative values set to 0...).
  std::vector<std::string> warnings;

  bool empty() const { return width <= 0 || height <= 0; }
  glm::vec3 texel(int x, int y) const {
    const float* p = &rgb[(std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3];
    return {p[0], p[1], p[2]};
  }
};

// The unit direction through map coordinates `uv` (0..1 across, 0..1 down).
glm::vec3 equirectDirection(glm::vec2 uv);
// The map coordinates a direction (need not be unit) looks through.
glm::vec2 equirectCoordinates(glm::vec3 direction);
// The solid angle of texel row `y` of a map `width` x `height` (each texel of
// that row covers as much): sums to 4 pi over the map.
double equirectTexelSolidAngle(int y, int width, int height);

// The default environment: a soft grey studio (a darker floor, a bright
// overhead softbox in front and to the right, a strip light on the left, a
// rim light behind), `width` x width/2. Nothing is read from disk.
EnvironmentMap studioEnvironment(int width = 1024);
// The same radiance in every direction (the white-furnace test's).
EnvironmentMap uniformEnvironment(glm::vec3 radiance, int width = 64);

// The largest map the viewer takes (in texels): 16384 x 8192. Larger maps
// are refused rather than decoded into gigabytes.
inline constexpr std::uint64_t kMaxEnvironmentTexels = std::uint64_t(16384) * 8192;

// Reads an environment: .hdr (Radiance RGBE) or .exr (OpenEXR, its RGB or
// luminance channels). Errors name the file and the place; non-finite values
// are refused, negative ones set to 0 with a warning.
Expected<EnvironmentMap> readEnvironment(const std::filesystem::path& path);
// The same from bytes in memory; `fileName`'s extension picks the format.
Expected<EnvironmentMap> decodeEnvironment(std::span<const std::uint8_t> bytes, const std::string& fileName);

// The map box-filtered to at most `maxWidth` texels across (whole factors of
// two; the height follows), as the GPU takes it.
EnvironmentMap downsampledEnvironment(const EnvironmentMap& map, int maxWidth);

}  // namespace riglens::core
