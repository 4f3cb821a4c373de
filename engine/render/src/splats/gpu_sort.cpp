#include "riglens/render/splats/gpu_sort.h"

#include <QtGui/private/qrhi_p.h>

#include <array>
#include <cstring>

#include "device/compute_buffers.h"
#include "device/gpu_layouts.h"
#include "device/shader_library.h"

namespace riglens::render {

using core::ErrorCode;
using core::makeError;

namespace {
constexpr std::uint32_t kTile = gpu::kSortTileKeys;
constexpr int kMaxPasses = 4;

std::uint32_t tilesFor(std::uint32_t count) {
  return (count + kTile - 1) / kTile;
}
}  // namespace

struct GpuRadixSort::Impl {
  QRhi* rhi = nullptr;
  std::uint32_t capacity = 0;
  int passes = 0;
  std::unique_ptr<QRhiBuffer> keys[2], values[2], tileHist, digitTotals, count;
  // One uniform buffer per pass (dynamic buffers hold one value per frame)
  // and one binding set per pass and kernel, each declaring exactly what the
  // kernel reads and writes: Qt 6.4 puts no barrier between two passes that
  // declare the same access to a buffer, even a write (measured on the
  // H200: one shared set made every sort race).
  std::array<std::unique_ptr<QRhiBuffer>, kMaxPasses> params;
  std::array<std::unique_ptr<QRhiShaderResourceBindings>, kMaxPasses> upSrb, spineSrb, downSrb;
  std::unique_ptr<QRhiComputePipeline> upsweep, spine, downsweep;

  // The passes over `elements` (the count, or the capacity when the GPU sets the count).
  void record(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch, std::uint32_t elements) {
    const std::uint32_t tiles = tilesFor(elements);
    for (int pass = 0; pass < passes; ++pass) {
      const gpu::SortParams p{elements, std::uint32_t(pass * 8), tiles, 0};
      batch->updateDynamicBuffer(params[std::size_t(pass)].get(), 0, sizeof(p), &p);
    }
    cb->resourceUpdate(batch);
    if (tiles == 0) return;
    for (std::size_t pass = 0; pass < std::size_t(passes); ++pass) {
      dispatchComputePass(cb, nullptr, upsweep.get(), upSrb[pass].get(), int(tiles));
      dispatchComputePass(cb, nullptr, spine.get(), spineSrb[pass].get(), 256);
      dispatchComputePass(cb, nullptr, downsweep.get(), downSrb[pass].get(), int(tiles));
    }
    markPass(rhi, cb, "sort");
  }
};

GpuRadixSort::GpuRadixSort(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
GpuRadixSort::~GpuRadixSort() = default;

core::Expected<std::unique_ptr<GpuRadixSort>> GpuRadixSort::create(RhiDevice& device, std::uint32_t capacity,
                                                                   std::uint32_t keyBits) {
  if (!device.supportsCompute()) return makeError(ErrorCode::Unsupported, "the GPU backend has no compute shaders");
  // 32M: 128 MiB per buffer, the storage binding limit of lavapipe (and of the Vulkan spec's minimum guarantee).
  if (capacity == 0 || capacity > kMaxCapacity) return makeError(ErrorCode::Usage, "sort capacity must be 1..32M");
  if (keyBits == 0 || keyBits > 32) return makeError(ErrorCode::Usage, "sort key bits must be 1..32");
  auto up = loadShader("radix_upsweep.comp"), sp = loadShader("radix_spine.comp"),
       down = loadShader("radix_downsweep.comp");
  if (!up) return up.error();
  if (!sp) return sp.error();
  if (!down) return down.error();
  auto d = std::make_unique<Impl>();
  QRhi* rhi = d->rhi = device.rhi();
  d->capacity = capacity;
  d->passes = int((keyBits + 7) / 8);
  for (int k = 0; k < 2; ++k) {
    d->keys[k] = newStorageBuffer(rhi, std::size_t(capacity) * 4);
    d->values[k] = newStorageBuffer(rhi, std::size_t(capacity) * 4);
    if (!d->keys[k] || !d->values[k]) return makeError(ErrorCode::Gpu, "cannot allocate the sort buffers");
  }
  d->tileHist = newStorageBuffer(rhi, std::size_t(tilesFor(capacity)) * 256 * 4);
  d->digitTotals = newStorageBuffer(rhi, 256 * 4);
  d->count = newStorageBuffer(rhi, 4);
  if (!d->tileHist || !d->digitTotals || !d->count)
    return makeError(ErrorCode::Gpu, "cannot allocate the sort histograms");
  const auto stage = QRhiShaderResourceBinding::ComputeStage;
  using B = QRhiShaderResourceBinding;
  for (int pass = 0; pass < d->passes; ++pass) {
    const auto slot = std::size_t(pass);
    d->params[slot].reset(rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, sizeof(gpu::SortParams)));
    if (!d->params[slot]->create()) return makeError(ErrorCode::Gpu, "cannot allocate the sort parameters");
    const int src = pass % 2, dst = 1 - src;  // A -> B -> A -> B
    QRhiBuffer* params = d->params[slot].get();
    d->upSrb[slot] = newBindings(rhi, {B::uniformBuffer(gpu::kSortParamsBinding, stage, params),
                                       B::bufferLoad(gpu::kSortCount, stage, d->count.get()),
                                       B::bufferLoad(gpu::kSortKeysIn, stage, d->keys[src].get()),
                                       B::bufferStore(gpu::kSortTileHist, stage, d->tileHist.get())});
    d->spineSrb[slot] = newBindings(rhi, {B::uniformBuffer(gpu::kSortParamsBinding, stage, params),
                                          B::bufferLoad(gpu::kSortCount, stage, d->count.get()),
                                          B::bufferLoadStore(gpu::kSortTileHist, stage, d->tileHist.get()),
                                          B::bufferStore(gpu::kSortDigitTotals, stage, d->digitTotals.get())});
    d->downSrb[slot] = newBindings(rhi, {B::uniformBuffer(gpu::kSortParamsBinding, stage, params),
                                         B::bufferLoad(gpu::kSortCount, stage, d->count.get()),
                                         B::bufferLoad(gpu::kSortKeysIn, stage, d->keys[src].get()),
                                         B::bufferLoad(gpu::kSortValuesIn, stage, d->values[src].get()),
                                         B::bufferLoad(gpu::kSortTileHist, stage, d->tileHist.get()),
                                         B::bufferLoad(gpu::kSortDigitTotals, stage, d->digitTotals.get()),
                                         B::bufferStore(gpu::kSortKeysOut, stage, d->keys[dst].get()),
                                         B::bufferStore(gpu::kSortValuesOut, stage, d->values[dst].get())});
    if (!d->upSrb[slot] || !d->spineSrb[slot] || !d->downSrb[slot])
      return makeError(ErrorCode::Gpu, "cannot create the sort bindings");
  }
  d->upsweep = newComputePipeline(rhi, *up, d->upSrb[0].get());
  d->spine = newComputePipeline(rhi, *sp, d->spineSrb[0].get());
  d->downsweep = newComputePipeline(rhi, *down, d->downSrb[0].get());
  if (!d->upsweep || !d->spine || !d->downsweep) return makeError(ErrorCode::Gpu, "cannot create the sort pipelines");
  return std::unique_ptr<GpuRadixSort>(new GpuRadixSort(std::move(d)));
}

void GpuRadixSort::encode(QRhiCommandBuffer* cb, std::uint32_t count) {
  Impl& d = *m_impl;
  count = std::min(count, d.capacity);
  QRhiResourceUpdateBatch* batch = d.rhi->nextResourceUpdateBatch();
  batch->uploadStaticBuffer(d.count.get(), 0, 4, &count);
  d.record(cb, batch, count);
}

void GpuRadixSort::encodeGpuCount(QRhiCommandBuffer* cb) {
  Impl& d = *m_impl;
  d.record(cb, d.rhi->nextResourceUpdateBatch(), d.capacity);
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

BufferList GpuRadixSort::buffers() const {
  const Impl& d = *m_impl;
  BufferList list{
      bufferBytes("sort keys A", d.keys[0].get()),       bufferBytes("sort keys B", d.keys[1].get()),
      bufferBytes("sort values A", d.values[0].get()),   bufferBytes("sort values B", d.values[1].get()),
      bufferBytes("sort tile counts", d.tileHist.get()), bufferBytes("sort digit totals", d.digitTotals.get()),
      bufferBytes("sort count", d.count.get())};
  std::size_t params = 0;
  for (const auto& p : d.params)
    if (p) params += std::size_t(p->size());
  list.push_back({"sort parameters", params});
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

}  // namespace riglens::render
