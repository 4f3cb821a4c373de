// PartMesh: one part's triangles as flat arrays, the shape every loader
// produces and every renderer and exporter consumes, whichever mesher made
// the geometry (cube, Marching Cubes, Surface Nets, Dual Contouring).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace riglens::core {

struct PartMesh {
  std::vector<float> positions;        // xyz per vertex, voxel units, y up, +z forward
  std::vector<float> normals;          // xyz per vertex, unit length
  std::vector<float> colors;           // rgb per vertex, linear 0..1 (no sRGB decode)
  std::vector<std::uint32_t> indices;  // three per triangle, counter-clockwise
  // The triangles enclose a volume, wound outward (isClosedOutwardSurface):
  // set by the run loader for rig parts; the renderer culls their back faces.
  bool closed = false;
  // Every triangle's corners share one normal and one colour (hasFlatFaces):
  // set by the run loader for rig parts; the renderer shades them per vertex.
  bool flatFaces = false;

  std::size_t vertexCount() const { return positions.size() / 3; }
  std::size_t triangleCount() const { return indices.size() / 3; }
  bool empty() const { return positions.empty(); }  // a socket: no geometry
};

}  // namespace riglens::core
