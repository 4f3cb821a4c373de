// Marching Cubes (Lorensen & Cline, 1987) over the smoothed density at voxel
// centres: the low-poly character, one sample per voxel and flat facets.
//
// A cube's polygons are found from its faces instead of a 256-case table: on
// each face the iso level cuts 0, 1 or 2 segments between edge crossings,
// the saddle case resolved by the asymptotic decider (Nielson & Hamann,
// 1991) so the two cubes sharing a face always cut it the same way and the
// surface has no holes; the segments chain into closed loops around the
// cube, each triangulated as a fan.
#include <algorithm>
#include <cmath>
#include <vector>

#include "riglens/samples/voxel_meshers.h"
#include "sample_grid.h"

namespace riglens::samples {

namespace {

using grid::Point;

// The cube's corner c is at offset (c & 1, c >> 1 & 1, c >> 2 & 1); its 12
// edges are numbered by axis then by the two other coordinates.
int edgeOf(int c0, int c1) {
  const int axis = (c0 ^ c1) == 1 ? 0 : (c0 ^ c1) == 2 ? 1 : 2;
  const int low = c0 & c1;  // the edge's end at 0 along its axis
  const int u = (axis + 1) % 3, v = (axis + 2) % 3;
  return axis * 4 + ((low >> u) & 1) + 2 * ((low >> v) & 1);
}

// The six faces, each as four corners counter-clockwise seen from outside
// the cube: corners (0,0) (1,0) (1,1) (0,1) in (u, v) wind counter-clockwise
// about +a because u x v = a, so the face at -a takes them reversed.
std::array<std::array<int, 4>, 6> cubeFaces() {
  std::array<std::array<int, 4>, 6> faces{};
  static constexpr int kUv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side) {
      const int u = (a + 1) % 3, v = (a + 2) % 3;
      auto& face = faces[a * 2 + side];
      for (int c = 0; c < 4; ++c) {
        const int corner = (side << a) | (kUv[c][0] << u) | (kUv[c][1] << v);
        face[side ? c : 3 - c] = corner;
      }
    }
  return faces;
}

struct Segment {
  int from, to;  // cube edges
};

// The segments on one face, each running from the edge where a walk around
// the face (counter-clockwise from outside) enters the inside to the edge
// where it leaves: then the inside is on the segment's right seen from
// outside the cube, which chains into loops wound counter-clockwise seen
// from the surface's outside.
void faceSegments(const std::array<int, 4>& face, const float value[8], std::vector<Segment>& out) {
  bool in[4];
  for (int c = 0; c < 4; ++c) in[c] = value[face[c]] > grid::kIso;
  const auto edge = [&](int k) { return edgeOf(face[k & 3], face[(k + 1) & 3]); };
  int crossings = 0;
  for (int k = 0; k < 4; ++k) crossings += in[k] != in[(k + 1) & 3];
  if (crossings == 0) return;
  if (crossings == 2) {
    int enter = -1, leave = -1;
    for (int k = 0; k < 4; ++k) {
      if (!in[k] && in[(k + 1) & 3]) enter = k;
      if (in[k] && !in[(k + 1) & 3]) leave = k;
    }
    out.push_back({edge(enter), edge(leave)});
    return;
  }
  // Two inside corners facing each other: joined across the face when the
  // bilinear interpolant's saddle is inside, cut off one by one otherwise.
  double v[4];
  for (int c = 0; c < 4; ++c) v[c] = double(value[face[c]]) - grid::kIso;
  const double saddle = (v[0] * v[2] - v[1] * v[3]) / (v[0] + v[2] - v[1] - v[3]);
  const bool joined = saddle > 0;
  for (int k = 0; k < 4; ++k) {
    // A corner cut off by itself: an inside one when apart, an outside one when joined.
    if (in[k] == joined) continue;
    const int before = (k + 3) & 3, after = k;  // the face edges into and out of corner k
    if (in[k])
      out.push_back({edge(before), edge(after)});
    else
      out.push_back({edge(after), edge(before)});
  }
}

}  // namespace

core::PartMesh meshMarchingCubes(const VoxelVolume& vol) {
  const grid::SampleGrid density = grid::smoothedDensity(vol);
  static const auto faces = cubeFaces();
  const auto& n = density.size();
  core::PartMesh mesh;
  std::vector<Segment> segments;
  for (int k = 0; k + 1 < n[2]; ++k)
    for (int j = 0; j + 1 < n[1]; ++j)
      for (int i = 0; i + 1 < n[0]; ++i) {
        float value[8];
        int inside = 0;
        for (int c = 0; c < 8; ++c) {
          value[c] = density.at(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
          inside += value[c] > grid::kIso;
        }
        if (inside == 0 || inside == 8) continue;
        segments.clear();
        for (const auto& face : faces) faceSegments(face, value, segments);
        // Where each crossed edge's segment goes next, and the crossing itself
        // (from the edge's lower end, as the neighbouring cube computes it).
        int next[12];
        std::fill(std::begin(next), std::end(next), -1);
        for (const auto& s : segments) next[s.from] = s.to;
        const auto crossing = [&](int e) {
          const int axis = e / 4, u = (axis + 1) % 3, v = (axis + 2) % 3;
          const int low = (((e & 1)) << u) | (((e >> 1) & 1) << v), high = low | (1 << axis);
          const float d0 = value[low], d1 = value[high];
          const double t = (grid::kIso - d0) / (d1 - d0);
          Point p = density.position(i + (low & 1), j + ((low >> 1) & 1), k + ((low >> 2) & 1));
          p[axis] += t * density.spacing();
          return p;
        };
        bool used[12] = {};
        for (const auto& start : segments) {
          if (used[start.from]) continue;
          std::vector<Point> loop;
          for (int e = start.from; e >= 0 && !used[e]; e = next[e]) {
            used[e] = true;
            loop.push_back(crossing(e));
          }
          for (std::size_t t = 1; t + 1 < loop.size(); ++t) {
            const Point& a = loop[0];
            const Point& b = loop[t];
            const Point& c = loop[t + 1];
            const double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
            const double ac[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
            double normal[3] = {ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2],
                                ab[0] * ac[1] - ab[1] * ac[0]};
            const double length = std::sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
            if (length == 0) continue;  // a crossing at a sample: the facet has no area
            const Point centre = {(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3};
            const auto rgb = grid::nearestFilledColor(vol, centre);
            // Flat facets: each triangle its own three vertices, its own normal and colour.
            const auto base = static_cast<std::uint32_t>(mesh.vertexCount());
            for (const Point* p : {&a, &b, &c}) {
              for (int axis = 0; axis < 3; ++axis) {
                mesh.positions.push_back(float((*p)[axis]));
                mesh.normals.push_back(float(normal[axis] / length));
              }
              mesh.colors.insert(mesh.colors.end(), rgb.begin(), rgb.end());
            }
            mesh.indices.insert(mesh.indices.end(), {base, base + 1, base + 2});
          }
        }
      }
  return mesh;
}

}  // namespace riglens::samples
