#include "riglens/render/parity/sort_on_gpu.h"

#include <QtGui/private/qrhi_p.h>

#include <algorithm>
#include <cstring>

#include "device/compute_buffers.h"

namespace riglens::render {

using core::ErrorCode;
using core::makeError;

namespace {

// One frame: uploads the pairs, sorts them with `sort`, reads them back.
core::Expected<SortedPairs> sortOneFrame(QRhi* rhi, GpuRadixSort& sort, std::span<const std::uint32_t> keys,
                                         std::span<const std::uint32_t> values, bool gpuCount) {
  const auto n = std::uint32_t(keys.size());
  QRhiBufferReadbackResult rk, rv;
  auto ran = runOffscreenComputeFrame(rhi, "sort", [&](QRhiCommandBuffer* cb) {
    QRhiResourceUpdateBatch* upload = rhi->nextResourceUpdateBatch();
    if (n > 0) {
      upload->uploadStaticBuffer(sort.keys(), 0, int(n * 4), keys.data());
      upload->uploadStaticBuffer(sort.values(), 0, int(n * 4), values.data());
    }
    if (gpuCount) upload->uploadStaticBuffer(sort.countBuffer(), 0, 4, &n);
    cb->resourceUpdate(upload);
    if (gpuCount)
      sort.encodeGpuCount(cb);
    else
      sort.encode(cb, n);
    if (n == 0) return;
    QRhiResourceUpdateBatch* readback = rhi->nextResourceUpdateBatch();
    readback->readBackBuffer(sort.sortedKeys(), 0, int(n * 4), &rk);
    readback->readBackBuffer(sort.sortedValues(), 0, int(n * 4), &rv);
    cb->resourceUpdate(readback);
  });
  if (!ran) return ran.error();
  SortedPairs out;
  out.first.resize(n);
  out.second.resize(n);
  if (n > 0) {
    std::memcpy(out.first.data(), rk.data.constData(), std::size_t(n) * 4);
    std::memcpy(out.second.data(), rv.data.constData(), std::size_t(n) * 4);
  }
  return out;
}

// With the count on the GPU the sort runs over more room than it is told to use.
constexpr std::uint32_t kGpuCountSlack = 5000;

}  // namespace

core::Expected<SortedPairs> radixSortOnGpu(RhiDevice& device, std::span<const std::uint32_t> keys,
                                           std::span<const std::uint32_t> values, std::uint32_t keyBits, bool gpuCount,
                                           SortAlgorithm algorithm) {
  if (keys.size() != values.size()) return makeError(ErrorCode::Usage, "keys and values differ in length");
  if (keys.empty()) return SortedPairs{};
  const auto n = std::uint32_t(keys.size());
  auto sort = GpuRadixSort::create(device, gpuCount ? n + kGpuCountSlack : n, keyBits, algorithm);
  if (!sort) return sort.error();
  return sortOneFrame(device.rhi(), **sort, keys, values, gpuCount);
}

core::Expected<std::vector<SortedPairs>> radixSortEachOnGpu(RhiDevice& device,
                                                            const std::vector<std::vector<std::uint32_t>>& keySets,
                                                            std::uint32_t keyBits, bool gpuCount,
                                                            SortAlgorithm algorithm) {
  std::size_t most = 1;
  for (const auto& keys : keySets) most = std::max(most, keys.size());
  auto sort = GpuRadixSort::create(device, std::uint32_t(most) + (gpuCount ? kGpuCountSlack : 0), keyBits, algorithm);
  if (!sort) return sort.error();
  std::vector<SortedPairs> sorted;
  for (const auto& keys : keySets) {
    std::vector<std::uint32_t> values(keys.size());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = std::uint32_t(i);
    auto one = sortOneFrame(device.rhi(), **sort, keys, values, gpuCount);
    if (!one) return one.error();
    sorted.push_back(std::move(*one));
  }
  return sorted;
}

}  // namespace riglens::render
