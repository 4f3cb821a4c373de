// A stable GPU radix sort of 32-bit keys with 32-bit values (shaders/
// radix_upsweep|spine|downsweep.comp): least significant digit first, 8 bits
// per pass, each pass a reduce-then-scan over tiles of 2048 keys — per-tile
// digit counts, one scan per digit across the tiles, a stable scatter. No
// workgroup waits on another (no decoupled look-back), so it runs on any
// Vulkan or OpenGL compute device, lavapipe included. Sorting only the low
// `keyBits` halves the passes for 16-bit keys. Each kernel runs in its own
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
  static constexpr std::uint32_t kMaxCapacity = 32u << 20;
  // Up to `capacity` elements (at most kMaxCapacity); keys are sorted on their low
  // `keyBits` bits (1..32; the others must be zero), ceil(keyBits / 8) passes.
  static core::Expected<std::unique_ptr<GpuRadixSort>> create(RhiDevice& device, std::uint32_t capacity,
                                                              std::uint32_t keyBits = 32);
  // Records the sort of the first `count` elements of keys()/values().
  void encode(QRhiCommandBuffer* cb, std::uint32_t count);
  // Records the sort of as many elements as countBuffer() holds when the GPU
  // gets there (a pass earlier in the frame wrote it), at most the capacity.
  void encodeGpuCount(QRhiCommandBuffer* cb);
  // Uploads keys/values and sorts them in one offscreen frame; returns when
  // the GPU is done (benchmarks, tools).
  core::Expected<void> runOffscreenFrame(std::span<const std::uint32_t> keys, std::span<const std::uint32_t> values);
  BufferList buffers() const;        // every buffer the sort owns
  QRhiBuffer* keys() const;          // the input keys
  QRhiBuffer* values() const;        // the input values
  QRhiBuffer* sortedKeys() const;    // the keys after the sort (keys() when the pass count is even)
  QRhiBuffer* sortedValues() const;  // the values, permuted with their keys
  QRhiBuffer* countBuffer() const;   // one uint: the element count of encodeGpuCount
  std::uint32_t capacity() const;
  int passCount() const;

 private:
  struct Impl;
  explicit GpuRadixSort(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace riglens::render
