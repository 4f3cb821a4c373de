// A branch mesh's UV maps (contract/CHARACTER.md 4) made by rasterising the
// mesh in UV space: for every texel centre, the triangle that covers it (the
// one nearest the viewer, +z, where the front projection folds), its three
// vertex ids and barycentric weights. Used to write the sample character's
// decoded bundle and the test bundles.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace riglens::samples {

struct UvMaps {
  int res = 0;
  std::vector<std::int32_t> idxim;  // res*res*3
  std::vector<float> barim;         // res*res*3
  std::vector<std::int32_t> triim;  // res*res, -1 where no triangle covers the texel
  std::vector<std::uint8_t> valid;  // res*res
};

// uv: V*2 in [0,1] (v up: texel row 0 is v = 1); positions: V*3 (z breaks ties).
UvMaps rasteriseUvMaps(std::span<const float> uv, std::span<const float> positions,
                       std::span<const std::uint32_t> faces, int res);

}  // namespace riglens::samples
