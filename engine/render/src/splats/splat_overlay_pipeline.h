// The pipeline both splat rasterisers draw with: premultiplied colour blended
// One / OneMinusSrcAlpha over what the pass drew before, depth-tested (the
// voxel renderer's nearer surfaces hide splats) but never written, scissored
// to the viewport, no vertex input (the shaders read storage buffers).
#pragma once

#include <QtGui/private/qrhi_p.h>

#include <memory>

#include "device/shader_library.h"

namespace riglens::render {

// Null when the shaders are missing or the pipeline cannot be made.
inline std::unique_ptr<QRhiGraphicsPipeline> newSplatOverlayPipeline(QRhi* rhi, const char* vertex,
                                                                     const char* fragment,
                                                                     QRhiShaderResourceBindings* bindings,
                                                                     QRhiRenderPassDescriptor* rp, int sampleCount) {
  auto pipeline = newGraphicsPipeline(rhi, vertex, fragment);
  if (!pipeline) return nullptr;
  pipeline->setVertexInputLayout({});
  pipeline->setTargetBlends({overBlend(true)});
  pipeline->setDepthTest(true);
  pipeline->setDepthOp(QRhiGraphicsPipeline::LessOrEqual);
  pipeline->setDepthWrite(false);
  pipeline->setFlags(QRhiGraphicsPipeline::UsesScissor);
  return createGraphicsPipeline(std::move(pipeline), rp, sampleCount, bindings);
}

}  // namespace riglens::render
