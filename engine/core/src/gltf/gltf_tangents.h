// The tangents of a model's normal maps (MeshMaterials::tangents): the
// file's TANGENT where it gives them (read per primitive, placed like the
// normals), MikkTSpace's where it does not (core::mikkTangents, over each
// normal-mapped section, from the coordinates its map is read with: the
// stored set through the map's own texture transform). Both end in the
// mesh's space, as if made in the node's and placed by it.
#pragma once

#include <vector>

#include "riglens/core/gltf/mesh_materials.h"
#include "riglens/core/gltf/part_mesh.h"

namespace riglens::core {

class TangentCollector {
 public:
  // A primitive's `count` vertices: its TANGENT (4 per vertex; empty: none)
  // placed by `world3` (the node's 3x3; a mirroring one flips the sign).
  void addPrimitive(const std::vector<float>& tangents, std::size_t count, const double world3[9]);
  // Fills `materials.tangents` once the mesh and its normals are final
  // (nothing when no material has a normal map).
  void finish(const PartMesh& mesh, MeshMaterials& materials) const;

 private:
  std::vector<float> m_tangents;  // 4 per vertex, zeros where the file gave none
  std::vector<bool> m_fromFile;
  // Placed by a mirroring node: MikkTSpace, run on the placed vertices, reads
  // its sign from the coordinates alone, so a made tangent's sign is flipped
  // there (as if made before the node placed it, then placed).
  std::vector<bool> m_mirrored;
};

}  // namespace riglens::core
