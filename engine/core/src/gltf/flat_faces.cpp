#include "riglens/core/gltf/flat_faces.h"

#include <cstring>

namespace riglens::core {

bool hasFlatFaces(const PartMesh& mesh) {
  const std::size_t vertices = mesh.vertexCount();
  if (vertices == 0 || mesh.indices.empty() || mesh.normals.size() != vertices * 3 ||
      mesh.colors.size() != vertices * 3)
    return false;
  // Bits, not values: the check promises the shader the same inputs at each
  // corner, so -0 and +0 (which a normalisation could tell apart) differ here.
  const auto sameTriple = [](const std::vector<float>& values, std::uint32_t a, std::uint32_t b) {
    return std::memcmp(&values[std::size_t(a) * 3], &values[std::size_t(b) * 3], 3 * sizeof(float)) == 0;
  };
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const std::uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
    if (a >= vertices || b >= vertices || c >= vertices) return false;
    if (!sameTriple(mesh.normals, a, b) || !sameTriple(mesh.normals, a, c) || !sameTriple(mesh.colors, a, b) ||
        !sameTriple(mesh.colors, a, c))
      return false;
  }
  return true;
}

}  // namespace riglens::core
