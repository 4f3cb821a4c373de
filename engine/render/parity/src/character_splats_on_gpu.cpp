#include "riglens/render/parity/character_splats_on_gpu.h"

#include "riglens/render/character/gpu_character.h"
#include "riglens/render/parity/lift_on_gpu.h"

namespace riglens::render {

core::Expected<core::GaussianCloud> characterSplatsOnGpu(RhiDevice& device, const core::AosRigPack& pack,
                                                         std::span<const float> headExt, const CharacterLook& look) {
  auto params = characterLiftParams(pack.vertexCount, characterFit(pack), look);
  if (!params) return params.error();
  auto tints = characterTints(pack, look.tint);
  if (!tints) return tints.error();
  auto posed = gnmPoseOnGpu(device, pack, headExt);
  if (!posed) return posed.error();
  const std::size_t V = pack.vertexCount;
  auto sink = debugLiftOnGpu(device, *params, *posed, *tints, core::SplatSink(V));
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
