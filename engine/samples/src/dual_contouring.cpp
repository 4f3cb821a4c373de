// Dual Contouring (Ju, Losasso, Schaefer & Warren, "Dual contouring of
// Hermite data", SIGGRAPH 2002): the high-fidelity character. The smoothed
// density of the volume's half-voxels (a grid twice as fine), every edge
// crossing carrying the field's normal there (its gradient), and a cell's
// vertex where the planes through its crossings meet, least squares: on a
// flat face that is the face, where two faces meet it is on their edge,
// where three meet their corner. The field's own smoothing (Surface Nets'
// box filter, at half the width) still rounds a box's corner by a few
// tenths of a voxel; the vertex placement keeps that under half of what
// Surface Nets' averaging of the crossings leaves there.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "riglens/samples/voxel_meshers.h"
#include "sample_grid.h"

namespace riglens::samples {

namespace {

using grid::Point;

// Eigenvalues of the normal equations below this fraction of the largest are
// directions the planes do not pin down (a flat face pins one, an edge two):
// the vertex keeps the crossings' mean along them. 0.01 of the eigenvalue is
// the usual 0.1 of the singular value.
constexpr double kRankCutoff = 0.01;

// The QEF's minimiser nearest the crossings' mean (the mass point), clamped
// into the cell so a nearly parallel pair of planes cannot fling it away.
Point solveQef(const grid::SampleGrid& field, const grid::Index& cell, std::span<const grid::EdgeCrossing> crossings) {
  Eigen::Matrix3d ata = Eigen::Matrix3d::Zero();
  Eigen::Vector3d atb = Eigen::Vector3d::Zero(), mass = Eigen::Vector3d::Zero();
  for (const auto& crossing : crossings) {
    const Eigen::Vector3d p(crossing.point[0], crossing.point[1], crossing.point[2]);
    mass += p;
    const Point g = field.gradient(crossing.point);
    Eigen::Vector3d normal(g[0], g[1], g[2]);
    if (normal.norm() == 0) continue;
    normal.normalize();
    ata += normal * normal.transpose();
    atb += normal * normal.dot(p);
  }
  mass /= double(crossings.size());
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(ata);
  const Eigen::Vector3d lambda = eigen.eigenvalues();
  const double largest = lambda.cwiseAbs().maxCoeff();
  Eigen::Vector3d inverse = Eigen::Vector3d::Zero();
  for (int i = 0; i < 3; ++i)
    if (largest > 0 && lambda[i] > kRankCutoff * largest) inverse[i] = 1.0 / lambda[i];
  const Eigen::Matrix3d& v = eigen.eigenvectors();
  const Eigen::Vector3d x = mass + v * inverse.asDiagonal() * v.transpose() * (atb - ata * mass);
  const Point lo = field.position(cell[0], cell[1], cell[2]);
  Point out;
  for (int a = 0; a < 3; ++a) out[a] = std::clamp(x[a], lo[a], lo[a] + field.spacing());
  return out;
}

}  // namespace

core::PartMesh meshDualContouring(const VoxelVolume& vol) {
  // The fine grid: every voxel split in eight, smoothed like Surface Nets'
  // field at that scale (so its rounding is half as wide), samples at the
  // half-voxels' centres.
  VoxelVolume halves(vol.nx() * 2, vol.ny() * 2, vol.nz() * 2);
  for (int z = 0; z < halves.nz(); ++z)
    for (int y = 0; y < halves.ny(); ++y)
      for (int x = 0; x < halves.nx(); ++x) halves.set(x, y, z, vol.at(x / 2, y / 2, z / 2) & 0xffffff);
  const grid::SampleGrid fine = grid::smoothedDensity(halves, 0.5);
  return grid::dualSurface(
      fine,
      [&](const grid::Index& cell, std::span<const grid::EdgeCrossing> crossings) {
        return solveQef(fine, cell, crossings);
      },
      [&vol](const grid::Index&, const Point& vertex) { return grid::nearestFilledColor(vol, vertex); });
}

}  // namespace riglens::samples
