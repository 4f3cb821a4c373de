// The first row of a 2-D float32 .npy table: a branch's rig_presets, whose
// row 0 is the neutral rig (contract/DECODERS.md A4). NumPy's format 1.0-3.0,
// little-endian '<f4', C order; anything else is refused naming the file and
// the byte offset.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "riglens/core/base/expected.h"

namespace riglens::core {

struct NpyTable {
  std::size_t rows = 0, cols = 0;
  std::vector<float> row0;  // cols values
};

Expected<NpyTable> readNpyTable(const std::filesystem::path& path);
Expected<NpyTable> parseNpyTable(std::span<const std::uint8_t> bytes, const std::string& source);

}  // namespace riglens::core
