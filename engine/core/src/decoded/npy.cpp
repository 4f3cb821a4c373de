#include "riglens/core/decoded/npy.h"

#include <cstring>
#include <regex>

#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_reader.h"

namespace riglens::core {

Expected<NpyTable> parseNpyTable(std::span<const std::uint8_t> b, const std::string& source) {
  const auto fail = [&](std::size_t offset, const std::string& what) {
    return errorAtByte(ErrorCode::Invalid, source, offset, what);
  };
  static constexpr std::uint8_t kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (b.size() < 10 || std::memcmp(b.data(), kMagic, 6) != 0) return fail(0, "not a .npy file (no \\x93NUMPY magic)");
  const int major = b[6];
  if (major < 1 || major > 3) return fail(6, "unknown .npy version " + std::to_string(major));
  std::size_t headerLen = 0, start = 0;
  if (major == 1) {
    headerLen = std::size_t(b[8]) | std::size_t(b[9]) << 8;
    start = 10;
  } else {
    if (b.size() < 12) return fail(8, "truncated header length");
    headerLen = std::size_t(b[8]) | std::size_t(b[9]) << 8 | std::size_t(b[10]) << 16 | std::size_t(b[11]) << 24;
    start = 12;
  }
  if (headerLen > b.size() - start) return fail(start, "the header runs past the end of the file");
  const std::string header(reinterpret_cast<const char*>(b.data() + start), headerLen);
  std::smatch m;
  if (!std::regex_search(header, m, std::regex(R"('descr'\s*:\s*'([^']*)')")) || m[1] != "<f4")
    return fail(start, "the table must be little-endian float32 ('<f4')");
  if (!std::regex_search(header, m, std::regex(R"('fortran_order'\s*:\s*(True|False))")) || m[1] != "False")
    return fail(start, "the table must be in C order");
  if (!std::regex_search(header, m, std::regex(R"('shape'\s*:\s*\(\s*(\d{1,9})\s*,\s*(\d{1,9})\s*,?\s*\))")))
    return fail(start, "the table must be 2-D (rows, cols)");
  NpyTable t;
  t.rows = std::stoul(m[1]);
  t.cols = std::stoul(m[2]);
  const std::size_t data = start + headerLen;
  if (t.rows == 0 || t.cols == 0) return fail(start, "the table is empty");
  if (t.cols > (b.size() - data) / 4 / t.rows)
    return fail(data, std::to_string(t.rows) + " x " + std::to_string(t.cols) + " floats need more bytes than the " +
                          std::to_string(b.size() - data) + " left");
  t.row0.resize(t.cols);
  std::memcpy(t.row0.data(), b.data() + data, t.cols * 4);
  return t;
}

Expected<NpyTable> readNpyTable(const std::filesystem::path& path) {
  auto bytes = readFileBytes(path);
  if (!bytes) return bytes.error();
  return parseNpyTable(*bytes, path.string());
}

}  // namespace riglens::core
