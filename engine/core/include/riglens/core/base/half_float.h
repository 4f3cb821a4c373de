// IEEE 754 binary16 <-> binary32, as the .aosrig pack stores skin weights and
// (lighter packs) positions. Float -> half rounds to nearest, ties to even;
// overflow gives infinity; NaN stays NaN.
#pragma once

#include <cstdint>

namespace riglens::core {

float halfToFloat(std::uint16_t h);
std::uint16_t floatToHalf(float f);

}  // namespace riglens::core
