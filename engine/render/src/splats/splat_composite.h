// A splat image drawn over the frame: one uvec2 per pixel (premultiplied
// RGBA8, the float NDC depth of the splat that made the pixel half opaque),
// written by the GPU's compute rasteriser (SplatTileRaster) or uploaded from
// the CPU's (core::rasteriseSplats), and drawn by shaders/splat_composite.*
// blended like the quads and depth-tested against the voxel renderer.
#pragma once

#include <QtGui/private/qrhi_p.h>

#include <QtCore/QSize>
#include <cstdint>
#include <glm/vec4.hpp>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "riglens/core/splats/splat_rasteriser.h"

namespace riglens::render {

class SplatComposite {
 public:
  explicit SplatComposite(QRhi* rhi) : m_rhi(rhi) {}

  // The image for `size`; false (failure()) when the GPU refuses. The
  // binding set and pipeline follow a new size on the next ensurePipeline.
  bool resize(QSize size);
  bool ensurePipeline(QRhiRenderPassDescriptor* rp, int sampleCount);
  QRhiBuffer* image() const { return m_image.get(); }  // what a compute raster writes
  QSize size() const { return m_size; }
  // Into the frame's first batch: the composite's view uniform (after
  // upload(), which sets the rect it covers).
  void setView(QRhiResourceUpdateBatch* batch);
  // A CPU-drawn image (2 words per pixel, as the buffer holds them), of
  // which only `drawn` holds splats (core::SplatRasterStats::covered): its
  // rows go up, and record() draws only it. The rest of the buffer keeps an
  // older frame's pixels, never read.
  void upload(QRhiResourceUpdateBatch* batch, std::span<const std::uint32_t> pixels, const core::PixelRect& drawn);
  // Inside the render pass: the image over the viewport (the viewport's size
  // is the image's) or, after a CPU upload, the rect it holds splats in.
  void record(QRhiCommandBuffer* cb, const QRhiViewport& viewport, const QRhiScissor& scissor);
  // Instead of a pass that clears to `background` and records the image over
  // it, outside any pass: writes every pixel of `target` (RGBA8, made
  // UsedWithLoadStore, the image's size) as that pass would leave it. False
  // (failure()) when the GPU refuses the compute pipeline.
  bool writeTarget(QRhiCommandBuffer* cb, QRhiTexture* target, const glm::vec4& background);
  const std::string& failure() const { return m_failure; }

 private:
  bool fail(std::string why) {
    m_failure = std::move(why);
    return false;
  }
  QRhi* m_rhi;
  std::string m_failure;
  QSize m_size;
  std::unique_ptr<QRhiBuffer> m_image, m_view;
  std::unique_ptr<QRhiShaderResourceBindings> m_srb;
  std::unique_ptr<QRhiGraphicsPipeline> m_pipeline;
  // writeTarget's, made for the target it was last given.
  quint64 m_targetId = 0;
  std::unique_ptr<QRhiShaderResourceBindings> m_targetSrb;
  std::unique_ptr<QRhiComputePipeline> m_targetPipeline;
  QVector<quint32> m_rpFormat;
  int m_samples = 0;
  std::optional<core::PixelRect> m_drawn;  // what the last upload holds; the whole image after a compute raster
};

}  // namespace riglens::render
