// Linear blend skinning for a skinned mesh.glb (bones = rig parts), the CPU
// reference for the GPU skinning pass.
//
// bone matrix b = world(part of b) * inverseBind(b)   (identity world for a
// bone that is no part). p' = sum_i w_i * bone(j_i) * p; normals by the same
// blend of the upper 3x3 (valid for the rigid bones rigs produce), then
// renormalised. Reference: Magnenat-Thalmann et al., "Joint-dependent local
// deformations for hand animation and object grasping" (1988).
#pragma once

#include <glm/mat4x4.hpp>
#include <span>
#include <vector>

#include "riglens/core/gltf/glb_reader.h"
#include "riglens/core/gltf/part_mesh.h"

namespace riglens::core {

// boneParts[b] is the rig part of bone b (kNoIndex: identity).
std::vector<glm::mat4> boneMatrices(const SkinData& skin, std::span<const int> boneParts,
                                    std::span<const glm::mat4> partWorlds);

// Skins `rest` (positions and normals) with `bones`; colours and indices are
// copied. Weights are used as stored (the glTF spec asks for them to sum to 1).
PartMesh skinMesh(const PartMesh& rest, const SkinData& skin, std::span<const glm::mat4> bones);

}  // namespace riglens::core
