// Calibration (contract/DECODERS.md A10): the similarity that takes the rig's
// own deform of the neutral rig (GNM metres, ORL centimetres) onto the branch
// mesh's neutral vertices, plus the per-vertex correction the fit leaves.
#pragma once

#include <span>
#include <string>

#include "riglens/core/base/expected.h"
#include "riglens/core/decoded/uv_lift.h"

namespace riglens::core {

struct Calibration {
  VertexTransform transform;  // L = scale * R, o, corr
  double scale = 1.0;
  double residual = 0.0;   // mean |corr|
  double tolerance = 0.0;  // 0.05 x the neutral's mean distance from its centroid
  bool accepted() const { return residual <= tolerance; }
  std::string describe() const;  // "scale 1, residual 0 (limit 0.004)"
};

// Fits neutral ~ pred L + o (polar iteration, <= 24 steps). Refuses vertex
// counts that differ and a fit that needs a reflection. A fit whose residual
// exceeds the tolerance is returned, not refused: the caller drops the rig
// (the branch renders its neutral) and says so.
Expected<Calibration> calibrate(std::span<const float> pred, std::span<const float> neutral);

}  // namespace riglens::core
