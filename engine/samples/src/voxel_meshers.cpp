#include "riglens/samples/voxel_meshers.h"

#include <unordered_map>

#include "riglens/core/gltf/glb_reader.h"

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
  // Samples at voxel centres over [-1, n] (one voxel of empty padding) so the
  // surface closes; density = half the voxel + half the mean of its six
  // neighbours: smooth, yet two-voxel-thin features survive the 0.5 iso level.
  const int sx = vol.nx() + 2, sy = vol.ny() + 2, sz = vol.nz() + 2;
  const auto sampleIndex = [&](int x, int y, int z) {  // x..z in [-1, n]
    return (static_cast<std::size_t>(z + 1) * sy + (y + 1)) * sx + (x + 1);
  };
  std::vector<float> density(static_cast<std::size_t>(sx) * sy * sz, 0.0f);
  for (int z = -1; z <= vol.nz(); ++z)
    for (int y = -1; y <= vol.ny(); ++y)
      for (int x = -1; x <= vol.nx(); ++x) {
        const float self = vol.filled(x, y, z) ? 1.0f : 0.0f;
        const float around = float(vol.filled(x - 1, y, z) + vol.filled(x + 1, y, z) + vol.filled(x, y - 1, z) +
                                   vol.filled(x, y + 1, z) + vol.filled(x, y, z - 1) + vol.filled(x, y, z + 1));
        density[sampleIndex(x, y, z)] = 0.5f * self + 0.5f * around / 6.0f;
      }
  constexpr float kIso = 0.5f;
  const auto d = [&](int x, int y, int z) { return density[sampleIndex(x, y, z)]; };
  const auto isIn = [&](int x, int y, int z) { return d(x, y, z) > kIso; };

  PartMesh mesh;
  std::unordered_map<std::size_t, std::uint32_t> cellVertex;  // by the cell's min-corner sample index
  // One vertex per cell (min corner at sample c, c in [-1, n-1]) with a sign change.
  for (int z = -1; z < vol.nz(); ++z)
    for (int y = -1; y < vol.ny(); ++y)
      for (int x = -1; x < vol.nx(); ++x) {
        int insideCount = 0;
        for (int c = 0; c < 8; ++c) insideCount += isIn(x + (c & 1), y + ((c >> 1) & 1), z + ((c >> 2) & 1));
        if (insideCount == 0 || insideCount == 8) continue;
        double sum[3] = {0, 0, 0};
        int crossings = 0;
        for (int a = 0; a < 3; ++a)
          for (int c = 0; c < 8; ++c) {
            const int o[3] = {c & 1, (c >> 1) & 1, (c >> 2) & 1};
            if (o[a] != 0) continue;  // each edge once, from its lower end
            int q[3] = {x + o[0], y + o[1], z + o[2]};
            int r[3] = {q[0], q[1], q[2]};
            r[a] += 1;
            const float d0 = d(q[0], q[1], q[2]), d1 = d(r[0], r[1], r[2]);
            if ((d0 > kIso) == (d1 > kIso)) continue;
            const double t = (kIso - d0) / (d1 - d0);
            for (int k = 0; k < 3; ++k) sum[k] += q[k] + 0.5 + (k == a ? t : 0.0);
            ++crossings;
          }
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
        cellVertex[sampleIndex(x, y, z)] = static_cast<std::uint32_t>(mesh.vertexCount());
        pushVec(mesh.positions, float(sum[0] / crossings), float(sum[1] / crossings), float(sum[2] / crossings));
        const float inv = filled ? 1.0f / float(filled) : 1.0f;
        pushVec(mesh.colors, rgb[0] * inv, rgb[1] * inv, rgb[2] * inv);
      }

  // One quad per sign-changing sample edge, joining the four cells around it.
  for (int z = -1; z <= vol.nz(); ++z)
    for (int y = -1; y <= vol.ny(); ++y)
      for (int x = -1; x <= vol.nx(); ++x)
        for (int a = 0; a < 3; ++a) {
          int q[3] = {x, y, z};
          q[a] += 1;
          if (q[a] > (a == 0 ? vol.nx() : a == 1 ? vol.ny() : vol.nz())) continue;
          const bool in0 = isIn(x, y, z), in1 = isIn(q[0], q[1], q[2]);
          if (in0 == in1) continue;
          const int u = (a + 1) % 3, v = (a + 2) % 3;
          std::uint32_t quad[4];
          bool complete = true;
          static constexpr int kCells[4][2] = {{-1, -1}, {0, -1}, {0, 0}, {-1, 0}};
          for (int c = 0; c < 4 && complete; ++c) {
            int cell[3] = {x, y, z};
            cell[u] += kCells[c][0];
            cell[v] += kCells[c][1];
            if (cell[u] < -1 || cell[v] < -1) {
              complete = false;
              break;
            }
            auto it = cellVertex.find(sampleIndex(cell[0], cell[1], cell[2]));
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
  mesh.normals = computeVertexNormals(mesh);
  return mesh;
}

}  // namespace riglens::samples
