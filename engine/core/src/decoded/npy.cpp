#include "riglens/core/decoded/npy.h"

#include <cctype>
#include <cstring>
#include <optional>
#include <string_view>

#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_reader.h"

namespace riglens::core {

namespace {

// The header is a Python dict literal, as numpy.save writes it:
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// Read by a scanner, not std::regex: libstdc++'s matcher recurses once a
// character, and a 100 KB header overflowed the stack (fuzz_npy on such a
// file, 2026-12-07). A key may appear more than once (inside another value's
// text); as a search would, the first occurrence whose value reads wins.

std::size_t skipSpaces(std::string_view text, std::size_t i) {
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  return i;
}

// `read` tried just after each `'key'`, its colon and the spaces after it;
// the first value that reads.
template <class ReadValue>
auto firstValueOf(std::string_view header, std::string_view key, ReadValue read) -> decltype(read(std::size_t{})) {
  const std::string quoted = "'" + std::string(key) + "'";
  for (std::size_t at = header.find(quoted); at != std::string_view::npos; at = header.find(quoted, at + 1)) {
    const std::size_t colon = skipSpaces(header, at + quoted.size());
    if (colon < header.size() && header[colon] == ':')
      if (auto value = read(skipSpaces(header, colon + 1))) return value;
  }
  return std::nullopt;
}

// 1 to 9 decimal digits at `i` (not followed by a tenth); advances `i`.
std::optional<std::size_t> readCount(std::string_view text, std::size_t& i) {
  std::size_t n = 0, digits = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && digits < 10) {
    n = n * 10 + std::size_t(text[i++] - '0');
    ++digits;
  }
  if (digits == 0 || digits > 9) return std::nullopt;
  return n;
}

std::optional<std::string_view> descrOf(std::string_view header) {
  return firstValueOf(header, "descr", [&](std::size_t i) -> std::optional<std::string_view> {
    if (i >= header.size() || header[i] != '\'') return std::nullopt;
    const std::size_t end = header.find('\'', i + 1);
    if (end == std::string_view::npos) return std::nullopt;
    return header.substr(i + 1, end - i - 1);
  });
}

std::optional<bool> fortranOrderOf(std::string_view header) {
  return firstValueOf(header, "fortran_order", [&](std::size_t i) -> std::optional<bool> {
    const std::string_view rest = header.substr(i);
    if (rest.starts_with("True")) return true;
    if (rest.starts_with("False")) return false;
    return std::nullopt;
  });
}

// (rows, cols) with an optional trailing comma.
std::optional<std::pair<std::size_t, std::size_t>> shapeOf(std::string_view header) {
  return firstValueOf(header, "shape", [&](std::size_t i) -> std::optional<std::pair<std::size_t, std::size_t>> {
    if (i >= header.size() || header[i] != '(') return std::nullopt;
    i = skipSpaces(header, i + 1);
    const auto rows = readCount(header, i);
    i = skipSpaces(header, i);
    if (!rows || i >= header.size() || header[i] != ',') return std::nullopt;
    i = skipSpaces(header, i + 1);
    const auto cols = readCount(header, i);
    i = skipSpaces(header, i);
    if (cols && i < header.size() && header[i] == ',') i = skipSpaces(header, i + 1);
    if (!cols || i >= header.size() || header[i] != ')') return std::nullopt;
    return std::pair{*rows, *cols};
  });
}

}  // namespace

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
  const std::string_view header(reinterpret_cast<const char*>(b.data() + start), headerLen);
  if (descrOf(header) != "<f4") return fail(start, "the table must be little-endian float32 ('<f4')");
  if (fortranOrderOf(header) != false) return fail(start, "the table must be in C order");
  const auto shape = shapeOf(header);
  if (!shape) return fail(start, "the table must be 2-D (rows, cols)");
  NpyTable t;
  t.rows = shape->first;
  t.cols = shape->second;
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
