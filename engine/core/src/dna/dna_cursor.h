// A bounds-checked big-endian reader over one layer of a DNA file
// (terse's binary archive: u32 counts before arrays and strings, IEEE-754
// floats in network order). Every read stays inside [pos, end); a count is
// checked against the bytes left before anything is allocated. A problem
// throws DnaProblem with the byte offset, caught at the reader's boundary.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace riglens::core::dna_detail {

struct DnaProblem {
  std::uint64_t offset;
  std::string message;
};

class DnaCursor {
 public:
  DnaCursor(std::span<const std::uint8_t> file, std::string layer, std::size_t begin, std::size_t end)
      : m_file(file), m_layer(std::move(layer)), m_pos(begin), m_end(end) {}

  [[noreturn]] void failAt(std::size_t offset, const std::string& message) const {
    throw DnaProblem{offset, m_layer + ": " + message};
  }
  [[noreturn]] void fail(const std::string& message) const { failAt(m_pos, message); }

  std::size_t pos() const { return m_pos; }
  std::size_t end() const { return m_end; }
  // Continues at `pos` (a size field's anchor + size), never past the layer.
  void skipTo(std::size_t pos) {
    if (pos < m_pos || pos > m_end) fail("a size field points outside the layer");
    m_pos = pos;
  }
  std::size_t left() const { return m_end - m_pos; }
  const std::string& layer() const { return m_layer; }

  std::uint8_t u8() { return std::uint8_t(take(1)); }
  std::uint16_t u16() { return std::uint16_t(take(2)); }
  std::uint32_t u32() { return std::uint32_t(take(4)); }
  float f32() {
    const std::uint32_t bits = u32();
    float value;
    std::memcpy(&value, &bits, 4);
    return value;
  }

  // A u32 count of elements at least `minBytes` each, checked against the layer.
  std::size_t count(std::size_t minBytes, const char* what) {
    const std::size_t at = m_pos;
    const std::size_t n = u32();
    if (minBytes && n > left() / minBytes)
      failAt(at, std::string(what) + ": " + std::to_string(n) + " elements run past the layer's end (byte " +
                     std::to_string(m_end) + ")");
    return n;
  }
  std::string str(const char* what) {
    const std::size_t n = count(1, what);
    std::string out(reinterpret_cast<const char*>(m_file.data() + m_pos), n);
    m_pos += n;
    return out;
  }
  std::vector<std::string> strings(const char* what) {
    std::vector<std::string> out(count(4, what));
    for (auto& s : out) s = str(what);
    return out;
  }
  std::vector<std::uint16_t> u16s(const char* what) {
    std::vector<std::uint16_t> out(count(2, what));
    for (auto& v : out) v = u16();
    return out;
  }
  std::vector<float> f32s(const char* what) {
    std::vector<float> out(count(4, what));
    for (auto& v : out) v = f32();
    return out;
  }
  // u16 indices, each below `bound` (the table they point into), refused at the element's own byte.
  std::vector<std::uint16_t> indices(std::size_t bound, const char* what, const char* table) {
    std::vector<std::uint16_t> out(count(2, what));
    for (auto& v : out) {
      const std::size_t at = m_pos;
      v = u16();
      if (v >= bound)
        failAt(at, std::string(what) + ": index " + std::to_string(v) + " is outside the " + std::to_string(bound) +
                       " " + table);
    }
    return out;
  }

 private:
  std::uint64_t take(std::size_t n) {
    if (left() < n)
      fail("a " + std::to_string(n * 8) + "-bit value runs past the layer's end (byte " + std::to_string(m_end) + ")");
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v = (v << 8) | m_file[m_pos + i];
    m_pos += n;
    return v;
  }

  std::span<const std::uint8_t> m_file;
  std::string m_layer;
  std::size_t m_pos, m_end;
};

}  // namespace riglens::core::dna_detail
