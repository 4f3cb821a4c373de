// What the CPU the process runs on can do, for the few loops that carry an
// AVX2 variant beside their portable one (built for baseline x86-64, chosen
// at run time).
#pragma once

namespace riglens::core {

// AVX2, FMA and F16C, and an OS that saves the YMM registers (CPUID and
// XGETBV; false on other architectures). RIGLENS_SIMD=off in the
// environment makes it false: the portable loops everywhere, to compare the
// two or to rule a vector path out (read at each call: a test sets it).
bool cpuHasAvx2FmaF16c();

}  // namespace riglens::core
