// The compute splat rasteriser behind SplatRenderer (SplatRaster::Compute):
// after the projection and the sort of its 16-bit depth keys front to back,
// one key per screen tile a splat touches (the tile's index), written in
// that depth order by a reduce-then-scan (splat_tile_count|offsets|emit.comp);
// the keys sorted stably on the tile alone (GpuRadixSort, 16 bits, count set
// on the GPU), so each tile's splats stay front to back; each tile's run found
// (splat_tile_ranges.comp); every tile blended front to back with early
// termination (splat_raster.comp) into a premultiplied image, a long run in
// parts of its own (splat_raster_parts.glsl, merged by
// splat_raster_merge.comp); that image drawn over the frame
// (splat_composite.*).
#pragma once

#include <QtGui/private/qrhi_p.h>

#include <QtCore/QSize>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "riglens/render/device/gpu_resources.h"
#include "riglens/render/device/rhi_device.h"
#include "riglens/render/splats/gpu_sort.h"
#include "riglens/render/splats/splat_policy.h"
#include "shader_interface.h"
#include "splats/splat_composite.h"

namespace riglens::render {

class SplatTileRaster {
 public:
  explicit SplatTileRaster(RhiDevice& device) : m_device(device), m_rhi(device.rhi()) {}

  // Room for the tile keys of `splats` gaussians and the bindings over `view`
  // (the splat view uniform), `projected` (the projection's output) and
  // `depthOrder` (the splats sorted by depth, front to back on frames the
  // tiles draw); false (failure()) when the GPU refuses.
  bool reserve(std::uint32_t splats, QRhiBuffer* view, QRhiBuffer* projected, QRhiBuffer* depthOrder);
  // The output's size: tile grid, ranges, image and their bindings.
  bool resize(QSize size);
  bool ensurePipeline(QRhiRenderPassDescriptor* rp, int sampleCount);

  QRhiBuffer* tileDepth() const { return m_depth.get(); }  // the projection writes it

  // How long runs are cut into parts, from the next resize; until set,
  // defaultTileParts for the reserved gaussians and this device.
  void setParts(SplatTileParts parts);

  // The room for keys follows what frames need: a frame whose keys did not
  // fit (read back when the GPU finished it) grows the room before the next
  // one, up to 32M keys. True when it grew: that frame dropped keys and must
  // be drawn again. Beyond 32M keys the tiles cannot hold the scene
  // (exhausted(): the renderer draws quads instead).
  bool growIfNeeded();
  bool exhausted() const { return m_count->needed > kMaxKeys; }
  std::uint32_t keysNeeded() const { return m_count->needed; }  // of the last finished frame
  // The tiles holding keys in the last finished frame the tiles drew (the parts' rule).
  std::uint32_t tilesHeld() const { return m_count->held; }
  std::uint32_t capacity() const { return m_sort ? m_sort->capacity() : 0; }
  bool keysPending() const { return m_count->pending > 0; }  // a frame's key count is still on its way back
  static constexpr std::uint32_t kMaxKeys = GpuRadixSort::kMaxCapacity;
  // SplatView.tiles for this output (emission on).
  gpu::uvec4 tiles() const;
  // SplatView.parts for this output.
  gpu::uvec4 parts() const;
  // Before the projection, in its batch: the composite's view (uniforms only).
  void resetFrame(QRhiResourceUpdateBatch* batch);
  // After the projection and its depth sort: the keys and their sort (when `sort`), ranges and tiles (when `raster`).
  void encode(QRhiCommandBuffer* cb, bool sort, bool raster);
  // After the projection and its sort, on a frame the quads draw: only how many keys the view needs.
  void encodeCount(QRhiCommandBuffer* cb);
  // Inside the render pass: the image over the viewport.
  void record(QRhiCommandBuffer* cb, const QRhiViewport& viewport, const QRhiScissor& scissor);
  // Instead of a pass: the image over `background`, written into all of
  // `target` (SplatComposite::writeTarget).
  bool writeTarget(QRhiCommandBuffer* cb, QRhiTexture* target, const glm::vec4& background) {
    return m_composite.writeTarget(cb, target, background) || fail(m_composite.failure());
  }

  BufferList buffers() const;
  const std::string& failure() const { return m_failure; }

 private:
  bool fail(std::string why) {
    m_failure = std::move(why);
    return false;
  }

  RhiDevice& m_device;
  QRhi* m_rhi;
  std::string m_failure;
  bool createKeys(std::uint32_t keys);
  bool createParts();  // the parts' slots, bindings and pipelines for this output and room
  void encodeRaster(QRhiCommandBuffer* cb);
  void countKeys(QRhiCommandBuffer* cb);  // count and offsets
  // The offsets' total, and after a raster the tiles holding keys, to the CPU.
  void readBackKeyCount(QRhiCommandBuffer* cb, bool tilesHeldToo = false);

  std::uint32_t m_splats = 0;
  // The frames' key counts, written by read-backs that may land after this
  // object is gone (the device keeps their results; they keep this).
  struct KeyCount {
    std::uint32_t needed = 0;
    std::uint32_t held = 0;
    int pending = 0;
  };
  std::shared_ptr<KeyCount> m_count = std::make_shared<KeyCount>();
  QRhiBuffer *m_view = nullptr, *m_projected = nullptr, *m_depthOrder = nullptr;
  QSize m_size;
  std::uint32_t m_tilesX = 0, m_tilesY = 0;
  std::optional<SplatTileParts> m_partsSet;  // setParts's
  SplatTileParts m_parts;
  std::uint32_t m_chunks = 0;
  std::uint32_t m_gridWidth = 0, m_gridRows = 0;  // the raster's workgroups: the tiles' first parts, then the chunks'
  std::unique_ptr<GpuRadixSort> m_sort;
  std::unique_ptr<QRhiBuffer> m_depth, m_groupSums, m_ranges;
  std::unique_ptr<QRhiBuffer> m_tilesHeld;          // one word: the tiles holding keys this frame (the parts' rule)
  std::unique_ptr<QRhiBuffer> m_partT, m_partials;  // per part slot and pixel (splat_raster_parts.glsl)
  SplatComposite m_composite{m_rhi};
  std::unique_ptr<QRhiShaderResourceBindings> m_countSrb, m_offsetsSrb, m_emitSrb, m_rangesSrb, m_rasterSrb;
  std::unique_ptr<QRhiComputePipeline> m_countPipe, m_offsetsPipe, m_emitPipe, m_rangesPipe, m_rasterPipe;
  std::unique_ptr<QRhiShaderResourceBindings> m_transmittanceSrb, m_mergeSrb;
  std::unique_ptr<QRhiComputePipeline> m_transmittancePipe, m_mergePipe;
};

}  // namespace riglens::render
