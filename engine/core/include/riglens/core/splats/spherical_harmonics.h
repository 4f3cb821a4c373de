// View-dependent colour of a 3DGS gaussian: real spherical harmonics of
// degree 0-3 as the 3D Gaussian Splatting reference evaluates them (Kerbl et
// al. 2023, utils/sh_utils.py eval_sh; the standard real-SH constants), with
// the .ply's f_rest_* stored channel-major (coefficient k of channel c at
// c * K + k, K = (degree+1)^2 - 1). The CPU reference of splat_project.comp.
#pragma once

#include <glm/vec3.hpp>

namespace riglens::core {

inline constexpr float kShC0 = 0.28209479177387814f;

// rgb = max(0, 0.5 + C0 dc + sum of the higher bands at `dir` (unit, from the
// camera towards the gaussian)).
glm::vec3 shColor(const float* dc, const float* rest, int degree, glm::vec3 dir);

}  // namespace riglens::core
