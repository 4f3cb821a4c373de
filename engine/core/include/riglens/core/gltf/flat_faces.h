// Whether a part is made of flat faces: then its shading is the same at every
// point of a triangle, and the renderer shades each triangle once, at its
// vertices, instead of at every pixel (on a CPU rasteriser, which shades a
// 4x4 block for each sub-pixel triangle, a third of a voxel run's frame).
#pragma once

#include "riglens/core/gltf/part_mesh.h"

namespace riglens::core {

// True when every triangle's three corners carry the same normal and the same
// colour, bit for bit (the voxel meshers' flat faces: a face's corners are
// its own vertices). False for an empty mesh, out-of-range indices, or
// attribute arrays shorter than the positions.
bool hasFlatFaces(const PartMesh& mesh);

}  // namespace riglens::core
