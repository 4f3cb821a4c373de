#include "cpu_features.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <cstdlib>
#include <cstring>

namespace riglens::core {

// From CPUID rather than GCC's __builtin_cpu_supports, which knows "f16c"
// where clang 14's does not.
bool cpuHasAvx2FmaF16c() {
  if (const char* simd = std::getenv("RIGLENS_SIMD"); simd && std::strcmp(simd, "off") == 0) return false;
#if defined(__x86_64__) || defined(__i386__)
  static const bool has = [] {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    const bool fma = c & (1u << 12), osxsave = c & (1u << 27), avx = c & (1u << 28), f16c = c & (1u << 29);
    if (!fma || !osxsave || !avx || !f16c) return false;
    unsigned xcr0 = 0, high = 0;
    __asm__("xgetbv" : "=a"(xcr0), "=d"(high) : "c"(0));
    if ((xcr0 & 6u) != 6u) return false;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    return (b & (1u << 5)) != 0;  // AVX2
  }();
  return has;
#else
  return false;
#endif
}

}  // namespace riglens::core
