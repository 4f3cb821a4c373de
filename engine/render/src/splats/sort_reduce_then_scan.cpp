#include <array>

#include "device/compute_buffers.h"
#include "device/gpu_layouts.h"
#include "device/shader_library.h"
#include "splats/sort_kernels.h"

namespace riglens::render {

using core::ErrorCode;
using core::makeError;

namespace {

// The tiles of kSortTileKeys keys that `count` keys fill.
std::uint32_t reduceTilesFor(std::uint32_t count) {
  return tilesOf(count, gpu::kSortTileKeys);
}

class ReduceThenScan final : public SortKernels {
 public:
  core::Expected<void> create(const SortBuffers& sort);
  void record(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch, std::uint32_t elements, bool countOnGpu,
              const std::string& sortPass) override;
  BufferList buffers() const override;

 private:
  SortBuffers m_sort;
  std::unique_ptr<QRhiBuffer> m_tileHist, m_digitTotals;
  // One uniform buffer per pass (dynamic buffers hold one value per frame)
  // and one binding set per pass and kernel, each declaring exactly what the
  // kernel reads and writes: Qt 6.4 puts no barrier between two passes that
  // declare the same access to a buffer, even a write (measured on the
  // H200: one shared set made every sort race).
  std::array<std::unique_ptr<QRhiBuffer>, kSortMaxPasses> m_params;
  std::array<std::unique_ptr<QRhiShaderResourceBindings>, kSortMaxPasses> m_upSrb, m_spineSrb, m_downSrb;
  std::unique_ptr<QRhiComputePipeline> m_upsweep, m_spine, m_downsweep;
};

core::Expected<void> ReduceThenScan::create(const SortBuffers& sort) {
  m_sort = sort;
  auto up = loadShader("radix_upsweep.comp"), sp = loadShader("radix_spine.comp"),
       down = loadShader("radix_downsweep.comp");
  if (!up) return up.error();
  if (!sp) return sp.error();
  if (!down) return down.error();
  QRhi* rhi = sort.rhi;
  m_tileHist = newStorageBuffer(rhi, std::size_t(reduceTilesFor(sort.capacity)) * 256 * 4);
  m_digitTotals = newStorageBuffer(rhi, 256 * 4);
  if (!m_tileHist || !m_digitTotals) return makeError(ErrorCode::Gpu, "cannot allocate the sort histograms");
  const auto stage = QRhiShaderResourceBinding::ComputeStage;
  using B = QRhiShaderResourceBinding;
  for (int pass = 0; pass < sort.passes; ++pass) {
    const auto slot = std::size_t(pass);
    m_params[slot].reset(rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, sizeof(gpu::SortParams)));
    if (!m_params[slot]->create()) return makeError(ErrorCode::Gpu, "cannot allocate the sort parameters");
    const int src = pass % 2, dst = 1 - src;
    QRhiBuffer* params = m_params[slot].get();
    m_upSrb[slot] = newBindings(
        rhi, {B::uniformBuffer(gpu::kSortParamsBinding, stage, params),
              B::bufferLoad(gpu::kSortCount, stage, sort.count), B::bufferLoad(gpu::kSortKeysIn, stage, sort.keys[src]),
              B::bufferStore(gpu::kSortTileHist, stage, m_tileHist.get())});
    m_spineSrb[slot] = newBindings(rhi, {B::uniformBuffer(gpu::kSortParamsBinding, stage, params),
                                         B::bufferLoad(gpu::kSortCount, stage, sort.count),
                                         B::bufferLoadStore(gpu::kSortTileHist, stage, m_tileHist.get()),
                                         B::bufferStore(gpu::kSortDigitTotals, stage, m_digitTotals.get())});
    m_downSrb[slot] = newBindings(
        rhi, {B::uniformBuffer(gpu::kSortParamsBinding, stage, params),
              B::bufferLoad(gpu::kSortCount, stage, sort.count), B::bufferLoad(gpu::kSortKeysIn, stage, sort.keys[src]),
              B::bufferLoad(gpu::kSortValuesIn, stage, sort.values[src]),
              B::bufferLoad(gpu::kSortTileHist, stage, m_tileHist.get()),
              B::bufferLoad(gpu::kSortDigitTotals, stage, m_digitTotals.get()),
              B::bufferStore(gpu::kSortKeysOut, stage, sort.keys[dst]),
              B::bufferStore(gpu::kSortValuesOut, stage, sort.values[dst])});
    if (!m_upSrb[slot] || !m_spineSrb[slot] || !m_downSrb[slot])
      return makeError(ErrorCode::Gpu, "cannot create the sort bindings");
  }
  m_upsweep = newComputePipeline(rhi, *up, m_upSrb[0].get());
  m_spine = newComputePipeline(rhi, *sp, m_spineSrb[0].get());
  m_downsweep = newComputePipeline(rhi, *down, m_downSrb[0].get());
  if (!m_upsweep || !m_spine || !m_downsweep) return makeError(ErrorCode::Gpu, "cannot create the sort pipelines");
  return {};
}

void ReduceThenScan::record(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch, std::uint32_t elements,
                            bool countOnGpu, const std::string& /*sortPass: its kernels are timed as the sort*/) {
  const std::uint32_t tiles = reduceTilesFor(elements);
  // Its kernels read the count from the buffer alone.
  if (!countOnGpu) batch->uploadStaticBuffer(m_sort.count, 0, 4, &elements);
  for (int pass = 0; pass < m_sort.passes; ++pass) {
    const gpu::SortParams p{elements, std::uint32_t(pass * 8), tiles, 0};
    batch->updateDynamicBuffer(m_params[std::size_t(pass)].get(), 0, sizeof(p), &p);
  }
  cb->resourceUpdate(batch);
  if (tiles == 0) return;
  for (std::size_t pass = 0; pass < std::size_t(m_sort.passes); ++pass) {
    dispatchComputePass(cb, nullptr, m_upsweep.get(), m_upSrb[pass].get(), int(tiles));
    dispatchComputePass(cb, nullptr, m_spine.get(), m_spineSrb[pass].get(), 256);
    dispatchComputePass(cb, nullptr, m_downsweep.get(), m_downSrb[pass].get(), int(tiles));
  }
}

BufferList ReduceThenScan::buffers() const {
  return {bufferBytes("sort tile counts", m_tileHist.get()), bufferBytes("sort digit totals", m_digitTotals.get()),
          parameterBytes(m_params)};
}

}  // namespace

core::Expected<std::unique_ptr<SortKernels>> makeReduceThenScanKernels(const SortBuffers& sort) {
  auto kernels = std::make_unique<ReduceThenScan>();
  if (auto made = kernels->create(sort); !made) return made.error();
  return std::unique_ptr<SortKernels>(std::move(kernels));
}

}  // namespace riglens::render
