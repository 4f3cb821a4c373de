// The files an opened document is made of, and a stamp of them that tells
// whether any was rewritten: what live reload watches and what review
// hashes. Qt-free.
//
//   a folder (run, bundle)            every file under it
//   a run's rig.json or run.json      every file under its folder (parts, meshes)
//   a .gltf                           the file and the buffers and images it names beside itself
//   anything else                     the file itself
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace riglens::core {

// A folder holding more files than this is watched and hashed by the first
// kMaxDocumentFiles its listing gives: a run is a few hundred files, and a
// stray home folder must not make a watch walk millions.
inline constexpr std::size_t kMaxDocumentFiles = 20000;

// Sorted, absolute; files that cannot be listed are left out (a folder that
// vanished mid-walk, a resource the .gltf names that does not exist).
std::vector<std::filesystem::path> documentFiles(const std::filesystem::path& opened);

// A file's size and modification time (nanoseconds), or missing.
struct FileStamp {
  std::filesystem::path path;
  bool exists = false;
  std::uintmax_t size = 0;
  std::int64_t modifiedNs = 0;
  bool operator==(const FileStamp&) const = default;
};

std::vector<FileStamp> stampFiles(const std::vector<std::filesystem::path>& files);

}  // namespace riglens::core
