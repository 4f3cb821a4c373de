// A character as gaussians read back to the CPU: the GNM pass and the debug
// lift on the GPU, then a GaussianCloud (tools, parity tests). The viewer and
// `riglens-cli render` chain the same passes without read-backs instead
// (riglens/render/character_renderer.h).
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/character/aosrig.h"
#include "riglens/core/character/debug_lift.h"
#include "riglens/core/character/orl_pack.h"
#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/render/device/rhi_device.h"

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
  float opacity = 1.0f;  // 0..1
  bool operator==(const CharacterLook&) const = default;
};

// What the debug lift needs for a look, in two parts so a viewer redoes only
// what changed. The colour tints, one per vertex, depend on the tint alone
// (empty for the flat and normal shadings) and are computed from the rest
// pose (height included: the rig's rest heights), so a colour stays on its
// patch of skin as the face moves — the seed's live preview sets its tint
// once the same way. The uniform is cheap and changes with sigma / opacity.
// Framed like the app: the neutral face fitted to the unit view
// (characterFit, once per pack), so expressions move within the same frame.
core::Expected<std::vector<std::uint32_t>> characterTints(const core::AosRigPack& pack, CharacterTint tint);
core::FitTransform characterFit(const core::AosRigPack& pack);
// The same for an ORL pack: joint (the eye joints' weights as the eye
// weights), uv (the pack has none: one colour) and height (its rest pose).
core::Expected<std::vector<std::uint32_t>> characterTints(const core::OrlPack& pack, CharacterTint tint);
core::FitTransform characterFit(const core::OrlPack& pack);
core::Expected<core::DebugLiftParams> characterLiftParams(std::size_t vertexCount, const core::FitTransform& fit,
                                                          const CharacterLook& look);

}  // namespace riglens::render
