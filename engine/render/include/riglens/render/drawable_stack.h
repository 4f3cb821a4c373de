// DrawableStack: several drawables in one pass, in order. The voxel renderer
// goes first so the splats drawn after it depth-test against its depth.
#pragma once

#include <initializer_list>
#include <vector>

#include "riglens/render/frame_drawable.h"

namespace riglens::render {

class DrawableStack : public FrameDrawable {
 public:
  DrawableStack(std::initializer_list<FrameDrawable*> layers) : m_layers(layers) {}

  bool prepare(QRhiCommandBuffer* cb, QRhiRenderPassDescriptor* renderPass, int sampleCount, QSize outputSize,
               const FrameState& state) override {
    bool ok = true;
    for (FrameDrawable* layer : m_layers) ok = layer->prepare(cb, renderPass, sampleCount, outputSize, state) && ok;
    return ok;
  }
  void record(QRhiCommandBuffer* cb, QRect viewport, QSize targetSize) override {
    for (FrameDrawable* layer : m_layers) layer->record(cb, viewport, targetSize);
  }
  std::string failure() const override {
    for (FrameDrawable* layer : m_layers)
      if (std::string why = layer->failure(); !why.empty()) return why;
    return {};
  }

 private:
  std::vector<FrameDrawable*> m_layers;
};

}  // namespace riglens::render
