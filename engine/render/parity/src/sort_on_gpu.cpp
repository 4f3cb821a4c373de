#include "riglens/render/parity/sort_on_gpu.h"

#include <QtGui/private/qrhi_p.h>

#include <cstring>

#include "device/compute_buffers.h"

namespace riglens::render {

using core::ErrorCode;
using core::makeError;

core::Expected<std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>>> radixSortOnGpu(
    RhiDevice& device, std::span<const std::uint32_t> keys, std::span<const std::uint32_t> values,
    std::uint32_t keyBits, bool gpuCount, SortAlgorithm algorithm) {
  if (keys.size() != values.size()) return makeError(ErrorCode::Usage, "keys and values differ in length");
  if (keys.empty()) return std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>>{};
  // With the count on the GPU the sort runs over more room than it is told to use.
  const auto n = std::uint32_t(keys.size());
  auto sort = GpuRadixSort::create(device, gpuCount ? n + 5000 : n, keyBits, algorithm);
  if (!sort) return sort.error();
  QRhi* rhi = device.rhi();
  QRhiBufferReadbackResult rk, rv;
  auto ran = runOffscreenComputeFrame(rhi, "sort", [&](QRhiCommandBuffer* cb) {
    QRhiResourceUpdateBatch* upload = rhi->nextResourceUpdateBatch();
    upload->uploadStaticBuffer((*sort)->keys(), 0, int(keys.size() * 4), keys.data());
    upload->uploadStaticBuffer((*sort)->values(), 0, int(values.size() * 4), values.data());
    if (gpuCount) upload->uploadStaticBuffer((*sort)->countBuffer(), 0, 4, &n);
    cb->resourceUpdate(upload);
    if (gpuCount)
      (*sort)->encodeGpuCount(cb);
    else
      (*sort)->encode(cb, n);
    QRhiResourceUpdateBatch* readback = rhi->nextResourceUpdateBatch();
    readback->readBackBuffer((*sort)->sortedKeys(), 0, int(keys.size() * 4), &rk);
    readback->readBackBuffer((*sort)->sortedValues(), 0, int(values.size() * 4), &rv);
    cb->resourceUpdate(readback);
  });
  if (!ran) return ran.error();
  std::pair<std::vector<std::uint32_t>, std::vector<std::uint32_t>> out;
  out.first.resize(keys.size());
  out.second.resize(keys.size());
  std::memcpy(out.first.data(), rk.data.constData(), keys.size() * 4);
  std::memcpy(out.second.data(), rv.data.constData(), keys.size() * 4);
  return out;
}

}  // namespace riglens::render
