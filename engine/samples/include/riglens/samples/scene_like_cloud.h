// A generated cloud shaped like a trained 3DGS capture (an outdoor scene of
// the Mip-NeRF 360 kind), for benchmarks against other rasterisers: the tori
// are regular, a trained scene is not. Deterministic for a given count.
#pragma once

#include <cstddef>
#include <vector>

#include "riglens/core/base/bounds.h"
#include "riglens/core/splats/gaussian_ply.h"

namespace riglens::samples {

// Its SH degree: trained scenes keep degree 3 (45 f_rest_* per gaussian).
inline constexpr int kSceneLikeShDegree = 3;

// `count` gaussians, y up, in metres:
// - 30% on a ground disc of 8 m radius (under the cameras too);
// - 40% on six spheres (the objects in the middle);
// - 15% in three bush-like blobs, in no particular orientation;
// - 15% on a far shell (8 to 25 m: the background and sky).
// What makes it trained-scene-like:
// - Surface gaussians are flat: the axis along the normal is 5-20% of the
//   other two, which differ from each other by up to 3x.
// - Sizes are log-normal (sigma 0.5-0.7 in log space) and grow with the
//   distance from the middle, as densification leaves them.
// - Opacities are bimodal: 40% faint (logit ~ N(-3, 1.2), ~5%), the rest
//   nearly opaque (logit ~ N(3.5, 1.5)).
// - Colours are a base per part plus noise.
// - The SH rest is small noise that falls off with the degree
//   (sigma 0.08, 0.04, 0.02).
std::vector<core::RawGaussian> makeSceneLikeCloud(std::size_t count);

// What a camera frames (the objects on the ground): most of the ground and
// all of the shell lie beyond it, off screen or far, as in a capture's view.
core::Bounds sceneLikeCloudFocus();

}  // namespace riglens::samples
