#include "part_geometry.h"

#include <QtGui/QVector3D>
#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

namespace riglens::quick3d {

PartGeometry::PartGeometry(const core::PartMesh& mesh, const core::SkinData* skin, const core::MeshMaterials* materials,
                           QQuick3DObject* parent)
    : QQuick3DGeometry(parent), m_shown(&mesh.colors) {
  const std::size_t vertices = mesh.vertexCount();
  const bool skinned = skin && skin->vertexCount() == vertices;
  if (skin) m_skinAt = std::exchange(m_floats, m_floats + kSkinFloats);
  if (materials && !materials->empty()) m_surfaceAt = std::exchange(m_floats, m_floats + kSurfaceFloats);
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
        std::memcpy(out + m_skinAt + k, &joint, sizeof(joint));
        out[m_skinAt + 4 + k] = skin->weight(v, k);
      }
    const QVector3D p(out[0], out[1], out[2]);
    lo = QVector3D(std::min(lo.x(), p.x()), std::min(lo.y(), p.y()), std::min(lo.z(), p.z()));
    hi = QVector3D(std::max(hi.x(), p.x()), std::max(hi.y(), p.y()), std::max(hi.z(), p.z()));
  }
  m_indices = QByteArray(reinterpret_cast<const char*>(mesh.indices.data()),
                         qsizetype(mesh.indices.size() * sizeof(std::uint32_t)));
  m_lo = lo;
  m_hi = hi;
  if (m_surfaceAt) {
    fillSurface(*materials);
    addSubsets(mesh, *materials);
  }
  describe();
}

// Texture coordinates (set 0, set 1; zero where the file has none) and the
// tangent frame: the tangent, and the binormal glTF defines as
// cross(normal, tangent) x w (3.7.2.1), which Qt takes as given.
void PartGeometry::fillSurface(const core::MeshMaterials& materials) {
  const std::size_t vertices = vertexCount();
  const bool uv0 = materials.uvs.size() == vertices * 2, uv1 = materials.uvs1.size() == vertices * 2;
  const bool tangents = materials.tangents.size() == vertices * 4;
  auto* out = reinterpret_cast<float*>(m_vertices.data());
  for (std::size_t v = 0; v < vertices; ++v, out += m_floats) {
    float* surface = out + m_surfaceAt;
    if (uv0) std::memcpy(surface, &materials.uvs[v * 2], 2 * sizeof(float));
    if (uv1) std::memcpy(surface + 2, &materials.uvs1[v * 2], 2 * sizeof(float));
    if (!tangents) continue;
    const QVector3D n(out[3], out[4], out[5]);
    const float* t = &materials.tangents[v * 4];
    const QVector3D binormal = QVector3D::crossProduct(n, QVector3D(t[0], t[1], t[2])) * (t[3] < 0.0f ? -1.0f : 1.0f);
    std::memcpy(surface + 4, t, 3 * sizeof(float));
    surface[7] = binormal.x();
    surface[8] = binormal.y();
    surface[9] = binormal.z();
  }
  m_hasTangents = tangents;
}

// A subset per section, bounded by its own vertices; a section out of the
// index range (the loader forbids it) is left out rather than read past.
void PartGeometry::addSubsets(const core::PartMesh& mesh, const core::MeshMaterials& materials) {
  for (const core::MeshSection& section : materials.sections) {
    if (std::size_t(section.firstIndex) + section.indexCount > mesh.indices.size()) continue;
    constexpr float inf = std::numeric_limits<float>::infinity();
    QVector3D lo(inf, inf, inf), hi(-inf, -inf, -inf);
    for (std::uint32_t i = section.firstIndex; i < section.firstIndex + section.indexCount; ++i) {
      const std::uint32_t v = mesh.indices[i];
      if (std::size_t(v) * 3 + 2 >= mesh.positions.size()) continue;
      const QVector3D p(mesh.positions[v * 3], mesh.positions[v * 3 + 1], mesh.positions[v * 3 + 2]);
      lo = QVector3D(std::min(lo.x(), p.x()), std::min(lo.y(), p.y()), std::min(lo.z(), p.z()));
      hi = QVector3D(std::max(hi.x(), p.x()), std::max(hi.y(), p.y()), std::max(hi.z(), p.z()));
    }
    m_subsets.push_back({int(section.firstIndex), int(section.indexCount), lo, hi});
    m_subsetMaterials.push_back(section.material);
  }
}

void PartGeometry::describe() {
  setVertexData(m_vertices);
  setIndexData(m_indices);
  setStride(m_floats * int(sizeof(float)));
  setPrimitiveType(PrimitiveType::Triangles);
  addAttribute(Attribute::PositionSemantic, 0, Attribute::F32Type);
  addAttribute(Attribute::NormalSemantic, 3 * sizeof(float), Attribute::F32Type);
  if (m_colors) addAttribute(Attribute::ColorSemantic, 6 * sizeof(float), Attribute::F32Type);
  constexpr int f = sizeof(float);
  if (m_skinAt) {
    addAttribute(Attribute::JointSemantic, m_skinAt * f, Attribute::U32Type);
    addAttribute(Attribute::WeightSemantic, (m_skinAt + 4) * f, Attribute::F32Type);
  }
  if (m_surfaceAt) {
    addAttribute(Attribute::TexCoord0Semantic, m_surfaceAt * f, Attribute::F32Type);
    addAttribute(Attribute::TexCoord1Semantic, (m_surfaceAt + 2) * f, Attribute::F32Type);
  }
  if (m_hasTangents) {
    addAttribute(Attribute::TangentSemantic, (m_surfaceAt + 4) * f, Attribute::F32Type);
    addAttribute(Attribute::BinormalSemantic, (m_surfaceAt + 7) * f, Attribute::F32Type);
  }
  for (const Subset& subset : m_subsets) addSubset(subset.offset, subset.count, subset.lo, subset.hi);
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
