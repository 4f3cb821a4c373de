#include "riglens/render/character_splats.h"

#include "riglens/core/character_view.h"
#include "riglens/render/gpu_character.h"

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

core::Expected<core::GaussianCloud> characterSplatsOnGpu(RhiDevice& device, const core::AosRigPack& pack, std::span<const float> headExt,
                                                         const CharacterLook& look) {
  if (!(look.sigma > 0)) return core::makeError(core::ErrorCode::Invalid, "the gaussian sigma must be positive");
  auto posed = gnmPoseOnGpu(device, pack, headExt);
  if (!posed) return posed.error();
  const std::size_t V = pack.vertexCount;
  core::LiftShading shading = core::LiftShading::Tint;
  std::vector<std::uint32_t> tints;
  switch (look.tint) {
    case CharacterTint::Joint:
      tints = core::jointTint(pack.skinIndex, pack.skinWeight, {pack.eyeWeights.data(), pack.eyeWeights.size()}, V);
      break;
    case CharacterTint::Uv: tints = core::uvTint({pack.uv.data(), pack.uv.size()}, V); break;
    case CharacterTint::Height: tints = core::heightTint(*posed); break;
    case CharacterTint::Flat: shading = core::LiftShading::Flat; break;
    case CharacterTint::Normals: shading = core::LiftShading::Normal; break;
  }
  // Framed like the app: the neutral face fitted to the unit view, so
  // expressions move within the same frame.
  const core::FitTransform fit = core::fitVertsTransform({pack.neutral.data(), V * 3});
  core::DebugLiftParams params;
  params.vertexCount = std::uint32_t(V);
  params.slotCount = std::uint32_t(V);
  params.shading = shading;
  params.affine = fit.rows;
  params.sigma = look.sigma;
  params.centroid = fit.centroid;
  auto sink = debugLiftOnGpu(device, params, *posed, tints, core::SplatSink(V));
  if (!sink) return sink.error();
  core::GaussianCloud cloud;
  cloud.count = V;
  cloud.positions.reserve(V * 3);
  cloud.covariance.reserve(V * 6);
  for (std::size_t i = 0; i < V; ++i) {
    const float* c = &sink->center[i * 4];
    const float* a = &sink->covarianceA[i * 4];
    const float* b = &sink->covarianceB[i * 4];
    cloud.positions.insert(cloud.positions.end(), {c[0], c[1], c[2]});
    cloud.covariance.insert(cloud.covariance.end(), {a[0], a[1], a[2], a[3], b[0], b[1]});
  }
  cloud.color = std::move(sink->color);
  return cloud;
}

}  // namespace riglens::render
