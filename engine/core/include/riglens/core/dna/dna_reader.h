// Reads a MetaHuman DNA (contract/ORL.md 2.1-2.3): "DNA", generation 2,
// version 2.1 (section table, "AND" trailer) or 2.2+ (layer index of
// {FourCC, version, offset, size}), big-endian throughout.
//
// Every count is checked against the bytes left in its layer before anything
// is allocated, every offset and size against the file, every index against
// the table it points into. Unknown layers are skipped by their size; geom,
// twsw and mlbe are skipped; an mlbh that declares ML controls is refused
// (they would shift the control index space). A refusal names the file, the
// layer and the byte offset ("head.dna: byte 812: bhvr: ...").
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>

#include "riglens/core/base/expected.h"
#include "riglens/core/dna/dna.h"

namespace riglens::core {

Expected<Dna> readDna(std::span<const std::uint8_t> bytes, std::string_view source);
Expected<Dna> readDnaFile(const std::filesystem::path& path);
// A .dna, or an ORL pack (ORLPACK1): its head_behavior.dna member, whose
// refusals name "<pack>#head_behavior.dna" and offsets inside the member.
Expected<Dna> readDnaOrPack(const std::filesystem::path& path);

// "DNA" followed by a supported generation: what sniffing a file needs.
bool looksLikeDna(std::span<const std::uint8_t> firstBytes);

}  // namespace riglens::core
