// How a 3DGS scene stands in the world, and what a camera frames of it.
//
// The up axis: a .ply does not say (RigLens's own line aside, SplatUp), and
// trained scenes are y down. SuperSplat turns every .ply it loads 180 degrees
// about z; Spark's examples turn theirs 180 degrees about x: both show
// COLMAP's -y as up. RigLens shows -y up unless the file says "+y", and the
// viewer and the CLI (`--up`) flip it.
//
// The framing: a trained scene's floaters can lie 100x farther out than its
// subject, so a camera frames the dense part of the cloud.
#pragma once

#include <glm/mat4x4.hpp>
#include <optional>
#include <string_view>

#include "riglens/core/base/bounds.h"
#include "riglens/core/splats/gaussian_ply.h"

namespace riglens::core {

// The file's "comment up" line, else -y (a trainer's output).
SplatUp defaultSplatUp(const GaussianCloud& cloud);
SplatUp flippedUp(SplatUp up);
const char* splatUpName(SplatUp up);  // "+y" or "-y"
// "+y" / "y" / "-y"; nullopt for anything else.
std::optional<SplatUp> parseSplatUp(std::string_view text);

// The cloud's coordinates to the world's: the identity for +y; for -y a half
// turn about z, (x, y, z) -> (-x, -y, z), as SuperSplat turns it (a rotation,
// so view-dependent colour needs no change: the renderer sees the eye in the
// cloud's own coordinates).
glm::mat4 splatToWorld(SplatUp up);

// The share of centres cut off each side of each axis when framing: a
// trained scene's floaters are a small fraction of its gaussians.
inline constexpr double kFramingOutlierShare = 0.01;
// Clouds smaller than this are framed whole (too few points for quantiles to
// tell floaters from the subject).
inline constexpr std::size_t kFramingQuantileMinimum = 200;

// Per axis, the box between the kFramingOutlierShare and 1 - that quantiles
// of the centres, in the cloud's coordinates.
Bounds denseCloudBounds(const GaussianCloud& cloud);

}  // namespace riglens::core
