#include "riglens/core/rig/skinning.h"

#include <cassert>

#include "riglens/core/rig/rig.h"
#include "riglens/core/rig/run_loader.h"

namespace riglens::core {

std::vector<glm::mat4> boneMatrices(const SkinData& skin, std::span<const int> boneParts,
                                    std::span<const glm::mat4> partWorlds, const GltfPose* gltfPose) {
  std::vector<glm::mat4> bones(skin.boneNames.size(), glm::mat4(1.0f));
  for (std::size_t b = 0; b < bones.size(); ++b) {
    const int part = b < boneParts.size() ? boneParts[b] : kNoIndex;
    const int node = b < skin.boneNodes.size() ? skin.boneNodes[b] : kGltfNone;
    glm::mat4 world(1.0f);
    if (part != kNoIndex && std::size_t(part) < partWorlds.size())
      world = partWorlds[std::size_t(part)];
    else if (gltfPose && node >= 0 && std::size_t(node) < gltfPose->worlds.size())
      world = glm::mat4(gltfPose->worlds[std::size_t(node)]);
    bones[b] = world * skin.inverseBinds[b];
  }
  return bones;
}

std::vector<glm::mat4> runBones(const LoadedRun& run, std::span<const glm::mat4> partWorlds, const GltfPose* gltfPose) {
  if (!run.skin) return {};
  if (gltfPose || run.gltf.nodes.empty()) return boneMatrices(*run.skin, run.boneParts, partWorlds, gltfPose);
  const GltfPose rest = gltfRestPose(run.gltf);
  return boneMatrices(*run.skin, run.boneParts, partWorlds, &rest);
}

std::vector<float> runMorphWeights(const LoadedRun& run, const GltfPose* gltfPose) {
  if (run.morph.empty()) return {};
  if (gltfPose) return morphWeights(run.morph, *gltfPose);
  return morphWeights(run.morph, gltfRestPose(run.gltf));
}

std::vector<Bounds> boneBindBounds(const PartMesh& rest, const SkinData& skin, const MorphData* morph) {
  std::vector<Bounds> bounds(skin.boneNames.size());
  const std::size_t n = std::min(rest.vertexCount(), skin.vertexCount());
  const auto include = [&](std::size_t v, const glm::vec3& p) {
    for (std::size_t i = 0; i < 4; ++i)
      if (skin.weight(v, i) > 0.0f && skin.joint(v, i) < bounds.size()) bounds[skin.joint(v, i)].include(p);
  };
  for (std::size_t v = 0; v < n; ++v) {
    const glm::vec3 p(rest.positions[v * 3], rest.positions[v * 3 + 1], rest.positions[v * 3 + 2]);
    include(v, p);
    if (!morph || v >= morph->rangeOfVertex.size() || morph->rangeOfVertex[v] == MorphData::kNoRange) continue;
    // Morphed: each target at weight 1 and all of them together (the usual
    // range of weights, 0 to 1, spans the box of these corners).
    const MorphData::Range& range = morph->ranges[morph->rangeOfVertex[v]];
    glm::vec3 all = p;
    for (std::uint32_t t = 0; t < range.slotCount; ++t) {
      const std::size_t at = morph->slotOffsets[range.firstSlot + t] + (v - range.firstVertex) * 3;
      const glm::vec3 d(morph->positionDeltas[at], morph->positionDeltas[at + 1], morph->positionDeltas[at + 2]);
      include(v, p + d);
      all += d;
    }
    include(v, all);
  }
  return bounds;
}

PartMesh skinMesh(const PartMesh& rest, const SkinData& skin, std::span<const glm::mat4> bones) {
  const std::size_t n = rest.vertexCount();
  assert(skin.vertexCount() == n);
  PartMesh out;
  out.positions.resize(n * 3);
  out.normals.resize(rest.normals.size());
  out.colors = rest.colors;
  out.indices = rest.indices;
  for (std::size_t v = 0; v < n; ++v) {
    glm::mat4 blend(0.0f);
    if (skin.isRigid())
      blend = bones[skin.rigid[v]];
    else
      for (std::size_t i = 0; i < 4; ++i) blend += skin.weights[v * 4 + i] * bones[skin.joints[v * 4 + i]];
    const glm::vec4 p =
        blend * glm::vec4(rest.positions[v * 3], rest.positions[v * 3 + 1], rest.positions[v * 3 + 2], 1.0f);
    out.positions[v * 3] = p.x;
    out.positions[v * 3 + 1] = p.y;
    out.positions[v * 3 + 2] = p.z;
    if (!rest.normals.empty()) {
      glm::vec3 nrm =
          glm::mat3(blend) * glm::vec3(rest.normals[v * 3], rest.normals[v * 3 + 1], rest.normals[v * 3 + 2]);
      const float len = glm::length(nrm);
      if (len > 0) nrm /= len;
      out.normals[v * 3] = nrm.x;
      out.normals[v * 3 + 1] = nrm.y;
      out.normals[v * 3 + 2] = nrm.z;
    }
  }
  return out;
}

}  // namespace riglens::core
