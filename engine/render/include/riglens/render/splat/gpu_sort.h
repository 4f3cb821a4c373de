// A stable GPU radix sort of 32-bit keys with 32-bit values (shaders/
// radix_histogram|scan|scatter.comp): 4 passes of 8 bits, each a per-block
// histogram, one exclusive scan over all blocks, and a stable scatter; the
// splat renderer sorts its depth keys with it. Each kernel runs in its own
// compute pass, so QRhi orders the buffer writes between them.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/render/device/gpu_resources.h"
#include "riglens/render/device/rhi_device.h"

class QRhiBuffer;
class QRhiCommandBuffer;

namespace riglens::render {

class GpuRadixSort {
 public:
  ~GpuRadixSort();
  // Up to `capacity` elements (blocks of 256; the scan is one workgroup, so
  // capacity is bounded by what one invocation can walk, here 16M).
  static core::Expected<std::unique_ptr<GpuRadixSort>> create(RhiDevice& device, std::uint32_t capacity);
  // Records the uploads of `count` keys/values (from `keysIn`/`valuesIn`
  // buffers owned by the caller, or the internal ones) and the 12 passes.
  void encode(QRhiCommandBuffer* cb, std::uint32_t count);
  // Uploads keys/values and sorts them in one offscreen frame; returns when
  // the GPU is done (benchmarks, tools).
  core::Expected<void> runOffscreenFrame(std::span<const std::uint32_t> keys, std::span<const std::uint32_t> values);
  BufferList buffers() const;  // every buffer the sort owns
  QRhiBuffer* keys() const;    // sorted keys after encode (also the input)
  QRhiBuffer* values() const;  // the values, permuted with their keys

 private:
  struct Impl;
  explicit GpuRadixSort(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace riglens::render
