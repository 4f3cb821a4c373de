#pragma once

#include <span>
#include <utility>
#include <vector>

#include "riglens/render/splats/gpu_sort.h"

namespace riglens::render {

// Sorts on the GPU and reads back: (keys non-decreasing, values permuted
// alongside). `keyBits` as GpuRadixSort::create; `gpuCount` sets the count
// through the count buffer (GpuRadixSort::encodeGpuCount) instead of encode().
core::Expected<std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>>> radixSortOnGpu(
    RhiDevice& device, std::span<const std::uint32_t> keys, std::span<const std::uint32_t> values,
    std::uint32_t keyBits = 32, bool gpuCount = false, SortAlgorithm algorithm = SortAlgorithm::Auto);

}  // namespace riglens::render
