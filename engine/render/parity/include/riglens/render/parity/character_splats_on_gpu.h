#pragma once

#include <span>

#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/render/character/character_splats.h"

namespace riglens::render {

// `headExt`: the pack's controls (empty: neutral).
core::Expected<core::GaussianCloud> characterSplatsOnGpu(RhiDevice& device, const core::AosRigPack& pack,
                                                         std::span<const float> headExt, const CharacterLook& look);

}  // namespace riglens::render
