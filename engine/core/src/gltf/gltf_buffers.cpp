#include "gltf_buffers.h"

#include <unistd.h>

#include <cerrno>

#include "riglens/core/base/json_reader.h"

namespace riglens::core {

bool readFileRange(int fd, std::uint64_t at, std::span<std::uint8_t> out) {
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::pread(fd, out.data() + done, out.size() - done, off_t(at + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

void GltfBuffers::keepInFile(int buffer, int fd, std::uint64_t offset, std::uint64_t length) {
  m_fileBuffer = buffer;
  m_fd = fd;
  m_fileOffset = offset;
  m_fileLength = length;
}

std::size_t GltfBuffers::size(int buffer) const {
  if (buffer < 0 || buffer >= int(m_model.buffers.size())) return 0;
  if (buffer == m_fileBuffer) return std::size_t(m_fileLength);
  return m_model.buffers[std::size_t(buffer)].data.size();
}

Expected<FetchedBytes> GltfBuffers::fetch(int buffer, std::size_t offset, std::size_t length,
                                          std::string_view source) const {
  FetchedBytes out;
  if (offset > size(buffer) || length > size(buffer) - offset)
    return errorAt(ErrorCode::Parse, std::string(source), "",
                   "bytes " + std::to_string(offset) + " + " + std::to_string(length) + " run past buffer " +
                       std::to_string(buffer));
  if (buffer != m_fileBuffer) {
    out.bytes = {m_model.buffers[std::size_t(buffer)].data.data() + offset, length};
    return out;
  }
  out.owned.resize(length);
  if (!readFileRange(m_fd, m_fileOffset + offset, out.owned))  // cut short after its container was checked
    return errorAt(ErrorCode::Io, std::string(source), "",
                   "the file ended early while its binary chunk was read (was it changed while loading?)");
  out.bytes = out.owned;
  return out;
}

}  // namespace riglens::core
