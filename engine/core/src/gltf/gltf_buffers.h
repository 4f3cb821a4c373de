// The bytes of a loaded glTF model's buffers, fetched by range. Most are
// tinygltf's own (a .gltf's .bin files, data URIs, a decoded compressed
// view); a .glb opened by path keeps its BIN chunk in the file and reads
// each range when a decoder asks for it, so a large model is never held
// twice (tinygltf's copy of the chunk beside the decoded mesh) and the
// chunk is never held whole. Private to engine/core.
#pragma once

#include <tiny_gltf.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "riglens/core/base/expected.h"

namespace riglens::core {

// A fetched range: a view of tinygltf's bytes, or its own copy read from the file.
struct FetchedBytes {
  std::span<const std::uint8_t> bytes;
  std::vector<std::uint8_t> owned;
};

// Reads out.size() bytes of the open file `fd` from `at`; false on a short read.
bool readFileRange(int fd, std::uint64_t at, std::span<std::uint8_t> out);

class GltfBuffers {
 public:
  explicit GltfBuffers(const tinygltf::Model& model) : m_model(model) {}
  // Buffer `buffer` is `length` bytes of the open file `fd` from `offset`
  // (the GLB's BIN chunk); the caller keeps `fd` open while this is used.
  void keepInFile(int buffer, int fd, std::uint64_t offset, std::uint64_t length);

  std::size_t count() const { return m_model.buffers.size(); }
  std::size_t size(int buffer) const;
  // `length` bytes of `buffer` from `offset`, which the caller has checked
  // against size(buffer). `what` names the reader in a read error.
  Expected<FetchedBytes> fetch(int buffer, std::size_t offset, std::size_t length, std::string_view source) const;

 private:
  const tinygltf::Model& m_model;
  int m_fileBuffer = -1, m_fd = -1;
  std::uint64_t m_fileOffset = 0, m_fileLength = 0;
};

}  // namespace riglens::core
