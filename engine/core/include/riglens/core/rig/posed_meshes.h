// A run's part meshes as posed: each part's mesh placed by its world matrix
// (a skinned mesh.glb skinned by its bones instead, as one mesh), in part
// order. What `riglens-cli pose --vertices` writes and `compare` measures.
#pragma once

#include <glm/mat4x4.hpp>
#include <span>
#include <vector>

#include "riglens/core/gltf/part_mesh.h"
#include "riglens/core/rig/run_loader.h"

namespace riglens::core {

std::vector<PartMesh> posedPartMeshes(const LoadedRun& run, std::span<const glm::mat4> partWorlds);

}  // namespace riglens::core
