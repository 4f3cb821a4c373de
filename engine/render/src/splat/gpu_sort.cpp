#include "riglens/render/splat/gpu_sort.h"

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
// Each workgroup of the three kernels takes one block of keys.
constexpr std::uint32_t kBlock = gpu::kSortGroupSize;
}  // namespace

struct GpuRadixSort::Impl {
  QRhi* rhi = nullptr;
  std::uint32_t capacity = 0, blocks = 0;
  std::unique_ptr<QRhiBuffer> keys[2], values[2], hist;
  std::array<std::unique_ptr<QRhiBuffer>, 4> params;  // one per digit: dynamic buffers hold one value per frame
  std::array<std::unique_ptr<QRhiShaderResourceBindings>, 4> histSrb, scanSrb, scatterSrb;
  std::unique_ptr<QRhiComputePipeline> histPipe, scanPipe, scatterPipe;
};

GpuRadixSort::GpuRadixSort(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
GpuRadixSort::~GpuRadixSort() = default;

core::Expected<std::unique_ptr<GpuRadixSort>> GpuRadixSort::create(RhiDevice& device, std::uint32_t capacity) {
  if (!device.supportsCompute()) return makeError(ErrorCode::Unsupported, "the GPU backend has no compute shaders");
  if (capacity == 0 || capacity > (16u << 20)) return makeError(ErrorCode::Usage, "sort capacity must be 1..16M");
  auto hs = loadShader("radix_histogram.comp"), ss = loadShader("radix_scan.comp"),
       cs = loadShader("radix_scatter.comp");
  if (!hs) return hs.error();
  if (!ss) return ss.error();
  if (!cs) return cs.error();
  auto d = std::make_unique<Impl>();
  d->rhi = device.rhi();
  d->capacity = capacity;
  d->blocks = (capacity + kBlock - 1) / kBlock;
  QRhi* rhi = d->rhi;
  const auto storage = [rhi](std::size_t bytes) {
    std::unique_ptr<QRhiBuffer> b(rhi->newBuffer(QRhiBuffer::Static, QRhiBuffer::StorageBuffer, int(bytes)));
    return b->create() ? std::move(b) : nullptr;
  };
  for (int k = 0; k < 2; ++k) {
    d->keys[k] = storage(std::size_t(capacity) * 4);
    d->values[k] = storage(std::size_t(capacity) * 4);
    if (!d->keys[k] || !d->values[k]) return makeError(ErrorCode::Gpu, "cannot allocate the sort buffers");
  }
  d->hist = storage(std::size_t(d->blocks) * kBlock * 4);
  if (!d->hist) return makeError(ErrorCode::Gpu, "cannot allocate the sort histogram");
  const auto stage = QRhiShaderResourceBinding::ComputeStage;
  for (int pass = 0; pass < 4; ++pass) {
    d->params[pass].reset(rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, sizeof(gpu::SortParams)));
    if (!d->params[pass]->create()) return makeError(ErrorCode::Gpu, "cannot allocate the sort parameters");
    const int src = pass % 2, dst = 1 - src;  // A -> B -> A -> B -> A
    d->histSrb[pass].reset(rhi->newShaderResourceBindings());
    d->histSrb[pass]->setBindings(
        {QRhiShaderResourceBinding::uniformBuffer(gpu::kSortParamsBinding, stage, d->params[pass].get()),
         QRhiShaderResourceBinding::bufferLoad(gpu::kHistogramKeys, stage, d->keys[src].get()),
         QRhiShaderResourceBinding::bufferStore(gpu::kHistogramCounts, stage, d->hist.get())});
    d->scanSrb[pass].reset(rhi->newShaderResourceBindings());
    d->scanSrb[pass]->setBindings(
        {QRhiShaderResourceBinding::uniformBuffer(gpu::kSortParamsBinding, stage, d->params[pass].get()),
         QRhiShaderResourceBinding::bufferLoadStore(gpu::kScanCounts, stage, d->hist.get())});
    d->scatterSrb[pass].reset(rhi->newShaderResourceBindings());
    d->scatterSrb[pass]->setBindings(
        {QRhiShaderResourceBinding::uniformBuffer(gpu::kSortParamsBinding, stage, d->params[pass].get()),
         QRhiShaderResourceBinding::bufferLoad(gpu::kScatterKeysIn, stage, d->keys[src].get()),
         QRhiShaderResourceBinding::bufferLoad(gpu::kScatterValuesIn, stage, d->values[src].get()),
         QRhiShaderResourceBinding::bufferLoad(gpu::kScatterCounts, stage, d->hist.get()),
         QRhiShaderResourceBinding::bufferStore(gpu::kScatterKeysOut, stage, d->keys[dst].get()),
         QRhiShaderResourceBinding::bufferStore(gpu::kScatterValuesOut, stage, d->values[dst].get())});
    if (!d->histSrb[pass]->create() || !d->scanSrb[pass]->create() || !d->scatterSrb[pass]->create())
      return makeError(ErrorCode::Gpu, "cannot create the sort bindings");
  }
  const auto pipeline = [rhi](const QShader& shader, QRhiShaderResourceBindings* layout) {
    std::unique_ptr<QRhiComputePipeline> p(rhi->newComputePipeline());
    p->setShaderStage({QRhiShaderStage::Compute, shader});
    p->setShaderResourceBindings(layout);
    return p->create() ? std::move(p) : nullptr;
  };
  d->histPipe = pipeline(*hs, d->histSrb[0].get());
  d->scanPipe = pipeline(*ss, d->scanSrb[0].get());
  d->scatterPipe = pipeline(*cs, d->scatterSrb[0].get());
  if (!d->histPipe || !d->scanPipe || !d->scatterPipe)
    return makeError(ErrorCode::Gpu, "cannot create the sort pipelines");
  return std::unique_ptr<GpuRadixSort>(new GpuRadixSort(std::move(d)));
}

void GpuRadixSort::encode(QRhiCommandBuffer* cb, std::uint32_t count) {
  Impl& d = *m_impl;
  count = std::min(count, d.capacity);
  const std::uint32_t blocks = (count + kBlock - 1) / kBlock;
  QRhiResourceUpdateBatch* batch = d.rhi->nextResourceUpdateBatch();
  for (int pass = 0; pass < 4; ++pass) {
    const gpu::SortParams p{count, std::uint32_t(pass * 8), blocks, 0};
    batch->updateDynamicBuffer(d.params[pass].get(), 0, sizeof(p), &p);
  }
  cb->resourceUpdate(batch);
  if (blocks == 0) return;
  for (int pass = 0; pass < 4; ++pass) {
    // One compute pass per kernel: QRhi puts the barriers between passes.
    dispatchComputePass(cb, nullptr, d.histPipe.get(), d.histSrb[pass].get(), int(blocks));
    dispatchComputePass(cb, nullptr, d.scanPipe.get(), d.scanSrb[pass].get(), 1);
    dispatchComputePass(cb, nullptr, d.scatterPipe.get(), d.scatterSrb[pass].get(), int(blocks));
  }
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
    }
    encode(cb, n);
  });
}

BufferList GpuRadixSort::buffers() const {
  const Impl& d = *m_impl;
  BufferList list{bufferBytes("sort keys A", d.keys[0].get()), bufferBytes("sort keys B", d.keys[1].get()),
                  bufferBytes("sort values A", d.values[0].get()), bufferBytes("sort values B", d.values[1].get()),
                  bufferBytes("sort histogram", d.hist.get())};
  std::size_t params = 0;
  for (const auto& p : d.params) params += std::size_t(p->size());
  list.push_back({"sort parameters", params});
  return list;
}

QRhiBuffer* GpuRadixSort::keys() const {
  return m_impl->keys[0].get();
}
QRhiBuffer* GpuRadixSort::values() const {
  return m_impl->values[0].get();
}

}  // namespace riglens::render
