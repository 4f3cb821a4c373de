#include "sample_grid.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "riglens/core/gltf/glb_reader.h"

namespace riglens::samples::grid {

SampleGrid::SampleGrid(Index n, double origin, double spacing)
    : m_n(n), m_origin(origin), m_spacing(spacing), m_values(static_cast<std::size_t>(n[0]) * n[1] * n[2], 0.0f) {}

void SampleGrid::locate(const Point& p, Index& cell, Point& f) const {
  for (int a = 0; a < 3; ++a) {
    const double u = (p[a] - m_origin) / m_spacing;
    cell[a] = std::clamp(static_cast<int>(std::floor(u)), 0, m_n[a] - 2);
    f[a] = std::clamp(u - cell[a], 0.0, 1.0);
  }
}

double SampleGrid::value(const Point& p) const {
  Index c;
  Point f;
  locate(p, c, f);
  double v = 0;
  for (int corner = 0; corner < 8; ++corner) {
    const int o[3] = {corner & 1, (corner >> 1) & 1, (corner >> 2) & 1};
    double w = 1;
    for (int a = 0; a < 3; ++a) w *= o[a] ? f[a] : 1.0 - f[a];
    v += w * at(c[0] + o[0], c[1] + o[1], c[2] + o[2]);
  }
  return v;
}

Point SampleGrid::gradient(const Point& p) const {
  // Central differences a quarter of a cell wide: the trilinear field's
  // derivative across a cell face jumps, and a one-sided derivative there
  // would make a box's far corners rounder than its near ones.
  const double h = 0.25 * m_spacing;
  Point g;
  for (int a = 0; a < 3; ++a) {
    Point lo = p, hi = p;
    lo[a] -= h;
    hi[a] += h;
    g[a] = (value(hi) - value(lo)) / (2 * h);
  }
  return g;
}

SampleGrid smoothedDensity(const VoxelVolume& vol, double voxelSize) {
  SampleGrid grid({vol.nx() + 2, vol.ny() + 2, vol.nz() + 2}, -0.5 * voxelSize, voxelSize);
  for (int z = -1; z <= vol.nz(); ++z)
    for (int y = -1; y <= vol.ny(); ++y)
      for (int x = -1; x <= vol.nx(); ++x) {
        const float self = vol.filled(x, y, z) ? 1.0f : 0.0f;
        const float around = float(vol.filled(x - 1, y, z) + vol.filled(x + 1, y, z) + vol.filled(x, y - 1, z) +
                                   vol.filled(x, y + 1, z) + vol.filled(x, y, z - 1) + vol.filled(x, y, z + 1));
        grid.at(x + 1, y + 1, z + 1) = 0.5f * self + 0.5f * around / 6.0f;
      }
  return grid;
}

core::PartMesh dualSurface(const SampleGrid& grid, const PlaceVertex& place, const ColorVertex& color) {
  const Index& n = grid.size();
  core::PartMesh mesh;
  std::unordered_map<std::size_t, std::uint32_t> cellVertex;  // by the cell's min-corner sample index
  std::vector<EdgeCrossing> crossings;
  for (int k = 0; k + 1 < n[2]; ++k)
    for (int j = 0; j + 1 < n[1]; ++j)
      for (int i = 0; i + 1 < n[0]; ++i) {
        int insideCount = 0;
        for (int c = 0; c < 8; ++c) insideCount += grid.in(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
        if (insideCount == 0 || insideCount == 8) continue;
        crossings.clear();
        for (int a = 0; a < 3; ++a)
          for (int c = 0; c < 8; ++c) {
            const int o[3] = {c & 1, (c >> 1) & 1, (c >> 2) & 1};
            if (o[a] != 0) continue;  // each edge once, from its lower end
            const int q[3] = {i + o[0], j + o[1], k + o[2]};
            int r[3] = {q[0], q[1], q[2]};
            r[a] += 1;
            const float d0 = grid.at(q[0], q[1], q[2]), d1 = grid.at(r[0], r[1], r[2]);
            if ((d0 > kIso) == (d1 > kIso)) continue;
            const double t = (kIso - d0) / (d1 - d0);
            Point p = grid.position(q[0], q[1], q[2]);
            p[a] += t * grid.spacing();
            crossings.push_back({p, a});
          }
        const Point vertex = place({i, j, k}, crossings);
        cellVertex[grid.index(i, j, k)] = static_cast<std::uint32_t>(mesh.vertexCount());
        for (int a = 0; a < 3; ++a) mesh.positions.push_back(float(vertex[a]));
        const auto rgb = color({i, j, k}, vertex);
        mesh.colors.insert(mesh.colors.end(), rgb.begin(), rgb.end());
      }

  // One quad per sign-changing sample edge, joining the four cells around it.
  for (int k = 0; k < n[2]; ++k)
    for (int j = 0; j < n[1]; ++j)
      for (int i = 0; i < n[0]; ++i)
        for (int a = 0; a < 3; ++a) {
          int q[3] = {i, j, k};
          q[a] += 1;
          if (q[a] >= n[a]) continue;
          const bool in0 = grid.in(i, j, k), in1 = grid.in(q[0], q[1], q[2]);
          if (in0 == in1) continue;
          const int u = (a + 1) % 3, v = (a + 2) % 3;
          std::uint32_t quad[4];
          bool complete = true;
          static constexpr int kCells[4][2] = {{-1, -1}, {0, -1}, {0, 0}, {-1, 0}};
          for (int c = 0; c < 4 && complete; ++c) {
            int cell[3] = {i, j, k};
            cell[u] += kCells[c][0];
            cell[v] += kCells[c][1];
            if (cell[u] < 0 || cell[v] < 0) {
              complete = false;
              break;
            }
            auto it = cellVertex.find(grid.index(cell[0], cell[1], cell[2]));
            if (it == cellVertex.end()) {
              complete = false;
              break;
            }
            quad[c] = it->second;
          }
          if (!complete) continue;
          // Counter-clockwise about +a (u x v = a); flip when the outside is at -a.
          if (in0)
            mesh.indices.insert(mesh.indices.end(), {quad[0], quad[1], quad[2], quad[0], quad[2], quad[3]});
          else
            mesh.indices.insert(mesh.indices.end(), {quad[0], quad[2], quad[1], quad[0], quad[3], quad[2]});
        }
  mesh.normals = core::computeVertexNormals(mesh);
  return mesh;
}

std::array<float, 3> nearestFilledColor(const VoxelVolume& vol, const Point& p) {
  const int cx = static_cast<int>(std::floor(p[0])), cy = static_cast<int>(std::floor(p[1])),
            cz = static_cast<int>(std::floor(p[2]));
  for (int radius = 2; radius <= 4; radius += 2) {
    double best = 1e300;
    std::uint32_t found = 0;
    for (int z = cz - radius; z <= cz + radius; ++z)
      for (int y = cy - radius; y <= cy + radius; ++y)
        for (int x = cx - radius; x <= cx + radius; ++x) {
          const std::uint32_t v = vol.at(x, y, z);
          if (!v) continue;
          const double dx = x + 0.5 - p[0], dy = y + 0.5 - p[1], dz = z + 0.5 - p[2];
          const double d = dx * dx + dy * dy + dz * dz;
          if (d < best) best = d, found = v;
        }
    if (found) return voxelColor(found);
  }
  return {0.5f, 0.5f, 0.5f};  // nothing filled nearby: a surface the field smoothed away from every voxel
}

}  // namespace riglens::samples::grid
