#include "part_geometry.h"

#include <QtGui/QVector3D>
#include <algorithm>
#include <cstring>
#include <limits>

namespace riglens::quick3d {

PartGeometry::PartGeometry(const core::PartMesh& mesh, const core::SkinData* skin, QQuick3DObject* parent)
    : QQuick3DGeometry(parent), m_floats(skin ? kSkinnedFloats : kRigidFloats), m_shown(&mesh.colors) {
  const std::size_t vertices = mesh.vertexCount();
  const bool skinned = skin && skin->vertexCount() == vertices;
  // The core's meshes carry a normal and a colour per vertex; a mesh that
  // did not would get the defaults here rather than reads past its arrays.
  const bool normals = mesh.normals.size() == vertices * 3, colors = mesh.colors.size() == vertices * 3;
  m_vertices = QByteArray(qsizetype(vertices * std::size_t(m_floats) * sizeof(float)), '\0');
  auto* out = reinterpret_cast<float*>(m_vertices.data());
  constexpr float inf = std::numeric_limits<float>::infinity();
  QVector3D lo(inf, inf, inf), hi(-inf, -inf, -inf);
  for (std::size_t v = 0; v < vertices; ++v, out += m_floats) {
    std::memcpy(out, &mesh.positions[v * 3], 3 * sizeof(float));
    if (normals) std::memcpy(out + 3, &mesh.normals[v * 3], 3 * sizeof(float));
    if (colors)
      std::memcpy(out + 6, &mesh.colors[v * 3], 3 * sizeof(float));
    else
      out[6] = out[7] = out[8] = 1.0f;
    out[9] = 1.0f;
    if (skinned)
      for (std::size_t k = 0; k < 4; ++k) {
        const std::uint32_t joint = skin->joint(v, k);
        std::memcpy(out + 10 + k, &joint, sizeof(joint));
        out[14 + k] = skin->weight(v, k);
      }
    const QVector3D p(out[0], out[1], out[2]);
    lo = QVector3D(std::min(lo.x(), p.x()), std::min(lo.y(), p.y()), std::min(lo.z(), p.z()));
    hi = QVector3D(std::max(hi.x(), p.x()), std::max(hi.y(), p.y()), std::max(hi.z(), p.z()));
  }
  m_indices = QByteArray(reinterpret_cast<const char*>(mesh.indices.data()),
                         qsizetype(mesh.indices.size() * sizeof(std::uint32_t)));
  m_lo = lo;
  m_hi = hi;
  describe();
}

void PartGeometry::describe() {
  setVertexData(m_vertices);
  setIndexData(m_indices);
  setStride(m_floats * int(sizeof(float)));
  setPrimitiveType(PrimitiveType::Triangles);
  addAttribute(Attribute::PositionSemantic, 0, Attribute::F32Type);
  addAttribute(Attribute::NormalSemantic, 3 * sizeof(float), Attribute::F32Type);
  if (m_colors) addAttribute(Attribute::ColorSemantic, 6 * sizeof(float), Attribute::F32Type);
  if (m_floats == kSkinnedFloats) {
    addAttribute(Attribute::JointSemantic, 10 * sizeof(float), Attribute::U32Type);
    addAttribute(Attribute::WeightSemantic, 14 * sizeof(float), Attribute::F32Type);
  }
  addAttribute(Attribute::IndexSemantic, 0, Attribute::U32Type);
  // A skinned mesh's bounds are its vertices as the file holds them: Qt
  // Quick 3D 6.4 culls by bounds only when the camera's
  // frustumCullingEnabled is on (off by default; docs/quick3d.md, Limits).
  if (!m_vertices.isEmpty()) setBounds(m_lo, m_hi);
}

void PartGeometry::showColors(const std::vector<float>* rgb) {
  const std::size_t vertices = vertexCount();
  if (rgb && rgb->size() != vertices * 3) return;
  if ((rgb != nullptr) == m_colors && (!rgb || rgb == m_shown)) return;
  if (rgb && rgb != m_shown) {
    auto* out = reinterpret_cast<float*>(m_vertices.data());
    for (std::size_t v = 0; v < vertices; ++v, out += m_floats) std::memcpy(out + 6, &(*rgb)[v * 3], 3 * sizeof(float));
    m_shown = rgb;
  }
  m_colors = rgb != nullptr;
  clear();
  describe();
  update();
}

void PartGeometry::setMorphed(const core::PartMesh& morphed) {
  const std::size_t vertices = vertexCount();
  if (morphed.vertexCount() != vertices || morphed.normals.size() != vertices * 3) return;
  auto* out = reinterpret_cast<float*>(m_vertices.data());
  for (std::size_t v = 0; v < vertices; ++v, out += m_floats) {
    std::memcpy(out, &morphed.positions[v * 3], 3 * sizeof(float));
    std::memcpy(out + 3, &morphed.normals[v * 3], 3 * sizeof(float));
  }
  setVertexData(m_vertices);
  update();
}

}  // namespace riglens::quick3d
