// Colours packed as one RGBA word, like GLSL's pack4x8unorm: what vertex
// tints, splat colours and the lift write (contract/CHARACTER.md section 6).
#pragma once

#include <array>
#include <cstdint>

namespace riglens::core {

// Clamped to [0,1]; r in the low byte: packRgba(1,0,0,1) == 0xff0000ff.
std::uint32_t packRgba(float r, float g, float b, float a = 1.0f);
std::array<float, 4> unpackRgba(std::uint32_t packed);

}  // namespace riglens::core
