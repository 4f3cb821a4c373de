// Two surface characters for the same voxel volume, so the sample runs
// exercise the renderer on both (the meshing binaries have more; every one
// yields the same core::PartMesh shape):
//
// - meshCubes: the blocky cube surface: one quad per voxel face whose
//   neighbour is empty (interior faces culled), flat normals, the voxel's
//   colour.
// - meshSurfaceNets: a smooth surface: Surface Nets (Gibson, "Constrained
//   elastic surface nets", 1998) over the occupancy field box-filtered once,
//   one vertex per sign-changing cell at the mean of its edge crossings,
//   area-weighted normals, the colour of the nearest filled voxel.
//
// Both emit counter-clockwise triangles seen from outside.
#pragma once

#include "riglens/core/gltf/part_mesh.h"
#include "riglens/samples/voxel_volume.h"

namespace riglens::samples {

core::PartMesh meshCubes(const VoxelVolume& volume);
core::PartMesh meshSurfaceNets(const VoxelVolume& volume);

}  // namespace riglens::samples
