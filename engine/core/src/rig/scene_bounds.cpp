#include "riglens/core/rig/scene_bounds.h"

#include "riglens/core/rig/skinning.h"

namespace riglens::core {

Bounds posedBounds(const LoadedRun& run, std::span<const glm::mat4> partWorlds, const GltfPose* gltfPose) {
  const bool skinned = run.kind == RunKind::SkinnedMesh && run.skin;
  return posedBounds(run, partWorlds, skinned ? runBones(run, partWorlds, gltfPose) : std::vector<glm::mat4>{});
}

Bounds posedBounds(const LoadedRun& run, std::span<const glm::mat4> partWorlds, std::span<const glm::mat4> bones) {
  Bounds bounds;
  const bool perPart = run.kind != RunKind::SkinnedMesh;
  if (!perPart && run.skin && run.boneBounds.size() == run.skin->boneNames.size() &&
      bones.size() == run.boneBounds.size()) {
    // A vertex lies within the blend of its bones' boxes: the union of the posed boxes' corners bounds it.
    for (std::size_t b = 0; b < bones.size(); ++b) {
      const Bounds& box = run.boneBounds[b];
      if (box.empty) continue;
      for (int corner = 0; corner < 8; ++corner) {
        const glm::vec3 p((corner & 1) ? box.max.x : box.min.x, (corner & 2) ? box.max.y : box.min.y,
                          (corner & 4) ? box.max.z : box.min.z);
        bounds.include(glm::vec3(bones[b] * glm::vec4(p, 1.0f)));
      }
    }
  }
  for (std::size_t p = 0; p < run.meshes.size() && (perPart || run.boneBounds.empty()); ++p) {
    const glm::mat4 world = perPart && p < partWorlds.size() ? partWorlds[p] : glm::mat4(1.0f);
    const auto& pos = run.meshes[p].positions;
    for (std::size_t v = 0; v + 2 < pos.size(); v += 3)
      bounds.include(glm::vec3(world * glm::vec4(pos[v], pos[v + 1], pos[v + 2], 1.0f)));
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
