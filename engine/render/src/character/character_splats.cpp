#include "riglens/render/character/character_splats.h"

#include <algorithm>
#include <cmath>

#include "riglens/core/character/debug_lift.h"
#include "riglens/core/character/gnm.h"
#include "riglens/core/character/orl_character.h"
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

core::Expected<std::vector<std::uint32_t>> characterTints(const core::OrlPack& pack, CharacterTint tint) {
  const std::size_t V = pack.vertexCount, I = std::size_t(pack.maxInfluence);
  switch (tint) {
    case CharacterTint::Joint: {
      std::vector<float> eyes(2 * V, 0.0f);
      for (int e = 0; e < 2; ++e) {
        const auto it =
            std::find(pack.jointNames.begin(), pack.jointNames.end(), e == 0 ? "FACIAL_L_Eye" : "FACIAL_R_Eye");
        if (it == pack.jointNames.end()) continue;
        const auto joint = std::uint16_t(it - pack.jointNames.begin());
        for (std::size_t v = 0; v < V; ++v)
          for (std::size_t i = 0; i < I; ++i)
            if (pack.skinIndex[v * I + i] == joint) eyes[std::size_t(e) * V + v] += pack.skinWeight[v * I + i];
      }
      return core::jointTint(pack.skinIndex, pack.skinWeight, eyes, V, I);
    }
    case CharacterTint::Uv: return core::uvTint({}, V);
    case CharacterTint::Height: {
      auto rest = core::orlRestPose(pack);
      if (!rest) return rest.error();
      return core::heightTint(*rest);
    }
    case CharacterTint::Flat:
    case CharacterTint::Normals: break;
  }
  return std::vector<std::uint32_t>();
}

core::FitTransform characterFit(const core::OrlPack& pack) {
  return core::fitVertsTransform({pack.neutral.data(), pack.vertexCount * 3});
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
