// The four surface characters of the meshing binaries, for the same voxel
// volume, so the sample runs exercise the renderer on each (every one yields
// the same core::PartMesh shape):
//
// - meshCubes: the blocky cube surface: one quad per voxel face whose
//   neighbour is empty (interior faces culled), flat normals, the voxel's
//   colour.
// - meshSurfaceNets: a smooth surface: Surface Nets (Gibson, "Constrained
//   elastic surface nets", 1998) over the occupancy field box-filtered once,
//   one vertex per sign-changing cell at the mean of its edge crossings,
//   area-weighted normals, the mean colour of the cell's filled voxels.
// - meshMarchingCubes: the low-poly surface: Marching Cubes over the same
//   field at one sample per voxel, flat facets (each triangle its own
//   vertices, normal and the colour of the filled voxel nearest its centre).
// - meshDualContouring: the high-fidelity surface: Dual Contouring of the
//   same field resampled twice as fine, each vertex where the tangent planes
//   of its cell's crossings meet (the QEF), so box edges and corners stay
//   sharp; area-weighted normals, the nearest filled voxel's colour.
//
// All emit counter-clockwise triangles seen from outside; the three smooth
// ones pad the volume by an empty voxel, so every surface is closed.
#pragma once

#include "riglens/core/gltf/part_mesh.h"
#include "riglens/samples/voxel_volume.h"

namespace riglens::samples {

core::PartMesh meshCubes(const VoxelVolume& volume);
core::PartMesh meshSurfaceNets(const VoxelVolume& volume);
core::PartMesh meshMarchingCubes(const VoxelVolume& volume);
core::PartMesh meshDualContouring(const VoxelVolume& volume);

}  // namespace riglens::samples
