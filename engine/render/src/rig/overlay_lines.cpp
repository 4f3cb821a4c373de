#include "rig/overlay_lines.h"

#include <cmath>
#include <glm/glm.hpp>

#include "device/shader_library.h"

namespace riglens::render {

namespace {

void addLine(std::vector<gpu::LineVertex>& lines, glm::vec3 a, glm::vec3 b, glm::vec4 color) {
  lines.push_back({{a.x, a.y, a.z}, {color.r, color.g, color.b, color.a}});
  lines.push_back({{b.x, b.y, b.z}, {color.r, color.g, color.b, color.a}});
}

}  // namespace

void buildOverlayLines(const FrameState& state, OverlayLines& out) {
  std::vector<gpu::LineVertex>& lines = out.vertices;
  lines.clear();
  if (state.showGrid && state.gridStep > 0) {
    const float e = state.gridExtent, s = state.gridStep;
    const glm::vec3 c0 = state.gridCenter;
    const int n = static_cast<int>(std::floor(e / s));
    for (int i = -n; i <= n; ++i) {
      const float t = float(i) * s;
      // Every fourth line is stronger, like graph paper.
      const glm::vec4 c = (i % 4 == 0) ? glm::vec4(0.55f, 0.58f, 0.62f, 0.32f) : glm::vec4(0.45f, 0.48f, 0.52f, 0.14f);
      addLine(lines, c0 + glm::vec3(t, 0, -e), c0 + glm::vec3(t, 0, e), c);
      addLine(lines, c0 + glm::vec3(-e, 0, t), c0 + glm::vec3(e, 0, t), c);
    }
  }
  if (state.showAxes) {  // at the world origin, hidden by the model like the grid
    const float len = std::max(state.gridStep * 2.0f, 1.0f);
    addLine(lines, {0, 0, 0}, {len, 0, 0}, {0.95f, 0.3f, 0.3f, 1});
    addLine(lines, {0, 0, 0}, {0, len, 0}, {0.4f, 0.9f, 0.35f, 1});
    addLine(lines, {0, 0, 0}, {0, 0, len}, {0.35f, 0.55f, 1.0f, 1});
  }
  out.gridVertices = static_cast<int>(lines.size());
  if (state.tint == core::TintMode::Sockets) {
    const glm::vec4 magenta(1.0f, 0.25f, 0.85f, 1.0f);
    for (const auto& socket : state.sockets) {
      const glm::vec3 p = socket.position;
      const float r = state.markerSize;
      const glm::vec3 x(r, 0, 0), y(0, r, 0), z(0, 0, r);
      addLine(lines, p - x, p + x, magenta);
      addLine(lines, p - y, p + y, magenta);
      addLine(lines, p - z, p + z, magenta);
      // A diamond around it so it reads at a glance.
      addLine(lines, p + x, p + y, magenta);
      addLine(lines, p + y, p - x, magenta);
      addLine(lines, p - x, p - y, magenta);
      addLine(lines, p - y, p + x, magenta);
      addLine(lines, p + z, p + y, magenta);
      addLine(lines, p + y, p - z, magenta);
      addLine(lines, p - z, p - y, magenta);
      addLine(lines, p - y, p + z, magenta);
    }
  }
  out.markerVertices = static_cast<int>(lines.size()) - out.gridVertices;
}

std::unique_ptr<QRhiGraphicsPipeline> newLinePipeline(QRhi* rhi, QRhiRenderPassDescriptor* rp, int samples,
                                                      bool depthTest, QRhiShaderResourceBindings* bindings) {
  auto ps = newGraphicsPipeline(rhi, "lines.vert", "lines.frag");
  if (!ps) return nullptr;
  ps->setTopology(QRhiGraphicsPipeline::Lines);
  ps->setFlags(QRhiGraphicsPipeline::UsesScissor);
  QRhiVertexInputLayout layout;
  layout.setBindings({{sizeof(gpu::LineVertex)}});
  layout.setAttributes(
      {{0, 0, QRhiVertexInputAttribute::Float3, 0}, {0, 1, QRhiVertexInputAttribute::Float4, 3 * sizeof(float)}});
  ps->setVertexInputLayout(layout);
  ps->setDepthTest(depthTest);
  ps->setDepthWrite(false);
  QRhiGraphicsPipeline::TargetBlend blend;
  blend.enable = true;
  ps->setTargetBlends({blend});
  return createGraphicsPipeline(std::move(ps), rp, samples, bindings);
}

}  // namespace riglens::render
