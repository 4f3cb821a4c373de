#include "riglens/samples/voxel_meshers.h"

#include "sample_grid.h"

namespace riglens::samples {

using namespace core;  // the samples are built from the core types throughout
namespace {

void pushVec(std::vector<float>& out, float x, float y, float z) {
  out.insert(out.end(), {x, y, z});
}

}  // namespace

PartMesh meshCubes(const VoxelVolume& vol) {
  PartMesh mesh;
  for (int z = 0; z < vol.nz(); ++z)
    for (int y = 0; y < vol.ny(); ++y)
      for (int x = 0; x < vol.nx(); ++x) {
        const std::uint32_t rgb = vol.at(x, y, z);
        if (!rgb) continue;
        const auto color = voxelColor(rgb);
        const int p[3] = {x, y, z};
        for (int a = 0; a < 3; ++a)
          for (int s = -1; s <= 1; s += 2) {
            int q[3] = {x, y, z};
            q[a] += s;
            if (vol.filled(q[0], q[1], q[2])) continue;  // interior face: culled
            const int u = (a + 1) % 3, v = (a + 2) % 3;
            // Corners (0,0) (1,0) (1,1) (0,1) in (u, v) wind counter-clockwise
            // about +a because u x v = a; the -a face reverses them.
            static constexpr int kCorners[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
            const auto base = static_cast<std::uint32_t>(mesh.vertexCount());
            for (int c = 0; c < 4; ++c) {
              float corner[3] = {float(p[0]), float(p[1]), float(p[2])};
              corner[a] += s > 0 ? 1.0f : 0.0f;
              corner[u] += float(kCorners[c][0]);
              corner[v] += float(kCorners[c][1]);
              pushVec(mesh.positions, corner[0], corner[1], corner[2]);
              float n[3] = {0, 0, 0};
              n[a] = float(s);
              pushVec(mesh.normals, n[0], n[1], n[2]);
              pushVec(mesh.colors, color[0], color[1], color[2]);
            }
            if (s > 0)
              mesh.indices.insert(mesh.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
            else
              mesh.indices.insert(mesh.indices.end(), {base, base + 2, base + 1, base, base + 3, base + 2});
          }
      }
  return mesh;
}

PartMesh meshSurfaceNets(const VoxelVolume& vol) {
  const grid::SampleGrid density = grid::smoothedDensity(vol);
  // The vertex at the mean of its cell's edge crossings.
  const auto place = [](const grid::Index&, std::span<const grid::EdgeCrossing> crossings) {
    grid::Point sum = {0, 0, 0};
    for (const auto& crossing : crossings)
      for (int k = 0; k < 3; ++k) sum[k] += crossing.point[k];
    for (double& s : sum) s /= double(crossings.size());
    return sum;
  };
  // The mean colour of the cell's filled voxels (sample i is voxel i - 1).
  const auto color = [&vol](const grid::Index& cell, const grid::Point&) {
    const int x = cell[0] - 1, y = cell[1] - 1, z = cell[2] - 1;
    float rgb[3] = {0, 0, 0};
    int filled = 0;
    for (int c = 0; c < 8; ++c) {
      const std::uint32_t v = vol.at(x + (c & 1), y + ((c >> 1) & 1), z + ((c >> 2) & 1));
      if (!v) continue;
      const auto col = voxelColor(v);
      for (int k = 0; k < 3; ++k) rgb[k] += col[k];
      ++filled;
    }
    if (filled == 0) {  // a smoothed-in cell next to filled voxels: look one further
      for (int dz = -1; dz <= 2 && !filled; ++dz)
        for (int dy = -1; dy <= 2; ++dy)
          for (int dx = -1; dx <= 2; ++dx)
            if (const auto v = vol.at(x + dx, y + dy, z + dz); v && !filled) {
              const auto col = voxelColor(v);
              for (int k = 0; k < 3; ++k) rgb[k] = col[k];
              filled = 1;
            }
    }
    const float inv = filled ? 1.0f / float(filled) : 1.0f;
    return std::array<float, 3>{rgb[0] * inv, rgb[1] * inv, rgb[2] * inv};
  };
  return grid::dualSurface(density, place, color);
}

}  // namespace riglens::samples
