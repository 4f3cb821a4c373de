// 3D Gaussian Splatting scenes in the de-facto .ply layout (binary little
// endian): per vertex x y z, f_dc_0..2, f_rest_* (higher SH bands), opacity
// (logit), scale_0..2 (log), rot_0..3 (quaternion, w first). Decoded into the
// splat sink's layout: centre, 3D covariance R S S^T R^T, colour from the
// degree-0 SH term (0.5 + C0 * f_dc) with the sigmoid opacity. The SH degree
// is inferred from the f_rest count; with bands above 0 the renderer
// evaluates the colour per view (spherical_harmonics.h) from f_dc and f_rest.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "riglens/core/base/bounds.h"
#include "riglens/core/base/expected.h"

namespace riglens::core {

// Which way is up in a cloud's own coordinates. Trainers (the 3DGS
// reference, gsplat, nerfstudio) keep COLMAP's camera convention, y down;
// other writers keep y up; the format has no field for it. RigLens writes
// and reads a header line "comment up +y" (or "-y") to say which.
enum class SplatUp { PlusY, MinusY };

struct GaussianCloud {
  std::size_t count = 0;
  int shDegree = 0;
  std::vector<float> positions;       // 3 per gaussian
  std::vector<float> covariance;      // 6 per gaussian: c00 c01 c02 c11 c12 c22
  std::vector<std::uint32_t> color;   // packRgba(r, g, b, opacity)
  std::vector<float> shRest;          // 3 * ((degree+1)^2 - 1) per gaussian, as stored (channel-major)
  std::vector<float> shDc;            // 3 per gaussian, as stored, when shDegree > 0 (the colour is view-dependent)
  std::optional<SplatUp> declaredUp;  // the header's "comment up" line, when it has one
  std::size_t bytes() const {
    return (positions.size() + covariance.size() + color.size() + shRest.size() + shDc.size()) * 4;
  }  // held on the CPU
};

Expected<GaussianCloud> parseGaussianPly(std::span<const std::uint8_t> bytes, std::string_view sourceName);
Expected<GaussianCloud> readGaussianPly(const std::filesystem::path& path);

// The bounds of the centres (what a camera frames).
Bounds cloudBounds(const GaussianCloud& cloud);

// One raw gaussian as a .ply stores it (for writing test scenes).
struct RawGaussian {
  std::array<float, 3> position{};
  std::array<float, 3> dc{};  // SH degree-0 coefficients
  float opacityLogit = 0.0f;
  std::array<float, 3> logScale{};
  std::array<float, 4> rotation{1, 0, 0, 0};  // w x y z
  std::vector<float> shRest;                  // f_rest_* (channel-major); zeros when shorter than the degree asks
};
// The header says `up` ("comment up +y": RigLens's own scenes are y up).
std::vector<std::uint8_t> encodeGaussianPly(std::span<const RawGaussian> gaussians, int shDegree = 0,
                                            SplatUp up = SplatUp::PlusY);

}  // namespace riglens::core
