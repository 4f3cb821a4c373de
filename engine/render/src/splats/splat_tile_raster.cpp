#include "splats/splat_tile_raster.h"

#include <algorithm>
#include <cstring>

#include "device/compute_buffers.h"
#include "device/gpu_layouts.h"
#include "device/shader_library.h"
#include "splats/raster_parts.h"

namespace riglens::render {

namespace {
// Tile keys per splat the buffers start with (a splat of radius r touches
// about (r / 8 + 1)^2 tiles); frames that need more grow them. Where frames
// cannot read their key count back (RhiDevice::readsBackEveryFrame), the
// room is fixed and generous instead: keys past it are dropped.
constexpr std::uint32_t kKeysPerSplat = 4, kMinKeys = 1u << 18;
constexpr std::uint32_t kFixedKeysPerSplat = 16, kFixedMinKeys = 1u << 20;
// The raster's grid is at most this wide (Vulkan's and OpenGL's least
// maximum workgroup count in a dimension).
constexpr std::uint32_t kMaxGridWidth = 65535;

}  // namespace

void SplatTileRaster::setParts(SplatTileParts parts) {
  m_partsSet = validTileParts(parts);
  m_parts = *m_partsSet;
  m_size = {};  // the parts' slots follow on the next resize
}

bool SplatTileRaster::reserve(std::uint32_t splats, QRhiBuffer* view, QRhiBuffer* projected, QRhiBuffer* depthOrder) {
  m_splats = splats;
  m_view = view;
  m_projected = projected;
  m_depthOrder = depthOrder;
  m_count->needed = 0;
  m_parts = m_partsSet.value_or(defaultTileParts(splats, m_device.multiprocessors()));
  m_depth = newStorageBuffer(m_rhi, std::size_t(splats) * 4);
  // One offset per projection group, then the frame's uncapped key count.
  m_groupSums = newStorageBuffer(m_rhi, std::size_t(gpu::groupsFor(splats, gpu::kProjectGroupSize) + 1) * 4);
  m_tilesHeld = newStorageBuffer(m_rhi, 4);
  if (!m_depth || !m_groupSums || !m_tilesHeld) return fail("cannot allocate the splat tile key buffers");
  const bool grows = m_device.readsBackEveryFrame();
  const std::uint64_t keys = std::uint64_t(splats) * (grows ? kKeysPerSplat : kFixedKeysPerSplat);
  return createKeys(std::uint32_t(std::clamp<std::uint64_t>(keys, grows ? kMinKeys : kFixedMinKeys, kMaxKeys)));
}

bool SplatTileRaster::growIfNeeded() {
  const std::uint32_t needed = m_count->needed;
  if (needed <= m_sort->capacity() || m_sort->capacity() == kMaxKeys) return false;
  const auto keys = std::uint32_t(std::min<std::uint64_t>(std::uint64_t(needed) * 5 / 4, kMaxKeys));
  return createKeys(keys);
}

bool SplatTileRaster::createKeys(std::uint32_t keys) {
  m_sort.reset();  // the old keys go before the new ones are allocated
  // The keys are tile indices (resize keeps them under 16 bits).
  auto sort = GpuRadixSort::create(m_device, keys, 16);
  if (!sort) return fail(sort.error().message);
  m_sort = std::move(sort).value();
  m_sort->setPassName("tile sort");
  m_size = {};  // the ranges and tiles bind the new keys on the next resize
  // One binding set per kernel, each declaring exactly what it reads and
  // writes: Qt 6.4 puts no barrier between passes that declare the same
  // access to a buffer (GpuRadixSort says more).
  const auto cs = QRhiShaderResourceBinding::ComputeStage;
  using B = QRhiShaderResourceBinding;
  m_countSrb = newBindings(
      m_rhi,
      {B::uniformBuffer(gpu::kSplatViewBinding, cs, m_view), B::bufferLoad(gpu::kTilesProjected, cs, m_projected),
       B::bufferLoad(gpu::kTilesDepth, cs, m_depth.get()), B::bufferLoad(gpu::kTilesOrder, cs, m_depthOrder),
       B::bufferStore(gpu::kTilesGroupSums, cs, m_groupSums.get())});
  m_offsetsSrb = newBindings(m_rhi, {B::uniformBuffer(gpu::kSplatViewBinding, cs, m_view),
                                     B::bufferLoadStore(gpu::kTilesGroupSums, cs, m_groupSums.get()),
                                     B::bufferStore(gpu::kTilesCount, cs, m_sort->countBuffer()),
                                     B::bufferStore(gpu::kTilesHeld, cs, m_tilesHeld.get())});
  m_emitSrb = newBindings(
      m_rhi,
      {B::uniformBuffer(gpu::kSplatViewBinding, cs, m_view), B::bufferLoad(gpu::kTilesProjected, cs, m_projected),
       B::bufferLoad(gpu::kTilesDepth, cs, m_depth.get()), B::bufferLoad(gpu::kTilesOrder, cs, m_depthOrder),
       B::bufferLoad(gpu::kTilesGroupSums, cs, m_groupSums.get()), B::bufferStore(gpu::kTilesKeys, cs, m_sort->keys()),
       B::bufferStore(gpu::kTilesValues, cs, m_sort->values())});
  if (!m_countSrb || !m_offsetsSrb || !m_emitSrb) return fail("cannot create the splat tile key bindings");
  m_countPipe = newComputePipeline(m_rhi, "splat_tile_count.comp", m_countSrb.get());
  m_offsetsPipe = newComputePipeline(m_rhi, "splat_tile_offsets.comp", m_offsetsSrb.get());
  m_emitPipe = newComputePipeline(m_rhi, "splat_tile_emit.comp", m_emitSrb.get());
  if (!m_countPipe || !m_offsetsPipe || !m_emitPipe) return fail("cannot create the splat tile key pipelines");
  return true;
}

gpu::uvec4 SplatTileRaster::tiles() const {
  return {m_tilesX, m_tilesY, gpu::kTilesCounted, m_sort ? m_sort->capacity() : 0u};
}

gpu::uvec4 SplatTileRaster::parts() const {
  return {m_parts.keys, m_chunks, m_gridWidth, m_parts.groupsAtOnce};
}

// Slot per tile (its run's first part) and per chunk of the keys' room
// (splat_raster_parts.glsl); without parts, stand-ins the kernels never touch.
bool SplatTileRaster::createParts() {
  const std::uint32_t capacity = m_sort->capacity();
  m_chunks = m_parts.keys > 0 && capacity > 0 ? (capacity - 1) / m_parts.keys : 0u;
  const std::uint64_t groups = std::uint64_t(m_tilesX) * m_tilesY + m_chunks;
  m_gridRows = std::uint32_t((groups + kMaxGridWidth - 1) / kMaxGridWidth);
  m_gridWidth = std::uint32_t((groups + m_gridRows - 1) / m_gridRows);
  const std::size_t pixels = m_chunks > 0 ? std::size_t(groups) * gpu::kSplatTile * gpu::kSplatTile : 1;
  m_partT = newStorageBuffer(m_rhi, pixels * 4);
  m_partials = newStorageBuffer(m_rhi, pixels * 16);
  if (!m_partT || !m_partials) return fail("cannot allocate the splat raster's parts");
  m_transmittanceSrb.reset();
  m_mergeSrb.reset();
  m_transmittancePipe.reset();
  m_mergePipe.reset();
  if (m_chunks == 0) return true;  // every run whole: the raster's one dispatch
  const auto cs = QRhiShaderResourceBinding::ComputeStage;
  using B = QRhiShaderResourceBinding;
  m_transmittanceSrb = newBindings(
      m_rhi,
      {B::uniformBuffer(gpu::kSplatViewBinding, cs, m_view), B::bufferLoad(gpu::kRasterProjected, cs, m_projected),
       B::bufferLoad(gpu::kRasterOrder, cs, m_sort->sortedValues()),
       B::bufferLoad(gpu::kRasterRanges, cs, m_ranges.get()), B::bufferLoad(gpu::kRasterKeys, cs, m_sort->sortedKeys()),
       B::bufferLoad(gpu::kRasterCount, cs, m_sort->countBuffer()),
       B::bufferLoad(gpu::kRasterHeld, cs, m_tilesHeld.get()), B::bufferStore(gpu::kRasterPartT, cs, m_partT.get())});
  m_mergeSrb = newBindings(
      m_rhi,
      {B::uniformBuffer(gpu::kSplatViewBinding, cs, m_view), B::bufferLoad(gpu::kRasterRanges, cs, m_ranges.get()),
       B::bufferLoad(gpu::kRasterKeys, cs, m_sort->sortedKeys()),
       B::bufferLoad(gpu::kRasterCount, cs, m_sort->countBuffer()),
       B::bufferLoad(gpu::kRasterHeld, cs, m_tilesHeld.get()), B::bufferLoad(gpu::kRasterPartT, cs, m_partT.get()),
       B::bufferLoad(gpu::kRasterPartials, cs, m_partials.get()),
       B::bufferStore(gpu::kRasterImage, cs, m_composite.image())});
  if (!m_transmittanceSrb || !m_mergeSrb) return fail("cannot create the splat raster's part bindings");
  m_transmittancePipe = newComputePipeline(m_rhi, "splat_raster_transmittance.comp", m_transmittanceSrb.get());
  m_mergePipe = newComputePipeline(m_rhi, "splat_raster_merge.comp", m_mergeSrb.get());
  if (!m_transmittancePipe || !m_mergePipe) return fail("cannot create the splat raster's part pipelines");
  return true;
}

bool SplatTileRaster::resize(QSize size) {
  if (size == m_size) return true;
  m_tilesX = (std::uint32_t(size.width()) + gpu::kSplatTile - 1) / gpu::kSplatTile;
  m_tilesY = (std::uint32_t(size.height()) + gpu::kSplatTile - 1) / gpu::kSplatTile;
  if (std::uint64_t(m_tilesX) * m_tilesY > (1u << 16)) return fail("the output is too large for 16-bit tile keys");
  const std::size_t tileCount = std::size_t(m_tilesX) * m_tilesY;
  m_ranges = newStorageBuffer(m_rhi, tileCount * 8);
  if (!m_ranges) return fail("cannot allocate the splat tile buffers");
  if (!m_composite.resize(size)) return fail(m_composite.failure());
  if (!createParts()) return false;
  const auto cs = QRhiShaderResourceBinding::ComputeStage;
  using B = QRhiShaderResourceBinding;
  m_rangesSrb = newBindings(
      m_rhi,
      {B::uniformBuffer(gpu::kSplatViewBinding, cs, m_view), B::bufferLoad(gpu::kRangesKeys, cs, m_sort->sortedKeys()),
       B::bufferLoad(gpu::kRangesCount, cs, m_sort->countBuffer()), B::bufferStore(gpu::kRangesOut, cs, m_ranges.get()),
       B::bufferLoadStore(gpu::kRangesHeld, cs, m_tilesHeld.get())});
  m_rasterSrb = newBindings(
      m_rhi,
      {B::uniformBuffer(gpu::kSplatViewBinding, cs, m_view), B::bufferLoad(gpu::kRasterProjected, cs, m_projected),
       B::bufferLoad(gpu::kRasterOrder, cs, m_sort->sortedValues()),
       B::bufferLoad(gpu::kRasterRanges, cs, m_ranges.get()),
       B::bufferStore(gpu::kRasterImage, cs, m_composite.image()),
       B::bufferLoad(gpu::kRasterKeys, cs, m_sort->sortedKeys()),
       B::bufferLoad(gpu::kRasterCount, cs, m_sort->countBuffer()),
       B::bufferLoad(gpu::kRasterHeld, cs, m_tilesHeld.get()), B::bufferLoadStore(gpu::kRasterPartT, cs, m_partT.get()),
       B::bufferStore(gpu::kRasterPartials, cs, m_partials.get())});
  if (!m_rangesSrb || !m_rasterSrb) return fail("cannot create the splat tile bindings");
  // New pipelines over the new layouts (swapping bindings under a pipeline
  // made for others crashed lavapipe).
  m_rangesPipe = newComputePipeline(m_rhi, "splat_tile_ranges.comp", m_rangesSrb.get());
  m_rasterPipe = newComputePipeline(m_rhi, "splat_raster.comp", m_rasterSrb.get());
  if (!m_rangesPipe || !m_rasterPipe) return fail("cannot create the splat tile pipelines");
  m_size = size;
  return true;
}

bool SplatTileRaster::ensurePipeline(QRhiRenderPassDescriptor* rp, int sampleCount) {
  return m_composite.ensurePipeline(rp, sampleCount) || fail(m_composite.failure());
}

void SplatTileRaster::resetFrame(QRhiResourceUpdateBatch* batch) {
  m_composite.setView(batch);
}

void SplatTileRaster::countKeys(QRhiCommandBuffer* cb) {
  const int groups = gpu::groupsFor(m_splats, gpu::kProjectGroupSize);
  dispatchComputePass(cb, nullptr, m_countPipe.get(), m_countSrb.get(), groups);
  dispatchComputePass(cb, nullptr, m_offsetsPipe.get(), m_offsetsSrb.get(), 1);
}

// How many keys the frame needed, for growIfNeeded once the GPU is done. Read
// back after the frame's last tile pass, not between the kernels: a copy there
// stalls the passes after it (the sample character's "tile keys" on the H200).
void SplatTileRaster::readBackKeyCount(QRhiCommandBuffer* cb, bool tilesHeldToo) {
  if (!m_device.readsBackEveryFrame()) return;
  const int groups = gpu::groupsFor(m_splats, gpu::kProjectGroupSize);
  QRhiResourceUpdateBatch* readback = m_rhi->nextResourceUpdateBatch();
  ++m_count->pending;
  QRhiBufferReadbackResult* result = m_device.keepReadback([count = m_count](const QByteArray& bytes) {
    if (bytes.size() >= 4) std::memcpy(&count->needed, bytes.constData(), 4);
    --count->pending;
  });
  readback->readBackBuffer(m_groupSums.get(), groups * 4, 4, result);
  if (tilesHeldToo) {
    QRhiBufferReadbackResult* held = m_device.keepReadback([count = m_count](const QByteArray& bytes) {
      if (bytes.size() >= 4) std::memcpy(&count->held, bytes.constData(), 4);
    });
    readback->readBackBuffer(m_tilesHeld.get(), 0, 4, held);
  }
  cb->resourceUpdate(readback);
}

void SplatTileRaster::encodeCount(QRhiCommandBuffer* cb) {
  countKeys(cb);
  readBackKeyCount(cb);
  markPass(m_rhi, cb, "tile keys");
}

void SplatTileRaster::encode(QRhiCommandBuffer* cb, bool sort, bool raster) {
  if (!sort) return;
  countKeys(cb);
  dispatchComputePass(cb, nullptr, m_emitPipe.get(), m_emitSrb.get(), gpu::groupsFor(m_splats, gpu::kProjectGroupSize));
  markPass(m_rhi, cb, "tile keys");
  m_sort->encodeGpuCount(cb);
  if (!raster) {
    readBackKeyCount(cb);
    return;
  }
  dispatchComputePass(cb, nullptr, m_rangesPipe.get(), m_rangesSrb.get(), int(gpu::kRangeGroups));
  encodeRaster(cb);
  markPass(m_rhi, cb, "raster");
  readBackKeyCount(cb, true);
}

// Without parts, one dispatch; with them, the parts' transmittance, then
// every part's colour, then the split runs' sums.
void SplatTileRaster::encodeRaster(QRhiCommandBuffer* cb) {
  const int width = int(m_gridWidth), rows = int(m_gridRows);
  if (m_transmittancePipe)
    dispatchComputePass(cb, nullptr, m_transmittancePipe.get(), m_transmittanceSrb.get(), width, rows);
  dispatchComputePass(cb, nullptr, m_rasterPipe.get(), m_rasterSrb.get(), width, rows);
  if (m_mergePipe) dispatchComputePass(cb, nullptr, m_mergePipe.get(), m_mergeSrb.get(), int(m_tilesX), int(m_tilesY));
}

void SplatTileRaster::record(QRhiCommandBuffer* cb, const QRhiViewport& viewport, const QRhiScissor& scissor) {
  m_composite.record(cb, viewport, scissor);
}

BufferList SplatTileRaster::buffers() const {
  BufferList list;
  if (m_sort) list = m_sort->buffers();
  for (auto& b : list) b.name = "tile " + b.name;
  list.push_back(bufferBytes("splat tile depths", m_depth.get()));
  list.push_back(bufferBytes("splat tile group sums", m_groupSums.get()));
  list.push_back(bufferBytes("splat tile ranges", m_ranges.get()));
  list.push_back(bufferBytes("splat tiles holding keys", m_tilesHeld.get()));
  list.push_back(bufferBytes("splat raster part transmittances", m_partT.get()));
  list.push_back(bufferBytes("splat raster part colours", m_partials.get()));
  list.push_back(bufferBytes("splat raster image", m_composite.image()));
  return list;
}

}  // namespace riglens::render
