// The splat sink (contract/CHARACTER.md section 5): four arrays indexed by
// absolute slot (52 bytes a gaussian), filled by the debug lift, the decoded
// lift or a scene's gaussians, and read by the splat renderer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace riglens::core {

struct SplatSink {
  std::vector<float> center;         // 4 per slot: xyz, 1
  std::vector<float> covarianceA;    // 4 per slot: c00, c01, c02, c11
  std::vector<float> covarianceB;    // 4 per slot: c12, c22, 0, 0
  std::vector<std::uint32_t> color;  // pack4x8unorm(r, g, b, opacity); 0 = invisible
  explicit SplatSink(std::size_t capacity)
      : center(capacity * 4, 0.0f),
        covarianceA(capacity * 4, 0.0f),
        covarianceB(capacity * 4, 0.0f),
        color(capacity, 0u) {}
  std::size_t capacity() const { return color.size(); }
};

}  // namespace riglens::core
