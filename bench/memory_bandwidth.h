// The same-run baseline every bench executable reports against: bytes/s a
// plain 64 MiB memcpy moves on this machine (read + write counted).
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace riglens::bench {

inline void BM_MemoryBandwidth(benchmark::State& state) {
  std::vector<std::uint8_t> a(64 << 20, 1), b(64 << 20);
  for (auto _ : state) {
    std::memcpy(b.data(), a.data(), a.size());
    benchmark::DoNotOptimize(b.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * std::int64_t(a.size()) * 2);
}

}  // namespace riglens::bench
