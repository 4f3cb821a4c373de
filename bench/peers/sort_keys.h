// The keys the sort benchmarks sort, one definition for both sides:
// bench_render's BM_RadixSortGpu and the CUB peer (cuda_peers.cu, built by
// nvcc on the GPU host, so this header needs nothing but the standard library).
//   hashed  the index through murmur3's 32-bit finaliser: every bit random;
//   lcg     the LCG sequence the tables before 2026-12-03 used.
// Keys of fewer than 32 bits keep the high bits; values are the indices.
#pragma once

#include <cstdint>
#include <vector>

namespace riglens::bench {

inline std::uint32_t murmurFinal(std::uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  return h ^ (h >> 16);
}

inline void makeSortKeys(std::uint32_t n, int bits, bool lcg, std::vector<std::uint32_t>& keys,
                         std::vector<std::uint32_t>& values) {
  keys.resize(n);
  values.resize(n);
  std::uint32_t x = 12345;
  for (std::uint32_t i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    const std::uint32_t key = lcg ? x : murmurFinal(i + 12345u);
    keys[i] = bits < 32 ? key >> (32 - bits) : key;
    values[i] = i;
  }
}

}  // namespace riglens::bench
