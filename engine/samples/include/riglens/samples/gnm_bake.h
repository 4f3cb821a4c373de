// Baking a GNM head into an .aosrig from plain arrays: the inverse of
// parseAosRig, used for the sample character and by tests. Floats are stored
// as the shipped packs store them: the basis as fp16 pairs (or i8 with its
// dequantisation folded into basisScale), skin weights as f16.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/character/aosrig.h"

namespace riglens::samples {

struct GnmBake {
  std::size_t vertexCount = 0;             // V
  std::size_t coeffCount = 0;              // E
  std::vector<core::RegionCount> regions;  // tile E
  std::vector<core::RegionCount> reduced;  // optional reduced view counts
  std::vector<core::AosJoint> joints;
  std::array<std::string, 2> eyeNames;
  std::optional<std::array<float, 16>> bindTransform;  // row-major
  std::vector<float> neutral;                          // V*3
  std::vector<float> basis;                            // V*E*3 vertex-major, metres per unit (after basisScale = 1)
  bool basisAsI8 = false;                              // quantise to i8 (scale per coefficient)
  std::vector<std::uint16_t> skinIndex;                // V*4
  std::vector<float> skinWeight;                       // V*4
  std::array<float, 6> eyePositions{};
  std::vector<float> eyeWeights;        // 2*V
  std::vector<float> restWorld;         // J*16 row-major
  std::vector<std::uint32_t> faces;     // T*3
  std::vector<float> uv;                // optional V*2
  std::vector<float> stitchLocal;       // optional V*3
  std::string source;                   // written as header "source" (never read)
  std::vector<std::string> coeffNames;  // E names in basis column order (not written to the pack)
};

struct AosRigParts {
  nlohmann::ordered_json header;  // without "buffers"
  std::vector<core::AosBlob> blobs;
};

// The header and blobs packAosRig would write (tests mutate them).
core::Expected<AosRigParts> bakeAosRigParts(const GnmBake& bake);
core::Expected<std::vector<std::uint8_t>> bakeAosRig(const GnmBake& bake);

// A synthetic GNM head of the shipped size (V 17,821, E 383 by default) with
// the shipped regions, deterministic random neutral and basis (|basis| <=
// 5 mm), a neck/head/jaw joint set with 3-influence weights, two eye patches
// and a small neck seam: for benchmarks and GPU parity tests, since no real
// full-size pack ships with the project.
GnmBake syntheticGnmHead(std::size_t vertexCount = 17821, std::size_t coeffCount = 383, unsigned seed = 42);

}  // namespace riglens::samples
