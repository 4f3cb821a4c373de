#pragma once

#include <span>
#include <utility>
#include <vector>

#include "riglens/render/splats/gpu_sort.h"

namespace riglens::render {

using SortedPairs = std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>>;

// Sorts on the GPU and reads back: (keys non-decreasing, values permuted
// alongside). `keyBits` as GpuRadixSort::create; `gpuCount` sets the count
// through the count buffer (GpuRadixSort::encodeGpuCount) instead of encode().
core::Expected<SortedPairs> radixSortOnGpu(RhiDevice& device, std::span<const std::uint32_t> keys,
                                           std::span<const std::uint32_t> values, std::uint32_t keyBits = 32,
                                           bool gpuCount = false, SortAlgorithm algorithm = SortAlgorithm::Auto);

// The same, for several key sets sorted one after the other by one sort, a
// frame each, as a renderer sorts frame after frame (what one sort leaves in
// its own buffers must not reach the next); each set's values are 0..n-1.
core::Expected<std::vector<SortedPairs>> radixSortEachOnGpu(RhiDevice& device,
                                                            const std::vector<std::vector<std::uint32_t>>& keySets,
                                                            std::uint32_t keyBits, bool gpuCount,
                                                            SortAlgorithm algorithm);

}  // namespace riglens::render
