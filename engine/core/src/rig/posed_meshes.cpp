#include "riglens/core/rig/posed_meshes.h"

#include "riglens/core/rig/skinning.h"

namespace riglens::core {

std::vector<PartMesh> posedPartMeshes(const LoadedRun& run, std::span<const glm::mat4> partWorlds) {
  if (run.kind == RunKind::SkinnedMesh && run.skin && !run.meshes.empty())
    return {skinMesh(run.meshes[0], *run.skin, runBones(run, partWorlds))};
  std::vector<PartMesh> posed;
  for (std::size_t i = 0; i < run.meshes.size() && i < partWorlds.size(); ++i) {
    PartMesh mesh = run.meshes[i];
    auto& p = mesh.positions;
    for (std::size_t v = 0; v + 2 < p.size(); v += 3) {
      const glm::vec4 w = partWorlds[i] * glm::vec4(p[v], p[v + 1], p[v + 2], 1.0f);
      p[v] = w.x, p[v + 1] = w.y, p[v + 2] = w.z;
    }
    posed.push_back(std::move(mesh));
  }
  return posed;
}

}  // namespace riglens::core
