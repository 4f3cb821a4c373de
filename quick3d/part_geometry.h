// PartGeometry: one rig part's PartMesh as a Qt Quick 3D geometry: positions,
// normals and vertex colours interleaved (colours linear, as the rig contract
// has them: Qt Quick 3D multiplies vertex colours in linear space), and the
// triangle indices. Built once per model; posing moves nodes, not vertices.
#pragma once

#include <QtQuick3D/QQuick3DGeometry>

#include "riglens/core/gltf/part_mesh.h"

namespace riglens::quick3d {

class PartGeometry : public QQuick3DGeometry {
  Q_OBJECT
 public:
  explicit PartGeometry(const core::PartMesh& mesh, QQuick3DObject* parent = nullptr);

  // Bytes per vertex: position, normal (3 floats each), colour (4 floats).
  static constexpr int kStride = 10 * int(sizeof(float));
};

}  // namespace riglens::quick3d
