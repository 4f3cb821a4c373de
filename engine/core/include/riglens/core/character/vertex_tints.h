// Per-vertex tints of a splat character for QA (contract/CHARACTER.md
// section 6), one packed RGBA per vertex (base/color.h).
#pragma once

#include <cstdint>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

namespace riglens::core {

// joint: the heaviest influence's palette colour blended toward grey 0.45 by
// (1 - weight); cyan when either eye weight > 0.5. eyeWeights is (2, V);
// skinIndex / skinWeight hold `influences` per vertex.
std::vector<std::uint32_t> jointTint(std::span<const std::uint16_t> skinIndex, std::span<const float> skinWeight,
                                     std::span<const float> eyeWeights, std::size_t vertexCount,
                                     std::size_t influences = 4);
// uv: (u, v, 0.55); no uv: every vertex the same colour.
std::vector<std::uint32_t> uvTint(std::span<const float> uv, std::size_t vertexCount);
// height: t = (y - ymin)/(ymax - ymin) (0.5 when flat); (0.25+0.7t, 0.4+0.35 sin(pi t), 0.95-0.6t).
std::vector<std::uint32_t> heightTint(std::span<const float> positions);
std::vector<std::uint32_t> flatTint(std::size_t vertexCount, glm::vec3 color = {0.85f, 0.85f, 0.9f});

}  // namespace riglens::core
