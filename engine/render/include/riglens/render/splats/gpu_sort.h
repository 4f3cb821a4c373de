// A stable GPU radix sort of 32-bit keys with 32-bit values, least
// significant 8-bit digit first; sorting only the low `keyBits` halves the
// passes for 16-bit keys. Two ways through the passes (SortAlgorithm):
// - reduce-then-scan (shaders/radix_upsweep|spine|downsweep.comp): per
//   digit, counts per tile of 2048 keys, one scan per digit across the
//   tiles, a stable scatter; no workgroup waits on another, so it runs on
//   any Vulkan or OpenGL compute device;
// - one-sweep (radix_onesweep_histogram.comp, radix_onesweep.comp): one
//   read counts every digit, then one kernel per digit ranks a tile of 4096
//   keys (8192 from 524,288 keys: fewer tiles to look back over) with
//   subgroup ballots and finds its place by decoupled look-back over the
//   earlier tiles (Vulkan 1.1 with subgroups of 8, 16 or 32).
// Each kernel runs in its own compute pass, so QRhi orders the buffer
// writes between them.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/render/device/gpu_resources.h"
#include "riglens/render/device/rhi_device.h"

class QRhiBuffer;
class QRhiCommandBuffer;

namespace riglens::render {

enum class SortAlgorithm {
  Auto,            // one-sweep where the device runs it, reduce-then-scan elsewhere
  ReduceThenScan,  // three kernels per digit, any compute device
  OneSweep,        // a histogram kernel, then one kernel per digit (Vulkan with subgroups)
};

const char* sortAlgorithmName(SortAlgorithm algorithm);

class GpuRadixSort {
 public:
  ~GpuRadixSort();
  static constexpr std::uint32_t kMaxCapacity = 32u << 20;
  // Up to `capacity` elements (at most kMaxCapacity); keys are sorted on their low
  // `keyBits` bits (1..32; the others must be zero), ceil(keyBits / 8) passes.
  // OneSweep on a device without the subgroups it needs is an Unsupported error.
  static core::Expected<std::unique_ptr<GpuRadixSort>> create(RhiDevice& device, std::uint32_t capacity,
                                                              std::uint32_t keyBits = 32,
                                                              SortAlgorithm algorithm = SortAlgorithm::Auto);
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
  // The name of the sort's GPU time in the Frame panel and bench_render:
  // "<name>" and, for the one-sweep histogram, "<name> histogram". A frame
  // that sorts twice names each ("depth sort", "tile sort"); "sort" by default.
  void setPassName(std::string name);
  SortAlgorithm algorithm() const;  // the one chosen (never Auto)

 private:
  struct Impl;
  explicit GpuRadixSort(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

}  // namespace riglens::render
