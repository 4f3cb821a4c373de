// The lift's uniform block (shader_interface.h's LiftParams) from the core's
// parameters. core::writeDebugLiftParams writes the same 96 bytes as the
// contract states them; parity::verifyShaderLayouts checks the two agree.
#pragma once

#include "device/gpu_layouts.h"
#include "riglens/core/character/debug_lift.h"

namespace riglens::render::gpu {

inline LiftParams liftBlock(const core::DebugLiftParams& p) {
  LiftParams block{};
  block.vertexCount = p.vertexCount;
  block.slotOffset = p.slotOffset;
  block.slotCount = p.slotCount;
  block.shading = static_cast<uint>(p.shading);
  const auto row = [&p](int r) {
    return vec4{p.affine[r * 4], p.affine[r * 4 + 1], p.affine[r * 4 + 2], p.affine[r * 4 + 3]};
  };
  block.row0 = row(0);
  block.row1 = row(1);
  block.row2 = row(2);
  block.sigma = p.sigma;
  block.opacity = p.opacity;
  block.centre = {p.centroid.x, p.centroid.y, p.centroid.z, 1.0f};
  return block;
}

}  // namespace riglens::render::gpu
