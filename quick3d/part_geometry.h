// PartGeometry: one rig part's PartMesh as a Qt Quick 3D geometry: positions,
// normals and vertex colours interleaved (colours linear, as the rig contract
// has them: Qt Quick 3D multiplies vertex colours in linear space), and the
// triangle indices. Built once per model; posing moves nodes, not vertices.
//
// A skinned mesh (a skinned mesh.glb, or a glTF file's nodes as bones) adds
// four joint indices and four weights per vertex, for Qt Quick 3D's own
// skinning (Model.skin): the joint nodes move, the vertices stay. Morph
// targets are the one case that rewrites vertices (setMorphed), and only
// when their weights change.
//
// A model with glTF materials (core::MeshMaterials) adds, for the PBR look,
// its two texture coordinate sets and its tangent frame (tangent and
// binormal: Qt 6.4 takes no bitangent sign), and one subset per section,
// so that Model.materials[i] draws section i.
#pragma once

#include <QtGui/QVector3D>
#include <QtQuick3D/QQuick3DGeometry>
#include <vector>

#include "riglens/core/gltf/glb_reader.h"
#include "riglens/core/gltf/mesh_materials.h"
#include "riglens/core/gltf/part_mesh.h"

namespace riglens::quick3d {

class PartGeometry : public QQuick3DGeometry {
  Q_OBJECT
 public:
  // `skin` (null: a rigid part) gives each vertex its joints and weights;
  // `materials` (null: none) its texture coordinates, tangents and sections.
  explicit PartGeometry(const core::PartMesh& mesh, const core::SkinData* skin = nullptr,
                        const core::MeshMaterials* materials = nullptr, QQuick3DObject* parent = nullptr);

  // The material index of each subset, in subset order (empty: one material
  // for the whole mesh).
  const std::vector<int>& subsetMaterials() const { return m_subsetMaterials; }

  // The vertex colours the material gets: `rgb` (linear, 3 per vertex: the
  // mesh's own, or a per-vertex tint such as a skinned mesh's bone weights),
  // or none. Qt Quick 3D 6.4's default material multiplies in a geometry's
  // colours whatever its vertexColorsEnabled says, so the part and joint
  // tints, which replace the colour as the viewer's do, drop the attribute.
  // The mesh is described again and re-uploaded: on a tint change only.
  void showColors(const std::vector<float>* rgb);
  bool colorsShown() const { return m_colors; }

  // Replaces the positions and normals (the same vertex count: a morphed
  // copy of the mesh this was built from) and uploads them.
  void setMorphed(const core::PartMesh& morphed);

  // Floats per vertex: position, normal (3 each), colour (4); a skinned
  // mesh adds joints (4 u32) and weights (4 floats); a model with materials
  // two texture coordinate pairs, a tangent and a binormal (3 each).
  static constexpr int kRigidFloats = 10;
  static constexpr int kSkinFloats = 8;
  static constexpr int kSurfaceFloats = 10;

 private:
  void fillSurface(const core::MeshMaterials& materials);
  void addSubsets(const core::PartMesh& mesh, const core::MeshMaterials& materials);
  void describe();  // hands Qt the data and the attributes
  std::size_t vertexCount() const { return std::size_t(m_vertices.size()) / (std::size_t(m_floats) * sizeof(float)); }

  QByteArray m_vertices, m_indices;
  int m_floats = kRigidFloats;
  int m_skinAt = 0, m_surfaceAt = 0;  // where the skin's and the surface's floats start (0: none)
  bool m_hasTangents = false;
  std::vector<int> m_subsetMaterials;
  struct Subset {
    int offset, count;
    QVector3D lo, hi;
  };
  std::vector<Subset> m_subsets;
  bool m_colors = true;
  const std::vector<float>* m_shown = nullptr;  // which colours m_vertices holds (identity only)
  QVector3D m_lo, m_hi;
};

}  // namespace riglens::quick3d
