#pragma once

#include <span>

#include "riglens/render/character/gpu_lift.h"

namespace riglens::render {

// One debug lift through the GPU pass into a sink of `capacity` slots
// (initially as `initial`, e.g. to show untouched slots stay), read back.
core::Expected<core::SplatSink> debugLiftOnGpu(RhiDevice& device, const core::DebugLiftParams& params,
                                               std::span<const float> positions, std::span<const std::uint32_t> tints,
                                               const core::SplatSink& initial);

}  // namespace riglens::render
