// The two ways GpuRadixSort runs its passes over the same key and value
// buffers. Private to engine/render.
#pragma once

#include <QtGui/private/qrhi_p.h>

#include <cstdint>
#include <memory>
#include <string>

#include "riglens/core/base/expected.h"
#include "riglens/render/device/gpu_resources.h"

namespace riglens::render {

// What the sort owns and both kernel sets work on: keys[0]/values[0] hold the
// input; a pass reads one pair and writes the other (A -> B -> A ...).
struct SortBuffers {
  QRhi* rhi = nullptr;
  QRhiBuffer* keys[2] = {};
  QRhiBuffer* values[2] = {};
  QRhiBuffer* count = nullptr;  // one uint: how many elements, when the GPU sets it
  std::uint32_t capacity = 0;
  int passes = 0;  // 8-bit digits sorted
};

class SortKernels {
 public:
  virtual ~SortKernels() = default;
  // Records every pass over `elements` (the count, or with `countOnGpu` the
  // capacity, the count buffer saying how many) after `batch`'s updates,
  // which it submits; a kernel timed on its own is marked "<sortPass> <kernel>".
  virtual void record(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch, std::uint32_t elements, bool countOnGpu,
                      const std::string& sortPass) = 0;
  virtual BufferList buffers() const = 0;  // the kernels' own buffers
};

// The most 8-bit digit passes a sort runs: a 32-bit key's four.
inline constexpr int kSortMaxPasses = 4;

// The tiles of `tileKeys` keys that `count` keys fill.
constexpr std::uint32_t tilesOf(std::uint32_t count, std::uint32_t tileKeys) {
  return (count + tileKeys - 1) / tileKeys;
}

// A kernel set's uniform buffers, one entry of buffers().
template <class UniformBuffers>
BufferBytes parameterBytes(const UniformBuffers& params) {
  std::size_t bytes = 0;
  for (const auto& p : params)
    if (p) bytes += std::size_t(p->size());
  return {"sort parameters", bytes};
}

// Three kernels per digit (counts per tile, a scan per digit, a stable
// scatter): any compute device, OpenGL included.
core::Expected<std::unique_ptr<SortKernels>> makeReduceThenScanKernels(const SortBuffers& sort);

// One histogram kernel, then one kernel per digit that ranks with subgroup
// ballots and looks back over the earlier tiles: Vulkan with subgroups of
// `lanes` (8, 16 or 32) invocations.
core::Expected<std::unique_ptr<SortKernels>> makeOneSweepKernels(const SortBuffers& sort, int lanes);

}  // namespace riglens::render
