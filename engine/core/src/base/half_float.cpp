#include "riglens/core/base/half_float.h"

#include <cstring>

namespace riglens::core {

float halfToFloat(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
  std::uint32_t exponent = (h >> 10) & 0x1fu;
  std::uint32_t mantissa = h & 0x3ffu;
  std::uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;  // +-0
    } else {        // subnormal: normalise
      exponent = 127 - 15 + 1;
      while (!(mantissa & 0x400u)) {
        mantissa <<= 1;
        --exponent;
      }
      bits = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
    }
  } else if (exponent == 31) {
    bits = sign | 0x7f800000u | (mantissa << 13);  // inf / NaN
  } else {
    bits = sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
  }
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

std::uint16_t floatToHalf(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  const std::uint16_t sign = std::uint16_t((bits >> 16) & 0x8000u);
  const std::uint32_t exponent = (bits >> 23) & 0xffu;
  std::uint32_t mantissa = bits & 0x7fffffu;
  if (exponent == 0xff) return sign | 0x7c00u | (mantissa ? 0x200u : 0u);  // inf / NaN
  const int e = int(exponent) - 127 + 15;
  if (e >= 31) return sign | 0x7c00u;  // overflow -> inf
  if (e <= 0) {
    if (e < -10) return sign;  // underflow -> 0
    // Subnormal: shift the implicit bit in, round to nearest even.
    mantissa |= 0x800000u;
    const int shift = 14 - e;
    const std::uint32_t half = 1u << (shift - 1);
    const std::uint32_t rest = mantissa & ((1u << shift) - 1);
    std::uint32_t value = mantissa >> shift;
    if (rest > half || (rest == half && (value & 1u))) ++value;
    return std::uint16_t(sign | value);
  }
  std::uint32_t value = (std::uint32_t(e) << 10) | (mantissa >> 13);
  const std::uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (value & 1u))) ++value;  // may carry into the exponent: correct
  return std::uint16_t(sign | value);
}

}  // namespace riglens::core
