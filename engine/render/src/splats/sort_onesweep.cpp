#include <QtCore/QtGlobal>
#include <array>
#include <limits>

#include "device/compute_buffers.h"
#include "device/gpu_layouts.h"
#include "device/shader_library.h"
#include "splats/sort_kernels.h"

namespace riglens::render {

using core::ErrorCode;
using core::makeError;

namespace {

static_assert(gpu::kOneSweepHistWords == std::size_t(kSortMaxPasses) * 256);

static_assert(gpu::kOneSweepTileKeys == gpu::kSortGroupSize * gpu::kOneSweepKeysPerThread);
static_assert(gpu::kOneSweepWideTileKeys == gpu::kSortGroupSize * gpu::kOneSweepWideKeysPerThread);

// The histogram kernel clears the first pass's status words for tiles of
// kOneSweepTileKeys, the most a sort of `count` keys can use.
std::uint32_t oneSweepTilesFor(std::uint32_t count) {
  return tilesOf(count, gpu::kOneSweepTileKeys);
}

// RIGLENS_ONESWEEP_WIDE_FROM moves the switch (tuning it on another GPU
// without rebuilding; CONTRIBUTING.md): read once, a whole number of keys.
std::uint32_t oneSweepWideFrom() {
  static const std::uint32_t from = [] {
    bool ok = false;
    const qulonglong set = qEnvironmentVariable("RIGLENS_ONESWEEP_WIDE_FROM").toULongLong(&ok);
    return ok && set <= std::numeric_limits<std::uint32_t>::max() ? std::uint32_t(set) : gpu::kOneSweepWideFrom;
  }();
  return from;
}

bool wideTilesFor(std::uint32_t count) {
  return count >= oneSweepWideFrom();
}

class OneSweep final : public SortKernels {
 public:
  core::Expected<void> create(const SortBuffers& sort, int lanes);
  void record(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch, std::uint32_t elements, bool countOnGpu,
              const std::string& sortPass) override;
  BufferList buffers() const override;

 private:
  core::Expected<void> createBindings();

  SortBuffers m_sort;
  // The histogram of every pass (two, alternating between sorts: see
  // kOneSweepHistWords), each pass's tile counter, and two sets of status
  // words (one per tile and digit): a pass looks back over one set and
  // clears the other for the next pass.
  std::unique_ptr<QRhiBuffer> m_hist[2], m_tileCounters, m_status[2];
  std::size_t m_histNow = 0;   // the histogram the next sort counts into
  bool m_histCleared = false;  // both zeroed once, at the first sort
  // Uniforms of the histogram kernel (slot 0) and of each pass (1..), and
  // one binding set per kernel launch and histogram in use, declaring exactly
  // what it reads and writes (see ReduceThenScan: Qt 6.4 places barriers by
  // declared access, so the histogram is load-store where it is counted and
  // load where the passes read it).
  std::array<std::unique_ptr<QRhiBuffer>, kSortMaxPasses + 1> m_params;
  std::unique_ptr<QRhiShaderResourceBindings> m_histSrb[2];
  std::array<std::unique_ptr<QRhiShaderResourceBindings>, kSortMaxPasses> m_passSrb[2];
  std::unique_ptr<QRhiComputePipeline> m_histogram, m_scatter, m_scatterWide;
};

core::Expected<void> OneSweep::create(const SortBuffers& sort, int lanes) {
  m_sort = sort;
  auto histogram = loadShader("radix_onesweep_histogram.comp");
  auto scatter = loadSpirvShader("radix_onesweep.comp", lanes);
  auto scatterWide = loadSpirvShader("radix_onesweep_wide.comp", lanes);
  if (!histogram) return histogram.error();
  if (!scatter) return scatter.error();
  if (!scatterWide) return scatterWide.error();
  QRhi* rhi = sort.rhi;
  for (auto& hist : m_hist) hist = newStorageBuffer(rhi, gpu::kOneSweepHistWords * 4);
  m_tileCounters = newStorageBuffer(rhi, kSortMaxPasses * 4);
  for (auto& status : m_status) status = newStorageBuffer(rhi, std::size_t(oneSweepTilesFor(sort.capacity)) * 256 * 4);
  if (!m_hist[0] || !m_hist[1] || !m_tileCounters || !m_status[0] || !m_status[1])
    return makeError(ErrorCode::Gpu, "cannot allocate the sort histograms");
  for (auto& params : m_params) {
    params.reset(rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, sizeof(gpu::OneSweepParams)));
    if (!params->create()) return makeError(ErrorCode::Gpu, "cannot allocate the sort parameters");
  }
  if (auto bound = createBindings(); !bound) return bound;
  m_histogram = newComputePipeline(rhi, *histogram, m_histSrb[0].get());
  m_scatter = newComputePipeline(rhi, *scatter, m_passSrb[0][0].get());
  m_scatterWide = newComputePipeline(rhi, *scatterWide, m_passSrb[0][0].get());
  if (!m_histogram || !m_scatter || !m_scatterWide)
    return makeError(ErrorCode::Gpu, "cannot create the sort pipelines");
  return {};
}

core::Expected<void> OneSweep::createBindings() {
  QRhi* rhi = m_sort.rhi;
  const auto stage = QRhiShaderResourceBinding::ComputeStage;
  using B = QRhiShaderResourceBinding;
  for (std::size_t now = 0; now < 2; ++now) {
    QRhiBuffer *hist = m_hist[now].get(), *next = m_hist[1 - now].get();
    m_histSrb[now] = newBindings(rhi, {B::uniformBuffer(gpu::kOneSweepParamsBinding, stage, m_params[0].get()),
                                       B::bufferLoad(gpu::kOneSweepCount, stage, m_sort.count),
                                       B::bufferLoad(gpu::kOneSweepKeysIn, stage, m_sort.keys[0]),
                                       B::bufferLoadStore(gpu::kOneSweepHist, stage, hist),
                                       B::bufferStore(gpu::kOneSweepTileCounters, stage, m_tileCounters.get()),
                                       B::bufferStore(gpu::kOneSweepStatus, stage, m_status[0].get())});
    if (!m_histSrb[now]) return makeError(ErrorCode::Gpu, "cannot create the sort bindings");
    for (int pass = 0; pass < m_sort.passes; ++pass) {
      const int src = pass % 2, dst = 1 - src;
      // Each set of status words alternates between looked back over
      // (load-store) and cleared (store), so Qt orders every pass after the last.
      m_passSrb[now][std::size_t(pass)] = newBindings(
          rhi, {B::uniformBuffer(gpu::kOneSweepParamsBinding, stage, m_params[std::size_t(pass) + 1].get()),
                B::bufferLoad(gpu::kOneSweepCount, stage, m_sort.count),
                B::bufferLoad(gpu::kOneSweepKeysIn, stage, m_sort.keys[src]),
                B::bufferLoad(gpu::kOneSweepValuesIn, stage, m_sort.values[src]),
                B::bufferLoad(gpu::kOneSweepHist, stage, hist), B::bufferStore(gpu::kOneSweepHistNext, stage, next),
                B::bufferLoadStore(gpu::kOneSweepTileCounters, stage, m_tileCounters.get()),
                B::bufferLoadStore(gpu::kOneSweepStatus, stage, m_status[src].get()),
                B::bufferStore(gpu::kOneSweepStatusNext, stage, m_status[dst].get()),
                B::bufferStore(gpu::kOneSweepKeysOut, stage, m_sort.keys[dst]),
                B::bufferStore(gpu::kOneSweepValuesOut, stage, m_sort.values[dst])});
      if (!m_passSrb[now][std::size_t(pass)]) return makeError(ErrorCode::Gpu, "cannot create the sort bindings");
    }
  }
  return {};
}

void OneSweep::record(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch, std::uint32_t elements, bool countOnGpu,
                      const std::string& sortPass) {
  const auto passes = std::uint32_t(m_sort.passes);
  const std::uint32_t tiles = oneSweepTilesFor(elements);
  const std::uint32_t histogramGroups = std::min(tiles, gpu::kOneSweepHistogramGroups);
  for (std::uint32_t slot = 0; slot <= passes; ++slot) {
    const gpu::OneSweepParams p{elements, slot == 0 ? 0 : slot - 1, passes, histogramGroups, countOnGpu ? 1u : 0u};
    batch->updateDynamicBuffer(m_params[slot].get(), 0, sizeof(p), &p);
  }
  // The kernels clear what they count into from then on. Only uniforms
  // otherwise: no copy (and no barrier after one) before the kernels; the
  // histogram's segment, which carried the copy, took 0.011 ms less for
  // 262k and 1M keys on the H200.
  if (!m_histCleared) {
    static const std::array<std::uint32_t, gpu::kOneSweepHistWords> zeros{};
    for (auto& hist : m_hist) batch->uploadStaticBuffer(hist.get(), 0, int(zeros.size() * 4), zeros.data());
    m_histCleared = true;
  }
  cb->resourceUpdate(batch);
  if (tiles == 0) return;  // nothing counted, nothing cleared: the next sort counts into the same histogram
  const std::size_t now = m_histNow;
  m_histNow = 1 - now;
  dispatchComputePass(cb, nullptr, m_histogram.get(), m_histSrb[now].get(), int(histogramGroups));
  markPass(m_sort.rhi, cb, sortPass + " histogram");  // its own GPU time in the Frame panel and bench_render
  const bool wide = wideTilesFor(elements);
  QRhiComputePipeline* scatter = wide ? m_scatterWide.get() : m_scatter.get();
  const std::uint32_t scatterTiles = wide ? tilesOf(elements, gpu::kOneSweepWideTileKeys) : tiles;
  for (std::size_t pass = 0; pass < passes; ++pass)
    dispatchComputePass(cb, nullptr, scatter, m_passSrb[now][pass].get(), int(scatterTiles));
}

BufferList OneSweep::buffers() const {
  return {bufferBytes("sort digit counts A", m_hist[0].get()),     bufferBytes("sort digit counts B", m_hist[1].get()),
          bufferBytes("sort tile counters", m_tileCounters.get()), bufferBytes("sort look-back A", m_status[0].get()),
          bufferBytes("sort look-back B", m_status[1].get()),      parameterBytes(m_params)};
}

}  // namespace

core::Expected<std::unique_ptr<SortKernels>> makeOneSweepKernels(const SortBuffers& sort, int lanes) {
  auto kernels = std::make_unique<OneSweep>();
  if (auto made = kernels->create(sort, lanes); !made) return made.error();
  return std::unique_ptr<SortKernels>(std::move(kernels));
}

}  // namespace riglens::render
