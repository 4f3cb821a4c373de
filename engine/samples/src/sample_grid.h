// What the smooth meshers share: a scalar field sampled on a regular grid
// (inside where the value exceeds kIso), the box-filtered occupancy every one
// of them contours, and the dual surface Surface Nets and Dual Contouring
// build on a grid (one vertex per sign-changing cell, one quad per
// sign-changing edge); they differ only in where a cell's vertex goes.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "riglens/core/gltf/part_mesh.h"
#include "riglens/samples/voxel_volume.h"

namespace riglens::samples::grid {

constexpr float kIso = 0.5f;

using Point = std::array<double, 3>;
using Index = std::array<int, 3>;

class SampleGrid {
 public:
  // `n` samples per axis, sample (i, j, k) at origin + (i, j, k) * spacing
  // in voxel coordinates.
  SampleGrid(Index n, double origin, double spacing);

  const Index& size() const { return m_n; }
  double spacing() const { return m_spacing; }
  std::size_t index(int i, int j, int k) const { return (static_cast<std::size_t>(k) * m_n[1] + j) * m_n[0] + i; }
  float at(int i, int j, int k) const { return m_values[index(i, j, k)]; }
  float& at(int i, int j, int k) { return m_values[index(i, j, k)]; }
  bool in(int i, int j, int k) const { return at(i, j, k) > kIso; }
  Point position(int i, int j, int k) const {
    return {m_origin + i * m_spacing, m_origin + j * m_spacing, m_origin + k * m_spacing};
  }
  // The trilinear interpolation of the samples at a point inside the grid,
  // and its gradient (per voxel unit, by central differences).
  double value(const Point& p) const;
  Point gradient(const Point& p) const;

 private:
  // The cell holding p (clamped to the grid) and p's fraction within it.
  void locate(const Point& p, Index& cell, Point& f) const;

  Index m_n;
  double m_origin, m_spacing;
  std::vector<float> m_values;
};

// Samples at voxel centres over [-1, n] (one voxel of empty padding, so every
// surface closes); density = half the voxel + half the mean of its six
// neighbours: smooth, yet two-voxel-thin features survive the 0.5 iso level.
// `voxelSize`: the volume's voxels in the samples' units (a volume of
// half-voxels takes 0.5).
SampleGrid smoothedDensity(const VoxelVolume& volume, double voxelSize = 1.0);

// Where the iso level crosses the grid edge from sample `lower` along `axis`
// (linear interpolation of the two samples, from the lower end).
struct EdgeCrossing {
  Point point;
  int axis;
};

// A sign-changing cell (min-corner sample `cell`) and its edges' crossings,
// each edge once, in a fixed order: the vertex position and colour.
using PlaceVertex = std::function<Point(const Index& cell, std::span<const EdgeCrossing> crossings)>;
using ColorVertex = std::function<std::array<float, 3>(const Index& cell, const Point& vertex)>;

// The dual surface: counter-clockwise quads seen from outside (lower values),
// area-weighted vertex normals.
core::PartMesh dualSurface(const SampleGrid& grid, const PlaceVertex& place, const ColorVertex& color);

// The colour of the filled voxel whose centre is nearest to `p` (searching
// a few voxels around it; ties go to the first in z, y, x order).
std::array<float, 3> nearestFilledColor(const VoxelVolume& volume, const Point& p);

}  // namespace riglens::samples::grid
