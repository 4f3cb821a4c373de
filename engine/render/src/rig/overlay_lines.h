// The line overlays a rig frame draws over its parts: the ground grid and the
// axis gizmo (depth-tested, so the model hides them), then the socket
// markers of the sockets tint (drawn over everything). One vertex list a
// frame, and the pipeline that draws it (lines.vert / lines.frag).
#pragma once

#include <QtGui/private/qrhi_p.h>

#include <memory>
#include <vector>

#include "device/gpu_layouts.h"
#include "riglens/render/device/frame_state.h"

namespace riglens::render {

struct OverlayLines {
  std::vector<gpu::LineVertex> vertices;  // the grid and axes first, then the markers
  int gridVertices = 0, markerVertices = 0;
};

// The frame's lines for `state` (its grid, axes and, in the sockets tint,
// a star and diamond at each socket).
void buildOverlayLines(const FrameState& state, OverlayLines& out);

// A pipeline drawing OverlayLines' vertices as blended lines with `bindings`
// (the frame block), depth-tested or not; null when it cannot be created.
std::unique_ptr<QRhiGraphicsPipeline> newLinePipeline(QRhi* rhi, QRhiRenderPassDescriptor* rp, int samples,
                                                      bool depthTest, QRhiShaderResourceBindings* bindings);

}  // namespace riglens::render
