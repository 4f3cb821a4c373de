#include "container_mutators.h"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t maxSize);

namespace riglens::fuzz {
namespace {

using Bytes = std::vector<std::uint8_t>;

std::uint32_t u32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
void putU32(std::uint8_t* p, std::uint64_t v) {
  const auto w = std::uint32_t(v);
  std::memcpy(p, &w, 4);
}
std::size_t align(std::size_t n, std::size_t to) {
  return (n + to - 1) / to * to;
}

// A TOC offset or length as the mutator may trust it: only an unsigned JSON
// integer (json::value<uint64_t> would convert a float like 3.9e52 with
// undefined behaviour; UBSan caught that here in CI, not in the product).
std::uint64_t tocNumber(const nlohmann::json& entry, const char* key) {
  const auto it = entry.find(key);
  return it != entry.end() && it->is_number_unsigned() ? it->get<std::uint64_t>() : 0;
}

// libFuzzer's mutation of `part`, which may grow up to `capacity` bytes.
Bytes mutated(Bytes part, std::size_t capacity) {
  if (capacity == 0) return part;
  if (part.empty()) part.push_back(' ');  // libFuzzer's mutators want a byte to start from
  const std::size_t size = part.size();
  part.resize(std::max(capacity, size));
  part.resize(LLVMFuzzerMutate(part.data(), size, part.size()));
  return part;
}

std::size_t plain(std::uint8_t* data, std::size_t size, std::size_t maxSize) {
  return LLVMFuzzerMutate(data, size, maxSize);
}

std::size_t emit(const Bytes& out, std::uint8_t* data, std::size_t size, std::size_t maxSize) {
  if (out.size() > maxSize) return plain(data, size, maxSize);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

// GLB: header (magic, version, length), a JSON chunk, an optional BIN chunk.
std::size_t mutateGlb(std::uint8_t* data, std::size_t size, std::size_t maxSize, unsigned seed) {
  if (seed % 10 == 0 || size < 20 || u32(data) != 0x46546C67u) return plain(data, size, maxSize);
  const std::size_t jsonLength = u32(data + 12);
  if (jsonLength > size - 20) return plain(data, size, maxSize);
  Bytes json(data + 20, data + 20 + jsonLength), bin;
  bool hasBin = false;
  if (std::size_t at = 20 + jsonLength; at + 8 <= size) {
    hasBin = true;
    bin.assign(data + at + 8, data + at + 8 + std::min<std::size_t>(u32(data + at), size - at - 8));
  }
  const std::size_t overhead = 20 + (hasBin ? 8 : 0) + 8;  // header, chunk headers, padding
  if (maxSize <= overhead + bin.size() + json.size()) return plain(data, size, maxSize);
  if (seed % 10 < 3 && hasBin)
    bin = mutated(std::move(bin), maxSize - overhead - json.size());
  else
    json = mutated(std::move(json), maxSize - overhead - bin.size());
  while (json.size() % 4) json.push_back(' ');
  while (bin.size() % 4) bin.push_back(0);
  Bytes out(12, 0);
  const auto chunk = [&out](const Bytes& body, std::uint32_t type) {
    const std::size_t at = out.size();
    out.resize(at + 8);
    putU32(out.data() + at, body.size());
    putU32(out.data() + at + 4, type);
    out.insert(out.end(), body.begin(), body.end());
  };
  chunk(json, 0x4E4F534Au);
  if (hasBin) chunk(bin, 0x004E4942u);
  putU32(out.data(), 0x46546C67u);
  putU32(out.data() + 4, 2);
  putU32(out.data() + 8, out.size());
  return emit(out, data, size, maxSize);
}

// .aosrig and ORLPACK1 open with 8 bytes of magic, the length of a JSON text
// (u32 at 8), the file's length (u32 at 12) and that text at 16. The text's
// length when `data` is such a file of `magic` and this seed mutates it by
// its layout (every tenth mutation stays plain).
std::optional<std::size_t> headedTextLength(const std::uint8_t* data, std::size_t size, const char* magic,
                                            unsigned seed) {
  if (seed % 10 == 0 || size < 16 || std::memcmp(data, magic, 8) != 0) return std::nullopt;
  const std::size_t length = u32(data + 8);
  return length > size - 16 ? std::nullopt : std::optional(length);
}

// The text of such a file mutated within its `slot` (the bytes before the
// first blob or member), padded with `pad` (which its reader ignores), into
// `out`, and its length set to the slot's.
void mutateSlotText(Bytes& out, Bytes text, std::size_t slot, std::uint8_t pad) {
  text = mutated(std::move(text), slot);
  text.resize(slot, pad);
  std::copy(text.begin(), text.end(), out.begin() + 16);
  putU32(out.data() + 8, slot);
}

// .aosrig: the header JSON fills a slot up to the first blob; it is mutated
// within the slot (padded with spaces, which JSON ignores) so every blob
// offset stays where the header says; totalLen follows the size.
std::size_t mutateAosrig(std::uint8_t* data, std::size_t size, std::size_t maxSize, unsigned seed) {
  const auto header = headedTextLength(data, size, "AOSRIG01", seed);
  if (!header) return plain(data, size, maxSize);
  const std::size_t headerLength = *header;
  const std::size_t slot = std::min(align(16 + headerLength, 8), size) - 16;
  Bytes out(data, data + size);
  if (seed % 10 < 3 && 16 + slot < size) {  // a blob byte, in place
    Bytes blobs(data + 16 + slot, data + size);
    blobs = mutated(std::move(blobs), blobs.size());
    blobs.resize(size - 16 - slot, 0);
    std::copy(blobs.begin(), blobs.end(), out.begin() + std::ptrdiff_t(16 + slot));
  } else {
    Bytes text(data + 16, data + 16 + headerLength);
    while (!text.empty() && (text.back() == ' ' || text.back() == 0)) text.pop_back();
    mutateSlotText(out, std::move(text), slot, ' ');
  }
  putU32(out.data() + 12, out.size());
  return emit(out, data, size, maxSize);
}

// ORLPACK1: a TOC [{n, o, l}] and 8-byte-aligned members. A mutated member
// moves to the end of the file and its TOC entry follows it; the TOC itself
// is mutated within its slot (padded with NULs, which the reader strips).
std::size_t mutateOrl(std::uint8_t* data, std::size_t size, std::size_t maxSize, unsigned seed) {
  const auto tocLength = headedTextLength(data, size, "ORLPACK1", seed);
  if (!tocLength) return plain(data, size, maxSize);
  std::string tocText(reinterpret_cast<const char*>(data) + 16, *tocLength);
  tocText.erase(std::find(tocText.begin(), tocText.end(), '\0'), tocText.end());
  nlohmann::json toc = nlohmann::json::parse(tocText, nullptr, false);
  if (!toc.is_array() || toc.empty()) return plain(data, size, maxSize);
  std::size_t slot = size - 16;
  for (const auto& e : toc)
    if (e.is_object() && tocNumber(e, "o") >= 16) slot = std::min<std::size_t>(slot, tocNumber(e, "o") - 16);
  Bytes out(data, data + size);
  if (seed % 10 < 3) {
    mutateSlotText(out, Bytes(tocText.begin(), tocText.end()), slot, 0);
  } else {
    auto& entry = toc[seed / 10 % toc.size()];
    if (!entry.is_object()) return plain(data, size, maxSize);
    const std::uint64_t o = tocNumber(entry, "o"), l = tocNumber(entry, "l");
    if (o > size || l > size - o) return plain(data, size, maxSize);
    Bytes member(data + o, data + o + l);
    member = mutated(std::move(member), l + 256);
    out.resize(align(out.size(), 8), 0);
    entry["o"] = out.size();
    entry["l"] = member.size();
    out.insert(out.end(), member.begin(), member.end());
    const std::string text = toc.dump();
    if (text.size() > slot) return plain(data, size, maxSize);
    std::fill(out.begin() + 16, out.begin() + std::ptrdiff_t(16 + slot), 0);
    std::memcpy(out.data() + 16, text.data(), text.size());
    putU32(out.data() + 8, slot);
  }
  putU32(out.data() + 12, out.size());
  return emit(out, data, size, maxSize);
}

// A v2.2+ DNA: "DNA", generation, version, then the layer index {FourCC,
// version, offset, size} (big-endian). One layer's bytes are mutated and
// moved to the end of the file, and its index entry repaired to point at
// them, so the mutation reaches the layer's fields instead of the reader's
// first offset check. v2.1 files and every tenth mutation stay plain.
std::size_t mutateDna(std::uint8_t* data, std::size_t size, std::size_t maxSize, unsigned seed) {
  const auto be32 = [](const std::uint8_t* p) {
    return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
  };
  const auto putBe32 = [](std::uint8_t* p, std::size_t v) {
    for (int i = 0; i < 4; ++i) p[i] = std::uint8_t(v >> (24 - 8 * i));
  };
  if (seed % 10 == 0 || size < 11 || std::memcmp(data, "DNA", 3) != 0 || data[6] < 2) return plain(data, size, maxSize);
  const std::size_t layers = be32(data + 7);
  if (layers == 0 || layers > (size - 11) / 16) return plain(data, size, maxSize);
  const std::size_t entry = 11 + 16 * (seed / 10 % layers);
  const std::size_t offset = be32(data + entry + 8), length = be32(data + entry + 12);
  if (offset > size || length > size - offset) return plain(data, size, maxSize);
  Bytes layer(data + offset, data + offset + length);
  layer = mutated(std::move(layer), length + 64);
  Bytes out(data, data + size);
  putBe32(out.data() + entry + 8, out.size());
  putBe32(out.data() + entry + 12, layer.size());
  out.insert(out.end(), layer.begin(), layer.end());
  return emit(out, data, size, maxSize);
}

}  // namespace

Mutator containerMutator(std::string_view target) {
  if (target == "part_glb" || target == "mesh_glb") return &mutateGlb;
  if (target == "aosrig") return &mutateAosrig;
  if (target == "orl_pack") return &mutateOrl;
  if (target == "dna") return &mutateDna;
  return nullptr;
}

}  // namespace riglens::fuzz
