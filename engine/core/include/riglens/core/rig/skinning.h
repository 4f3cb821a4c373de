// Linear blend skinning for a skinned mesh.glb (bones = rig parts, or a
// glTF file's own joints), the CPU reference for the GPU skinning pass.
//
// bone matrix b = world(b) * inverseBind(b), world(b) the world of b's rig
// part; for a bone that is no part, the world of its glTF node in the file's
// pose (a clip playing, else its rest pose: glTF 2.0 section 3.7.3.3), else
// the identity. p' = sum_i w_i * bone(j_i) * p; normals by the same
// blend of the upper 3x3 (valid for the rigid bones rigs produce), then
// renormalised. Reference: Magnenat-Thalmann et al., "Joint-dependent local
// deformations for hand animation and object grasping" (1988).
#pragma once

#include <glm/mat4x4.hpp>
#include <span>
#include <vector>

#include "riglens/core/base/bounds.h"
#include "riglens/core/gltf/glb_reader.h"
#include "riglens/core/gltf/gltf_scene.h"
#include "riglens/core/gltf/part_mesh.h"

namespace riglens::core {

struct LoadedRun;

// boneParts[b] is the rig part of bone b (kNoIndex: its node's world in
// `gltfPose` when given, else the identity).
std::vector<glm::mat4> boneMatrices(const SkinData& skin, std::span<const int> boneParts,
                                    std::span<const glm::mat4> partWorlds, const GltfPose* gltfPose = nullptr);

// A skinned run's bones: its parts' worlds, and for the file's own joints
// the glTF pose (`gltfPose`: a clip playing; null: the file's rest pose).
std::vector<glm::mat4> runBones(const LoadedRun& run, std::span<const glm::mat4> partWorlds,
                                const GltfPose* gltfPose = nullptr);

// A skinned run's morph weights, one per slot of run.morph, in `gltfPose`
// (null: the file's rest pose: its nodes' or meshes' default weights).
std::vector<float> runMorphWeights(const LoadedRun& run, const GltfPose* gltfPose = nullptr);

// Per bone, the bounds of the vertices it moves (weight > 0) as the file
// holds them: posed by the bone's matrix, their corners bound the posed mesh.
std::vector<Bounds> boneBindBounds(const PartMesh& rest, const SkinData& skin);

// Every (bone, slot) pair where the slot moves a vertex of the bone, in slot order.
std::vector<BoneMorphBox> boneMorphBoxes(const PartMesh& rest, const SkinData& skin, const MorphData& morph);

// The bones' bind-space boxes with the morph targets at `weights` (one per
// slot): each box grown by w x its slot's delta box (interval arithmetic, so
// it holds every morphed vertex whatever the signs). Summing every target at
// weight 1 instead (the worst case) framed a face with 40 targets ~20x too
// wide; at its rest weights this is the rest box exactly.
std::vector<Bounds> morphedBoneBounds(std::span<const Bounds> rest, std::span<const BoneMorphBox> morphBoxes,
                                      std::span<const float> weights);

// Skins `rest` (positions and normals) with `bones`; colours and indices are
// copied. Weights are used as stored (the glTF spec asks for them to sum to 1).
PartMesh skinMesh(const PartMesh& rest, const SkinData& skin, std::span<const glm::mat4> bones);

// Skins tangents (4 floats a vertex: xyz and the bitangent sign, as glTF's
// TANGENT and MeshMaterials::tangents) with `bones`: xyz turned by each
// vertex's blended matrix and renormalised, as the normals are; the sign
// flips where that matrix mirrors (its determinant is negative), since the
// bitangent cross(n, t) x w must follow the mirrored surface.
std::vector<float> skinTangents(std::span<const float> rest, const SkinData& skin, std::span<const glm::mat4> bones);

}  // namespace riglens::core
