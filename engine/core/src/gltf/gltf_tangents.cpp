#include "gltf_tangents.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>

#include "riglens/core/gltf/tangent_space.h"

namespace riglens::core {

void TangentCollector::addPrimitive(const std::vector<float>& tangents, std::size_t count, const double world3[9]) {
  const std::size_t first = m_fromFile.size();
  glm::dmat3 m;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) m[c][r] = world3[c * 3 + r];
  const double mirror = glm::determinant(m) < 0 ? -1.0 : 1.0;
  m_fromFile.resize(first + count, !tangents.empty());
  m_mirrored.resize(first + count, mirror < 0);
  m_tangents.resize((first + count) * 4, 0.0f);
  if (tangents.empty()) return;
  for (std::size_t v = 0; v < count; ++v) {
    glm::dvec3 t = m * glm::dvec3(tangents[v * 4], tangents[v * 4 + 1], tangents[v * 4 + 2]);
    const double length = glm::length(t);
    t = length > 0 && std::isfinite(length) ? t / length : glm::dvec3(0.0);
    const double w = tangents[v * 4 + 3] < 0 ? -mirror : mirror;
    float* out = &m_tangents[(first + v) * 4];
    out[0] = float(t.x), out[1] = float(t.y), out[2] = float(t.z), out[3] = float(w);
  }
}

void TangentCollector::finish(const PartMesh& mesh, MeshMaterials& materials) const {
  const bool anyNormalMap = std::any_of(materials.materials.begin(), materials.materials.end(),
                                        [](const MeshMaterial& m) { return m.pbr.normal.image >= 0; });
  const std::size_t vertices = mesh.vertexCount();
  if (!anyNormalMap || m_fromFile.size() != vertices) return;
  materials.tangents = m_tangents;
  for (const MeshSection& section : materials.sections) {
    if (section.material < 0 || std::size_t(section.material) >= materials.materials.size()) continue;
    const MaterialTexture& map = materials.materials[std::size_t(section.material)].pbr.normal;
    const std::vector<float>& stored = map.set == 1 ? materials.uvs1 : materials.uvs;
    if (map.image < 0 || stored.size() != vertices * 2) continue;
    if (std::size_t(section.firstIndex) + section.indexCount > mesh.indices.size()) continue;
    const std::span<const std::uint32_t> triangles(mesh.indices.data() + section.firstIndex, section.indexCount);
    if (std::all_of(triangles.begin(), triangles.end(), [&](std::uint32_t v) { return v < vertices && m_fromFile[v]; }))
      continue;
    // The coordinates the map is read with: its own transform of the stored set.
    std::vector<float> uvs(vertices * 2, 0.0f);
    const float* t = map.uvTransform;
    for (std::uint32_t v : triangles) {
      if (v >= vertices) continue;
      const float u = stored[v * 2], w = stored[v * 2 + 1];
      uvs[v * 2] = t[0] * u + t[1] * w + t[2];
      uvs[v * 2 + 1] = t[3] * u + t[4] * w + t[5];
    }
    const std::vector<float> made = mikkTangents(mesh.positions, mesh.normals, uvs, triangles);
    for (std::uint32_t v : triangles)
      if (v < vertices && !m_fromFile[v]) {
        std::copy_n(&made[v * 4], 4, &materials.tangents[v * 4]);
        if (m_mirrored[v]) materials.tangents[v * 4 + 3] = -materials.tangents[v * 4 + 3];
      }
  }
}

}  // namespace riglens::core
