// The degree-0 spherical-harmonics factor, 1 / (2 sqrt(pi)), in double: the
// sample clouds turn a colour into its dc term (colour = 0.5 + C0 * dc) in
// double before storing floats (core's kShC0 is the renderer's float).
#pragma once

namespace riglens::samples {

inline constexpr double kShC0 = 0.28209479177387814;

}  // namespace riglens::samples
