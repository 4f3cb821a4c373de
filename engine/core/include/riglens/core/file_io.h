// Whole-file reads and atomic writes. A writer never leaves a half-written
// file behind: it writes to a temporary file beside the target and renames.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "riglens/core/expected.h"

namespace riglens::core {

// Reads the whole file into memory. Error messages name the file.
Expected<std::vector<std::uint8_t>> readFileBytes(const std::filesystem::path& path);
Expected<std::string> readFileText(const std::filesystem::path& path);

// Writes `bytes` to `path` atomically (temp file in the same folder + rename).
Expected<void> writeFileAtomically(const std::filesystem::path& path,
                                   std::span<const std::uint8_t> bytes);

}  // namespace riglens::core
