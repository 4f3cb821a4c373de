#include "riglens/render/character/character_splats.h"

#include <cmath>

#include "riglens/core/character/debug_lift.h"
#include "riglens/core/character/gnm.h"
#include "riglens/core/character/vertex_tints.h"
#include "riglens/render/character/gpu_character.h"

namespace riglens::render {

std::optional<CharacterTint> parseCharacterTint(std::string_view name) {
  if (name == "color") return CharacterTint::Joint;
  for (CharacterTint tint : kAllCharacterTints)
    if (name == characterTintName(tint)) return tint;
  return std::nullopt;
}

const char* characterTintName(CharacterTint tint) {
  switch (tint) {
    case CharacterTint::Joint: return "joint";
    case CharacterTint::Uv: return "uv";
    case CharacterTint::Height: return "height";
    case CharacterTint::Flat: return "flat";
    case CharacterTint::Normals: return "normals";
  }
  return "joint";
}

core::Expected<std::vector<std::uint32_t>> characterTints(const core::AosRigPack& pack, CharacterTint tint) {
  const std::size_t V = pack.vertexCount;
  switch (tint) {
    case CharacterTint::Joint:
      return core::jointTint(pack.skinIndex, pack.skinWeight, {pack.eyeWeights.data(), pack.eyeWeights.size()}, V);
    case CharacterTint::Uv: return core::uvTint({pack.uv.data(), pack.uv.size()}, V);
    case CharacterTint::Height: {
      // Heights of the rest pose as the rig places it (bind transform
      // included): the CPU reference with no controls.
      auto rest = core::gnmPose(pack, {});
      if (!rest) return rest.error();
      return core::heightTint(*rest);
    }
    case CharacterTint::Flat:
    case CharacterTint::Normals: break;
  }
  return std::vector<std::uint32_t>();
}

core::Expected<core::DebugLiftParams> characterLiftParams(std::size_t vertexCount, const core::FitTransform& fit,
                                                          const CharacterLook& look) {
  if (!(look.sigma > 0) || !std::isfinite(look.sigma))
    return core::makeError(core::ErrorCode::Invalid, "the gaussian sigma must be a positive number");
  if (!(look.opacity >= 0 && look.opacity <= 1))
    return core::makeError(core::ErrorCode::Invalid, "the opacity must be between 0 and 1");
  core::DebugLiftParams params;
  params.shading = look.tint == CharacterTint::Flat      ? core::LiftShading::Flat
                   : look.tint == CharacterTint::Normals ? core::LiftShading::Normal
                                                         : core::LiftShading::Tint;
  params.vertexCount = std::uint32_t(vertexCount);
  params.slotCount = std::uint32_t(vertexCount);
  params.affine = fit.rows;
  params.sigma = look.sigma;
  params.opacity = look.opacity;
  params.centroid = fit.centroid;
  return params;
}

core::FitTransform characterFit(const core::AosRigPack& pack) {
  return core::fitVertsTransform({pack.neutral.data(), pack.vertexCount * 3});
}

}  // namespace riglens::render
