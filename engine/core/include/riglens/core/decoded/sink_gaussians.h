// A lifted frame as standard 3DGS gaussians: every occupied sink slot
// (colour != 0) becomes position, log-scales and rotation (the covariance's
// eigen-decomposition, right-handed), the degree-0 SH term of its colour and
// its opacity logit, so encodeGaussianPly writes a .ply any splat viewer
// opens (`riglens-cli character splats`).
#pragma once

#include <vector>

#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/core/splats/splat_sink.h"

namespace riglens::core {

std::vector<RawGaussian> sinkGaussians(const SplatSink& sink);

}  // namespace riglens::core
