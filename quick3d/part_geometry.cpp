#include "part_geometry.h"

#include <QtGui/QVector3D>
#include <algorithm>
#include <cstring>
#include <limits>

namespace riglens::quick3d {

PartGeometry::PartGeometry(const core::PartMesh& mesh, QQuick3DObject* parent) : QQuick3DGeometry(parent) {
  const std::size_t vertices = mesh.vertexCount();
  QByteArray data(qsizetype(vertices * kStride), Qt::Uninitialized);
  auto* out = reinterpret_cast<float*>(data.data());
  constexpr float inf = std::numeric_limits<float>::infinity();
  QVector3D lo(inf, inf, inf), hi(-inf, -inf, -inf);
  for (std::size_t v = 0; v < vertices; ++v, out += 10) {
    std::memcpy(out, &mesh.positions[v * 3], 3 * sizeof(float));
    std::memcpy(out + 3, &mesh.normals[v * 3], 3 * sizeof(float));
    std::memcpy(out + 6, &mesh.colors[v * 3], 3 * sizeof(float));
    out[9] = 1.0f;
    const QVector3D p(out[0], out[1], out[2]);
    lo = QVector3D(std::min(lo.x(), p.x()), std::min(lo.y(), p.y()), std::min(lo.z(), p.z()));
    hi = QVector3D(std::max(hi.x(), p.x()), std::max(hi.y(), p.y()), std::max(hi.z(), p.z()));
  }
  setVertexData(data);
  setIndexData(QByteArray(reinterpret_cast<const char*>(mesh.indices.data()),
                          qsizetype(mesh.indices.size() * sizeof(std::uint32_t))));
  setStride(kStride);
  setPrimitiveType(PrimitiveType::Triangles);
  addAttribute(Attribute::PositionSemantic, 0, Attribute::F32Type);
  addAttribute(Attribute::NormalSemantic, 3 * sizeof(float), Attribute::F32Type);
  addAttribute(Attribute::ColorSemantic, 6 * sizeof(float), Attribute::F32Type);
  addAttribute(Attribute::IndexSemantic, 0, Attribute::U32Type);
  if (vertices > 0) setBounds(lo, hi);
}

}  // namespace riglens::quick3d
