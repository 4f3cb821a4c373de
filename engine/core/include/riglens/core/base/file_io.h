// Whole-file reads and atomic writes. A writer never leaves a half-written
// file behind: it writes to a temporary file beside the target and renames.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "riglens/core/base/expected.h"

namespace riglens::core {

// Reads the whole file into memory. Error messages name the file.
Expected<std::vector<std::uint8_t>> readFileBytes(const std::filesystem::path& path);
Expected<std::string> readFileText(const std::filesystem::path& path);

// Resolves `relative` (a path a file names, e.g. a part mesh or a bundle's
// pack) inside `folder`, refusing empty and absolute paths and paths that
// leave the folder ("../x.glb"): a file may only point at its own folder.
// `what` starts the message ("mesh of part 'hull'"), `folderNoun` ends it.
Expected<std::filesystem::path> resolveInside(const std::filesystem::path& folder, const std::string& relative,
                                              std::string_view what, std::string_view folderNoun = "the run folder");

// Writes `bytes` to `path` atomically: a temp file in the same folder, every
// byte flushed to the disk, then renamed over the target; a failure (ENOSPC,
// EFBIG named) leaves the previous file as it was.
Expected<void> writeFileAtomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);

// Several files that belong together (an export's GLB and its
// interface.json): every one written to its temp first, renamed only once
// all are, so a failure writing any leaves every previous file.
struct FileToWrite {
  std::filesystem::path path;
  std::span<const std::uint8_t> bytes;
};
Expected<void> writeFilesAtomically(std::span<const FileToWrite> files);

}  // namespace riglens::core
