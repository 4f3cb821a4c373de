// The compute splat rasteriser behind SplatRenderer (SplatRaster::Compute):
// after the projection (which leaves each splat's 16-bit log depth), one
// (tile << 16 | depth) key per screen tile a splat touches, written in splat
// order by a reduce-then-scan (splat_tile_count|offsets|emit.comp); the keys
// sorted (GpuRadixSort, count set on the GPU); each tile's run found
// (splat_tile_ranges.comp); every tile blended front to back with early
// termination (splat_raster.comp) into a premultiplied image; that image
// drawn over the frame (splat_composite.*).
#pragma once

#include <QtGui/private/qrhi_p.h>

#include <QtCore/QSize>
#include <memory>
#include <string>
#include <vector>

#include "riglens/render/device/gpu_resources.h"
#include "riglens/render/device/rhi_device.h"
#include "riglens/render/splat/gpu_sort.h"
#include "shader_interface.h"

namespace riglens::render {

class SplatTileRaster {
 public:
  explicit SplatTileRaster(RhiDevice& device) : m_device(device), m_rhi(device.rhi()) {}

  // Room for the tile keys of `splats` gaussians and the bindings over `view`
  // (the splat view uniform) and `projected` (the projection's output);
  // false (failure()) when the GPU refuses.
  bool reserve(std::uint32_t splats, QRhiBuffer* view, QRhiBuffer* projected);
  // The output's size: tile grid, ranges, image and their bindings.
  bool resize(QSize size);
  bool ensurePipeline(QRhiRenderPassDescriptor* rp, int sampleCount);

  QRhiBuffer* tileDepth() const { return m_depth.get(); }  // the projection writes it
  // SplatView.tiles for this output (emission on).
  gpu::uvec4 tiles() const;
  // Before the projection, in its batch: zero the ranges.
  void resetFrame(QRhiResourceUpdateBatch* batch);
  // After the projection: the keys and their sort (when `sort`), ranges and tiles (when `raster`).
  void encode(QRhiCommandBuffer* cb, bool sort, bool raster);
  // Inside the render pass: the image over the viewport.
  void record(QRhiCommandBuffer* cb, const QRhiViewport& viewport, const QRhiScissor& scissor);

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
  std::uint32_t m_splats = 0;
  QRhiBuffer *m_view = nullptr, *m_projected = nullptr;
  QSize m_size;
  std::uint32_t m_tilesX = 0, m_tilesY = 0;
  std::unique_ptr<GpuRadixSort> m_sort;
  std::unique_ptr<QRhiBuffer> m_depth, m_groupSums, m_ranges, m_image, m_compositeView;
  std::vector<std::uint32_t> m_zeroRanges;
  std::unique_ptr<QRhiShaderResourceBindings> m_keysSrb, m_rangesSrb, m_rasterSrb, m_compositeSrb;
  std::unique_ptr<QRhiComputePipeline> m_countPipe, m_offsetsPipe, m_emitPipe, m_rangesPipe, m_rasterPipe;
  std::unique_ptr<QRhiGraphicsPipeline> m_composite;
  QVector<quint32> m_rpFormat;
  int m_samples = 0;
};

}  // namespace riglens::render
