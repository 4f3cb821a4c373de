// A character as gaussians, the way `riglens-cli render` and the render tests
// see it: the GNM pass and the debug lift on the GPU, read back into a
// GaussianCloud the SplatRenderer draws. One call per pose (tools, goldens);
// a per-frame viewer chains the passes' buffers instead.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "riglens/core/aosrig.h"
#include "riglens/core/expected.h"
#include "riglens/core/gaussian_ply.h"
#include "riglens/render/rhi_device.h"

namespace riglens::render {

// The character tints: per-vertex colours (joint, uv, height) or a shading of
// the lift (flat, normals).
enum class CharacterTint { Joint, Uv, Height, Flat, Normals };

std::optional<CharacterTint> parseCharacterTint(std::string_view name);  // "color" is an alias of joint
const char* characterTintName(CharacterTint tint);
inline constexpr CharacterTint kAllCharacterTints[] = {CharacterTint::Joint, CharacterTint::Uv, CharacterTint::Height,
                                                       CharacterTint::Flat, CharacterTint::Normals};

struct CharacterLook {
  CharacterTint tint = CharacterTint::Joint;
  float sigma = 0.002f;  // metres
};

// `headExt`: the pack's controls (empty: neutral).
core::Expected<core::GaussianCloud> characterSplatsOnGpu(RhiDevice& device, const core::AosRigPack& pack, std::span<const float> headExt,
                                                         const CharacterLook& look);

}  // namespace riglens::render
