// A DNA writer of our own (contract/ORL.md 2.1-2.3), for the sample ORL
// character, the tests' hand-built DNAs and the fuzzer's seeds: anyone can
// regenerate the same bytes and feed them to another evaluator (RigLogic).
// Writes a core::Dna in either container generation:
//   version 1  (2.1): section table of 8 absolute offsets, "AND" trailer;
//              only desc, defn and bhvr (no RBF, joint representations or
//              rotation conventions in that generation: refused if present)
//   version 2+ (2.2 ... 2.8): a layer index {FourCC, version, offset, size};
//              rbfb/jbmd from 2.4, rbfe from 2.5, dsce from 2.7.
// Big-endian, no geometry (a behaviour-only DNA, like an ORL pack's).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/dna/dna.h"

namespace riglens::samples {

struct DnaWriteOptions {
  std::uint16_t version = 8;  // 1 = 2.1, 2..8 = 2.2 .. 2.8
  // Extra layers written as they are ({FourCC, bytes}), to test skipping.
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> extraLayers;
  std::uint32_t mlControls = 0;  // > 0: an mlbh layer declaring that many ML controls (the reader refuses it)
};

core::Expected<std::vector<std::uint8_t>> writeDna(const core::Dna& dna, const DnaWriteOptions& options = {});

}  // namespace riglens::samples
