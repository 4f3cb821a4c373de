#include "riglens/samples/uv_maps.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace riglens::samples {

UvMaps rasteriseUvMaps(std::span<const float> uv, std::span<const float> positions,
                       std::span<const std::uint32_t> faces, int res) {
  UvMaps m;
  m.res = res;
  const std::size_t hw = std::size_t(res) * std::size_t(res);
  m.idxim.assign(hw * 3, 0);
  m.barim.assign(hw * 3, 0.0f);
  m.triim.assign(hw, -1);
  m.valid.assign(hw, 0);
  std::vector<float> depth(hw, -std::numeric_limits<float>::infinity());
  const std::size_t F = faces.size() / 3;
  for (std::size_t f = 0; f < F; ++f) {
    const std::uint32_t id[3] = {faces[f * 3], faces[f * 3 + 1], faces[f * 3 + 2]};
    float x[3], y[3], z[3];
    for (int k = 0; k < 3; ++k) {  // texel space: x right, y down
      x[k] = uv[id[k] * 2] * float(res);
      y[k] = (1.0f - uv[id[k] * 2 + 1]) * float(res);
      z[k] = positions[id[k] * 3 + 2];
    }
    const float area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
    if (std::fabs(area) < 1e-12f) continue;
    const int x0 = std::max(0, int(std::floor(std::min({x[0], x[1], x[2]}) - 0.5f)));
    const int x1 = std::min(res - 1, int(std::ceil(std::max({x[0], x[1], x[2]}) - 0.5f)));
    const int y0 = std::max(0, int(std::floor(std::min({y[0], y[1], y[2]}) - 0.5f)));
    const int y1 = std::min(res - 1, int(std::ceil(std::max({y[0], y[1], y[2]}) - 0.5f)));
    for (int ty = y0; ty <= y1; ++ty)
      for (int tx = x0; tx <= x1; ++tx) {
        const float px = float(tx) + 0.5f, py = float(ty) + 0.5f;
        const float b1 = ((px - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (py - y[0])) / area;
        const float b2 = ((x[1] - x[0]) * (py - y[0]) - (px - x[0]) * (y[1] - y[0])) / area;
        const float b0 = 1.0f - b1 - b2;
        constexpr float kEdge = -1e-6f;  // texel centres on a shared edge belong to one of its triangles
        if (b0 < kEdge || b1 < kEdge || b2 < kEdge) continue;
        const std::size_t p = std::size_t(ty) * std::size_t(res) + std::size_t(tx);
        const float d = b0 * z[0] + b1 * z[1] + b2 * z[2];
        if (d <= depth[p]) continue;
        depth[p] = d;
        m.triim[p] = std::int32_t(f);
        m.valid[p] = 1;
        const float b[3] = {b0, b1, b2};
        for (int k = 0; k < 3; ++k) {
          m.idxim[p * 3 + std::size_t(k)] = std::int32_t(id[k]);
          m.barim[p * 3 + std::size_t(k)] = b[k];
        }
      }
  }
  return m;
}

}  // namespace riglens::samples
