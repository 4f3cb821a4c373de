#include "riglens/render/splats/gpu_sort.h"

#include <QtGui/private/qrhi_p.h>

#include "device/compute_buffers.h"
#include "splats/sort_kernels.h"

namespace riglens::render {

using core::ErrorCode;
using core::makeError;

const char* sortAlgorithmName(SortAlgorithm algorithm) {
  switch (algorithm) {
    case SortAlgorithm::Auto: return "auto";
    case SortAlgorithm::ReduceThenScan: return "reduce-then-scan";
    case SortAlgorithm::OneSweep: return "one-sweep";
  }
  return "?";
}

namespace {

// The subgroup sizes radix_onesweep.comp is built for (engine/render/CMakeLists.txt).
bool hasOneSweepBuild(int lanes) {
  return lanes == 8 || lanes == 16 || lanes == 32;
}

}  // namespace

struct GpuRadixSort::Impl {
  QRhi* rhi = nullptr;
  std::uint32_t capacity = 0;
  int passes = 0;
  SortAlgorithm algorithm = SortAlgorithm::ReduceThenScan;
  std::unique_ptr<QRhiBuffer> keys[2], values[2], count;
  std::unique_ptr<SortKernels> kernels;
  std::string passName = "sort";

  void record(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch, std::uint32_t elements, bool countOnGpu) {
    kernels->record(cb, batch, elements, countOnGpu, passName);
    markPass(rhi, cb, passName);
  }
};

GpuRadixSort::GpuRadixSort(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
GpuRadixSort::~GpuRadixSort() = default;

core::Expected<std::unique_ptr<GpuRadixSort>> GpuRadixSort::create(RhiDevice& device, std::uint32_t capacity,
                                                                   std::uint32_t keyBits, SortAlgorithm algorithm) {
  if (!device.supportsCompute()) return makeError(ErrorCode::Unsupported, "the GPU backend has no compute shaders");
  // 32M: 128 MiB per buffer, the storage binding limit of lavapipe (and of the Vulkan spec's minimum guarantee).
  if (capacity == 0 || capacity > kMaxCapacity) return makeError(ErrorCode::Usage, "sort capacity must be 1..32M");
  if (keyBits == 0 || keyBits > 32) return makeError(ErrorCode::Usage, "sort key bits must be 1..32");
  const int lanes = device.subgroupLanes();
  const bool chosenHere = algorithm == SortAlgorithm::Auto;
  if (chosenHere) algorithm = hasOneSweepBuild(lanes) ? SortAlgorithm::OneSweep : SortAlgorithm::ReduceThenScan;
  if (algorithm == SortAlgorithm::OneSweep && !hasOneSweepBuild(lanes))
    return makeError(ErrorCode::Unsupported,
                     "the one-sweep sort needs Vulkan 1.1 with subgroups of 8, 16 or 32 "
                     "invocations (this device: " +
                         std::to_string(lanes) + ")");
  auto d = std::make_unique<Impl>();
  QRhi* rhi = d->rhi = device.rhi();
  d->capacity = capacity;
  d->passes = int((keyBits + 7) / 8);
  d->algorithm = algorithm;
  for (int k = 0; k < 2; ++k) {
    d->keys[k] = newStorageBuffer(rhi, std::size_t(capacity) * 4);
    d->values[k] = newStorageBuffer(rhi, std::size_t(capacity) * 4);
    if (!d->keys[k] || !d->values[k]) return makeError(ErrorCode::Gpu, "cannot allocate the sort buffers");
  }
  d->count = newStorageBuffer(rhi, 4);
  if (!d->count) return makeError(ErrorCode::Gpu, "cannot allocate the sort count");
  const SortBuffers shared{rhi,
                           {d->keys[0].get(), d->keys[1].get()},
                           {d->values[0].get(), d->values[1].get()},
                           d->count.get(),
                           capacity,
                           d->passes};
  auto kernels =
      algorithm == SortAlgorithm::OneSweep ? makeOneSweepKernels(shared, lanes) : makeReduceThenScanKernels(shared);
  if (!kernels && chosenHere && algorithm == SortAlgorithm::OneSweep) {
    // A driver that refuses the subgroup kernel still sorts, the portable way.
    qWarning("riglens: the one-sweep sort is unavailable (%s); sorting with reduce-then-scan",
             kernels.error().message.c_str());
    d->algorithm = SortAlgorithm::ReduceThenScan;
    kernels = makeReduceThenScanKernels(shared);
  }
  if (!kernels) return kernels.error();
  d->kernels = std::move(*kernels);
  return std::unique_ptr<GpuRadixSort>(new GpuRadixSort(std::move(d)));
}

void GpuRadixSort::encode(QRhiCommandBuffer* cb, std::uint32_t count) {
  Impl& d = *m_impl;
  d.record(cb, d.rhi->nextResourceUpdateBatch(), std::min(count, d.capacity), false);
}

void GpuRadixSort::encodeGpuCount(QRhiCommandBuffer* cb) {
  Impl& d = *m_impl;
  d.record(cb, d.rhi->nextResourceUpdateBatch(), d.capacity, true);
}

core::Expected<void> GpuRadixSort::runOffscreenFrame(std::span<const std::uint32_t> keys,
                                                     std::span<const std::uint32_t> values) {
  QRhi* rhi = m_impl->rhi;
  const auto n = std::uint32_t(std::min<std::size_t>({keys.size(), values.size(), m_impl->capacity}));
  return runOffscreenComputeFrame(rhi, "sort", [&](QRhiCommandBuffer* cb) {
    if (n > 0) {
      QRhiResourceUpdateBatch* upload = rhi->nextResourceUpdateBatch();
      upload->uploadStaticBuffer(this->keys(), 0, int(n * 4), keys.data());
      upload->uploadStaticBuffer(this->values(), 0, int(n * 4), values.data());
      cb->resourceUpdate(upload);
      markPass(rhi, cb, "upload");  // the sort's own GPU time starts after the copy
    }
    encode(cb, n);
  });
}

void GpuRadixSort::setPassName(std::string name) {
  m_impl->passName = std::move(name);
}

BufferList GpuRadixSort::buffers() const {
  const Impl& d = *m_impl;
  BufferList list{bufferBytes("sort keys A", d.keys[0].get()), bufferBytes("sort keys B", d.keys[1].get()),
                  bufferBytes("sort values A", d.values[0].get()), bufferBytes("sort values B", d.values[1].get()),
                  bufferBytes("sort count", d.count.get())};
  for (auto& buffer : d.kernels->buffers()) list.push_back(std::move(buffer));
  return list;
}

QRhiBuffer* GpuRadixSort::keys() const {
  return m_impl->keys[0].get();
}
QRhiBuffer* GpuRadixSort::values() const {
  return m_impl->values[0].get();
}
QRhiBuffer* GpuRadixSort::sortedKeys() const {
  return m_impl->keys[m_impl->passes % 2].get();
}
QRhiBuffer* GpuRadixSort::sortedValues() const {
  return m_impl->values[m_impl->passes % 2].get();
}
QRhiBuffer* GpuRadixSort::countBuffer() const {
  return m_impl->count.get();
}
std::uint32_t GpuRadixSort::capacity() const {
  return m_impl->capacity;
}
int GpuRadixSort::passCount() const {
  return m_impl->passes;
}
SortAlgorithm GpuRadixSort::algorithm() const {
  return m_impl->algorithm;
}

}  // namespace riglens::render
