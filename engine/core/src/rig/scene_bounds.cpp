#include "riglens/core/rig/scene_bounds.h"

#include <algorithm>
#include <limits>

#include "riglens/core/rig/skinning.h"

namespace riglens::core {

namespace {

// bounds.include(world * vec4(p, 1)) for every point of `positions`, without
// a call per point (millions in a large model): the same float operations in
// glm's order ((m0 x + m1 y) + (m2 z + m3 w), w = 1), so the same box to the bit.
void includeTransformed(Bounds& bounds, const glm::mat4& m, const std::vector<float>& positions) {
  if (positions.size() < 3) return;
  float lo[3], hi[3];
  for (int r = 0; r < 3; ++r) lo[r] = std::numeric_limits<float>::infinity(), hi[r] = -lo[r];
  for (std::size_t v = 0; v + 2 < positions.size(); v += 3) {
    const float x = positions[v], y = positions[v + 1], z = positions[v + 2];
    for (int r = 0; r < 3; ++r) {
      const float q = (m[0][r] * x + m[1][r] * y) + (m[2][r] * z + m[3][r]);
      lo[r] = std::min(lo[r], q);
      hi[r] = std::max(hi[r], q);
    }
  }
  bounds.include({lo[0], lo[1], lo[2]});
  bounds.include({hi[0], hi[1], hi[2]});
}

}  // namespace

Bounds posedBounds(const LoadedRun& run, std::span<const glm::mat4> partWorlds, const GltfPose* gltfPose) {
  const bool skinned = run.kind == RunKind::SkinnedMesh && run.skin;
  if (!skinned) return posedBounds(run, partWorlds, {}, {});
  return posedBounds(run, partWorlds, runBones(run, partWorlds, gltfPose), runMorphWeights(run, gltfPose));
}

Bounds posedBounds(const LoadedRun& run, std::span<const glm::mat4> partWorlds, std::span<const glm::mat4> bones,
                   std::span<const float> morphWeights) {
  Bounds bounds;
  const bool perPart = run.kind != RunKind::SkinnedMesh;
  if (!perPart && run.skin && run.boneBounds.size() == run.skin->boneNames.size() &&
      bones.size() == run.boneBounds.size()) {
    // A vertex lies within the blend of its bones' boxes: the union of the posed boxes' corners bounds it.
    const std::vector<Bounds> boxes = morphedBoneBounds(run.boneBounds, run.boneMorphBoxes, morphWeights);
    for (std::size_t b = 0; b < bones.size(); ++b) {
      const Bounds posed = boxes[b].transformed(bones[b]);
      if (posed.empty) continue;
      bounds.include(posed.min);
      bounds.include(posed.max);
    }
  }
  for (std::size_t p = 0; p < run.meshes.size() && (perPart || run.boneBounds.empty()); ++p) {
    const glm::mat4 world = perPart && p < partWorlds.size() ? partWorlds[p] : glm::mat4(1.0f);
    includeTransformed(bounds, world, run.meshes[p].positions);
  }
  for (std::size_t p = 0; p < run.rig.parts().size() && p < partWorlds.size(); ++p) {
    const auto& pivot = run.rig.parts()[p].pivot;
    bounds.include(glm::vec3(partWorlds[p] * glm::vec4(float(pivot[0]), float(pivot[1]), float(pivot[2]), 1.0f)));
  }
  return bounds;
}

std::vector<SocketPosition> socketPositions(const LoadedRun& run, std::span<const glm::mat4> partWorlds) {
  std::vector<SocketPosition> out;
  if (run.kind == RunKind::SkinnedMesh || run.kind == RunKind::StaticMesh) return out;
  for (std::size_t p = 0; p < run.rig.parts().size() && p < partWorlds.size(); ++p) {
    if (p < run.meshes.size() && !run.meshes[p].empty()) continue;
    const auto& pivot = run.rig.parts()[p].pivot;
    out.push_back({run.rig.parts()[p].name,
                   glm::vec3(partWorlds[p] * glm::vec4(float(pivot[0]), float(pivot[1]), float(pivot[2]), 1.0f))});
  }
  return out;
}

}  // namespace riglens::core
