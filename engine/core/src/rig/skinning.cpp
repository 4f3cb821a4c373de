#include "riglens/core/rig/skinning.h"

#include <algorithm>
#include <cassert>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>

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

std::vector<Bounds> boneBindBounds(const PartMesh& rest, const SkinData& skin) {
  std::vector<Bounds> bounds(skin.boneNames.size());
  const std::size_t n = std::min(rest.vertexCount(), skin.vertexCount());
  for (std::size_t v = 0; v < n; ++v) {
    const glm::vec3 p(rest.positions[v * 3], rest.positions[v * 3 + 1], rest.positions[v * 3 + 2]);
    for (std::size_t i = 0; i < 4; ++i)
      if (skin.weight(v, i) > 0.0f && skin.joint(v, i) < bounds.size()) bounds[skin.joint(v, i)].include(p);
  }
  return bounds;
}

std::vector<BoneMorphBox> boneMorphBoxes(const PartMesh& rest, const SkinData& skin, const MorphData& morph) {
  std::vector<BoneMorphBox> out;
  std::vector<Bounds> perBone(skin.boneNames.size());  // one slot's boxes, reused slot after slot
  const std::size_t n = std::min(rest.vertexCount(), skin.vertexCount());
  for (const MorphData::Range& range : morph.ranges) {
    const std::size_t end = std::min<std::size_t>(range.firstVertex + std::size_t(range.vertexCount), n);
    for (std::uint32_t slot = range.firstSlot; slot < range.firstSlot + range.slotCount; ++slot) {
      std::fill(perBone.begin(), perBone.end(), Bounds{});
      const float* deltas = morph.positionDeltas.data() + morph.slotOffsets[slot];
      for (std::size_t v = range.firstVertex; v < end; ++v) {
        const float* d = deltas + (v - range.firstVertex) * 3;
        for (std::size_t i = 0; i < 4; ++i)
          if (skin.weight(v, i) > 0.0f && skin.joint(v, i) < perBone.size())
            perBone[skin.joint(v, i)].include({d[0], d[1], d[2]});
      }
      for (std::size_t bone = 0; bone < perBone.size(); ++bone)
        if (!perBone[bone].empty) out.push_back({std::uint32_t(bone), slot, perBone[bone].min, perBone[bone].max});
    }
  }
  return out;
}

std::vector<Bounds> morphedBoneBounds(std::span<const Bounds> rest, std::span<const BoneMorphBox> morphBoxes,
                                      std::span<const float> weights) {
  std::vector<Bounds> out(rest.begin(), rest.end());
  for (const BoneMorphBox& box : morphBoxes) {
    if (box.bone >= out.size() || box.slot >= weights.size() || out[box.bone].empty) continue;
    const float w = weights[box.slot];
    if (w == 0.0f) continue;
    // w x [min, max]: the ends swap when w is negative.
    out[box.bone].min += glm::min(w * box.min, w * box.max);
    out[box.bone].max += glm::max(w * box.min, w * box.max);
  }
  return out;
}

namespace {

glm::mat4 blendedBone(const SkinData& skin, std::span<const glm::mat4> bones, std::size_t v) {
  if (skin.isRigid()) return bones[skin.rigid[v]];
  glm::mat4 blend(0.0f);
  for (std::size_t i = 0; i < 4; ++i) blend += skin.weights[v * 4 + i] * bones[skin.joints[v * 4 + i]];
  return blend;
}

}  // namespace

std::vector<float> skinTangents(std::span<const float> rest, const SkinData& skin, std::span<const glm::mat4> bones) {
  const std::size_t n = rest.size() / 4;
  assert(skin.vertexCount() == n);
  std::vector<float> out(n * 4);
  for (std::size_t v = 0; v < n; ++v) {
    const glm::mat3 blend(blendedBone(skin, bones, v));
    glm::vec3 t = blend * glm::vec3(rest[v * 4], rest[v * 4 + 1], rest[v * 4 + 2]);
    const float len = glm::length(t);
    if (len > 0) t /= len;
    out[v * 4] = t.x;
    out[v * 4 + 1] = t.y;
    out[v * 4 + 2] = t.z;
    out[v * 4 + 3] = glm::determinant(blend) < 0 ? -rest[v * 4 + 3] : rest[v * 4 + 3];
  }
  return out;
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
    const glm::mat4 blend = blendedBone(skin, bones, v);
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
