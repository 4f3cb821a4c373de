// The flattened mesh's morph targets (glb_reader.h): weights from a glTF
// pose, and the CPU reference of the skinning pass's morph stage.
#include <cmath>

#include "riglens/core/gltf/glb_reader.h"

namespace riglens::core {

std::vector<float> morphWeights(const MorphData& morph, const GltfPose& pose) {
  std::vector<float> out(morph.slotCount(), 0.0f);
  for (const MorphData::Range& range : morph.ranges) {
    if (range.node < 0 || std::size_t(range.node) >= pose.weights.size()) continue;
    const auto& weights = pose.weights[std::size_t(range.node)];
    for (std::uint32_t t = 0; t < range.slotCount && t < weights.size(); ++t)
      out[range.firstSlot + t] = std::isfinite(weights[t]) ? float(weights[t]) : 0.0f;
  }
  return out;
}

PartMesh morphMesh(const PartMesh& rest, const MorphData& morph, std::span<const float> weights) {
  PartMesh out = rest;
  for (const MorphData::Range& range : morph.ranges)
    for (std::uint32_t t = 0; t < range.slotCount; ++t) {
      const std::uint32_t slot = range.firstSlot + t;
      const float w = slot < weights.size() ? weights[slot] : 0.0f;
      if (w == 0.0f) continue;
      const std::size_t offset = morph.slotOffsets[slot];
      for (std::size_t i = 0; i < std::size_t(range.vertexCount) * 3; ++i) {
        const std::size_t at = std::size_t(range.firstVertex) * 3 + i;
        out.positions[at] += w * morph.positionDeltas[offset + i];
        if (at < out.normals.size()) out.normals[at] += w * morph.normalDeltas[offset + i];
      }
    }
  for (std::size_t v = 0; v + 2 < out.normals.size(); v += 3) {
    const float len = std::sqrt(out.normals[v] * out.normals[v] + out.normals[v + 1] * out.normals[v + 1] +
                                out.normals[v + 2] * out.normals[v + 2]);
    if (len > 0.0f)
      for (int k = 0; k < 3; ++k) out.normals[v + std::size_t(k)] /= len;
  }
  return out;
}

}  // namespace riglens::core
