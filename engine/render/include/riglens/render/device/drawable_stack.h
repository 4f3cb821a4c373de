// DrawableStack: several drawables in one pass, in order. The voxel renderer
// goes first so the splats drawn after it depth-test against its depth.
#pragma once

#include <initializer_list>
#include <vector>

#include "riglens/render/device/frame_drawable.h"

namespace riglens::render {

class DrawableStack : public FrameDrawable {
 public:
  DrawableStack(std::initializer_list<FrameDrawable*> layers) : m_layers(layers) {}

  bool prepare(QRhiCommandBuffer* cb, QRhiRenderPassDescriptor* renderPass, int sampleCount, QSize outputSize,
               const FrameState& state) override {
    bool ok = true;
    m_prepared.assign(m_layers.size(), false);
    for (std::size_t i = 0; i < m_layers.size(); ++i) {
      m_prepared[i] = m_layers[i]->prepare(cb, renderPass, sampleCount, outputSize, state);
      ok = ok && m_prepared[i];
    }
    return ok;
  }
  // Records the layers that prepared: one that failed (a character on a GPU
  // without compute) does not take the others down with it.
  void record(QRhiCommandBuffer* cb, QRect viewport, QSize targetSize) override {
    for (std::size_t i = 0; i < m_layers.size(); ++i)
      if (i < m_prepared.size() && m_prepared[i]) m_layers[i]->record(cb, viewport, targetSize);
  }
  std::string failure() const override {
    for (FrameDrawable* layer : m_layers)
      if (std::string why = layer->failure(); !why.empty()) return why;
    return {};
  }
  bool wantsAnotherFrame() const override {
    for (FrameDrawable* layer : m_layers)
      if (layer->wantsAnotherFrame()) return true;
    return false;
  }
  bool uploading() const override {
    for (FrameDrawable* layer : m_layers)
      if (layer->uploading()) return true;
    return false;
  }

 private:
  std::vector<FrameDrawable*> m_layers;
  std::vector<bool> m_prepared;
};

}  // namespace riglens::render
