// Whether a part's triangles enclose a volume, wound outward: then no back
// face of it can be seen from outside, and the renderer culls them (on a CPU
// rasteriser, half the triangle setup of a voxel part).
#pragma once

#include "riglens/core/gltf/part_mesh.h"

namespace riglens::core {

// True when, with vertices welded by exact position (flat-shaded meshers split
// them per face), every edge is shared by exactly two triangles that run it in
// opposite directions (triangles of no area, two corners at one position,
// left out), and the enclosed signed volume is positive (counter-clockwise
// seen from outside). The Surface Nets, Marching Cubes and Dual Contouring
// meshers produce such parts, and the cube mesher unless two voxels touch at
// an edge only (four faces on one edge). O(triangles) time (hashed),
// O(vertices + triangles) memory; false for an empty mesh or out-of-range
// indices.
bool isClosedOutwardSurface(const PartMesh& mesh);

}  // namespace riglens::core
