#include "riglens/core/base/file_io.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <system_error>

#include "riglens/core/base/json_reader.h"

namespace riglens::core {
namespace {

Error ioError(const std::filesystem::path& path, std::string_view what) {
  std::string problem(what);
  if (errno != 0) problem += std::string(" (") + std::strerror(errno) + ")";
  return errorAt(ErrorCode::Io, path.string(), "", problem);
}

template <class Container>
Expected<Container> readWhole(const std::filesystem::path& path) {
  errno = 0;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    errno = 0;
    return ioError(path, "no such file");
  }
  if (std::filesystem::is_directory(path, ec)) {
    errno = 0;
    return ioError(path, "is a folder, not a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return ioError(path, "cannot open for reading");
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) return ioError(path, "cannot determine the file size");
  in.seekg(0, std::ios::beg);
  Container data(static_cast<std::size_t>(size), typename Container::value_type{});
  if (size > 0 && !in.read(reinterpret_cast<char*>(data.data()), size)) return ioError(path, "read failed");
  return data;
}

}  // namespace

Expected<std::vector<std::uint8_t>> readFileBytes(const std::filesystem::path& path) {
  return readWhole<std::vector<std::uint8_t>>(path);
}

Expected<std::string> readFileText(const std::filesystem::path& path) {
  return readWhole<std::string>(path);
}

Expected<std::filesystem::path> resolveInside(const std::filesystem::path& folder, const std::string& relative,
                                              std::string_view what, std::string_view folderNoun) {
  namespace fs = std::filesystem;
  const fs::path rel(relative);
  if (relative.empty()) return makeError(ErrorCode::Invalid, std::string(what) + ": empty path");
  if (relative.find('\0') != std::string::npos)
    return makeError(ErrorCode::Invalid, std::string(what) + ": the path holds a NUL byte");
  if (rel.is_absolute() || rel.has_root_name() || rel.has_root_directory())
    return makeError(ErrorCode::Invalid, std::string(what) + ": '" + relative +
                                             "' is absolute; paths must stay inside " + std::string(folderNoun));
  const fs::path base = folder.empty() ? fs::path(".") : folder;
  const fs::path joined = (base / rel).lexically_normal();
  const fs::path inside = joined.lexically_relative(base.lexically_normal());
  if (inside.empty() || *inside.begin() == ".." || inside == ".")
    return makeError(ErrorCode::Invalid, std::string(what) + ": '" + relative + "' escapes " + std::string(folderNoun));
  return joined;
}

Expected<void> writeFileAtomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  errno = 0;
  std::random_device entropy;
  std::filesystem::path temp = path;
  temp += ".tmp-" + std::to_string(entropy());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return ioError(path, "cannot open for writing");
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      out.close();
      std::error_code ignored;
      std::filesystem::remove(temp, ignored);
      return ioError(path, "write failed");
    }
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    errno = 0;
    return ioError(path, "cannot move the finished file into place: " + ec.message());
  }
  return {};
}

}  // namespace riglens::core
