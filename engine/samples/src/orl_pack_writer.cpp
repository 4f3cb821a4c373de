// ORLPACK1 (contract/CHARACTER.md 3): "ORLPACK1", u32 TOC length, u32 total
// length, the TOC JSON [{n, o, l}], then 8-byte-aligned members. Blendshape
// deltas are stored as int8 with one scale per target run (maxabs / 127).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "riglens/samples/orl_sample.h"

namespace riglens::samples {
namespace {

template <class T>
std::vector<std::uint8_t> bytesOf(const std::vector<T>& v) {
  std::vector<std::uint8_t> out(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(out.data(), v.data(), out.size());
  return out;
}

std::vector<std::uint8_t> textOf(const std::string& s) {
  return {s.begin(), s.end()};
}

std::size_t align8(std::size_t n) {
  return (n + 7) & ~std::size_t(7);
}

}  // namespace

core::Expected<std::vector<std::uint8_t>> writeOrlPack(const OrlPackParts& p) {
  const std::size_t J = p.jointNames.size(), I = std::size_t(p.maxInfluence);
  if (p.neutral.size() != p.vertexCount * 3 || p.jointNeutral.size() != J * 9 || p.inverseBind.size() != J * 16 ||
      p.jointParents.size() != J || p.skinIndex.size() != p.vertexCount * I || p.skinWeight.size() != p.vertexCount * I)
    return core::makeError(core::ErrorCode::Usage, "the ORL pack's parts disagree in size");
  nlohmann::json targets = nlohmann::json::array();
  std::vector<std::uint16_t> bsIndex;
  std::vector<std::int8_t> bsDelta;
  for (const auto& t : p.targets) {
    float most = 0;
    for (float d : t.deltas) most = std::max(most, std::abs(d));
    const float scale = most > 0 ? most / 127.0f : 1.0f;
    targets.push_back(
        {{"channel", t.channel}, {"offset", bsIndex.size()}, {"count", t.vertices.size()}, {"scale", scale}});
    bsIndex.insert(bsIndex.end(), t.vertices.begin(), t.vertices.end());
    for (float d : t.deltas) bsDelta.push_back(std::int8_t(std::lround(d / scale)));
  }
  const nlohmann::json manifest{{"V", p.vertexCount},
                                {"numJoints", J},
                                {"maxInfluence", p.maxInfluence},
                                {"numBlendShapeChannels", p.channelCount},
                                {"jointNames", p.jointNames},
                                {"units", "cm"}};
  const std::vector<std::pair<std::string, std::vector<std::uint8_t>>> members{
      {"manifest.json", textOf(manifest.dump())},
      {"bs_targets.json", textOf(targets.dump())},
      {"head_behavior.dna", p.dna},
      {"neutral_pos.bin", bytesOf(p.neutral)},
      {"joint_neutral.bin", bytesOf(p.jointNeutral)},
      {"joint_parents.bin", bytesOf(p.jointParents)},
      {"inverse_bind.bin", bytesOf(p.inverseBind)},
      {"skin_idx.bin", bytesOf(p.skinIndex)},
      {"skin_w.bin", bytesOf(p.skinWeight)},
      {"bs_index.bin", bytesOf(bsIndex)},
      {"bs_delta.bin", bytesOf(bsDelta)}};
  // The TOC's own length moves the members: grow its slot until the offsets it names fit in it.
  std::size_t slot = 64 * members.size();
  for (;;) {
    nlohmann::json toc = nlohmann::json::array();
    std::size_t at = 16 + slot;
    for (const auto& [name, bytes] : members) {
      toc.push_back({{"n", name}, {"o", at}, {"l", bytes.size()}});
      at = align8(at + bytes.size());
    }
    const std::string text = toc.dump();
    if (text.size() > slot) {
      slot = align8(text.size() + 64);
      continue;
    }
    std::vector<std::uint8_t> body;
    for (const auto& [name, bytes] : members) {
      body.insert(body.end(), bytes.begin(), bytes.end());
      body.resize(align8(body.size()), 0);
    }
    std::vector<std::uint8_t> out{'O', 'R', 'L', 'P', 'A', 'C', 'K', '1'};
    const auto littleEndian = [&out](std::size_t v) {
      for (int i = 0; i < 4; ++i) out.push_back(std::uint8_t(v >> (8 * i)));
    };
    littleEndian(slot);
    littleEndian(16 + slot + body.size());
    out.insert(out.end(), text.begin(), text.end());
    out.resize(16 + slot, 0);
    out.insert(out.end(), body.begin(), body.end());
    return out;
  }
}

}  // namespace riglens::samples
