#include "riglens/core/character/orl_pack.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <glm/gtc/matrix_transform.hpp>
#include <map>
#include <numbers>
#include <numeric>
#include <set>

#include "riglens/core/base/json_reader.h"

namespace riglens::core {
namespace {

using nlohmann::json;
constexpr char kMagic[8] = {'O', 'R', 'L', 'P', 'A', 'C', 'K', '1'};

[[noreturn]] void fail(const std::string& m) {
  throwReadProblem("", m);
}

using Members = std::map<std::string, std::span<const std::uint8_t>>;

template <class T>
std::vector<T> array(const Members& members, const std::string& name, std::size_t expected, const std::string& why) {
  auto it = members.find(name);
  if (it == members.end()) fail("member " + name + " is missing");
  if (expected > it->second.size() / sizeof(T) || it->second.size() != expected * sizeof(T))
    fail("member " + name + " has " + std::to_string(it->second.size()) + " bytes, but " + why + " needs " +
         std::to_string(expected) + " values of " + std::to_string(sizeof(T)) + " bytes");
  std::vector<T> out(expected);
  if (expected) std::memcpy(out.data(), it->second.data(), it->second.size());
  return out;
}

json memberJson(const Members& members, const std::string& name) {
  auto it = members.find(name);
  if (it == members.end()) fail("member " + name + " is missing");
  json j = json::parse(it->second.begin(), it->second.end(), nullptr, false);
  if (j.is_discarded()) fail("member " + name + " is not JSON");
  return j;
}

// Maya's extrinsic xyz order in degrees: Rz * Ry * Rx on column vectors.
glm::dmat4 rotationXyzDegrees(double rx, double ry, double rz) {
  const double k = std::numbers::pi / 180.0;
  const glm::dmat4 x = glm::rotate(glm::dmat4(1.0), rx * k, glm::dvec3(1, 0, 0));
  const glm::dmat4 y = glm::rotate(glm::dmat4(1.0), ry * k, glm::dvec3(0, 1, 0));
  const glm::dmat4 z = glm::rotate(glm::dmat4(1.0), rz * k, glm::dvec3(0, 0, 1));
  return z * y * x;
}

}  // namespace

bool startsWithOrlMagic(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[8] = {};
  return in.read(magic, 8) && std::memcmp(magic, kMagic, 8) == 0;
}

namespace {

// The header and the table of contents: each member's bytes, checked to lie
// in the file, 8-byte aligned, named once. Inside guardRead (fail() throws).
Members readMembers(std::span<const std::uint8_t> b, OrlPack& pack) {
  if (b.size() < 16) fail("file too short for an ORLPACK1 header");
  if (std::memcmp(b.data(), kMagic, 8) != 0) fail("bad magic: not an ORLPACK1 pack");
  std::uint32_t tocLength, total;
  std::memcpy(&tocLength, b.data() + 8, 4);
  std::memcpy(&total, b.data() + 12, 4);
  if (total != b.size())
    fail("total length " + std::to_string(total) + " does not match the file size " + std::to_string(b.size()));
  if (tocLength > b.size() - 16) fail("the table of contents (length at byte 8) runs past the end of the file");
  std::string tocText(reinterpret_cast<const char*>(b.data()) + 16, tocLength);
  tocText.erase(std::find(tocText.begin(), tocText.end(), '\0'), tocText.end());  // zero padding
  const json tocJson = json::parse(tocText, nullptr, false);
  if (tocJson.is_discarded()) fail("the table of contents is not JSON");
  Members members;
  // The TOC's pointers name its entries (/3/o); a member's JSON is read
  // against a pointer into that member ("manifest.json#/V").
  for (const JsonRef& e : JsonRef(tocJson).elements()) {
    e.object();
    const std::string name = e["n"].string();
    const std::size_t o = e["o"].count(b.size()), l = e["l"].count(b.size());
    if (name.empty()) e["n"].fail("a table entry has no name");
    if (members.count(name)) e["n"].fail("member " + name + " is listed twice");
    if (o % 8) e["o"].fail("member " + name + " at byte " + std::to_string(o) + " is not 8-byte aligned");
    if (l > b.size() - o) e.fail("member " + name + " runs past the end of the file");
    members[name] = b.subspan(o, l);
    pack.members.push_back(name);
  }
  return members;
}

// The blendshape target runs (bs_targets.json), which must tile the delta
// array; returns how many entries they hold.
std::size_t readTargets(const Members& members, std::size_t fileBytes, OrlPack& pack) {
  std::size_t entries = 0;
  const json targets = memberJson(members, "bs_targets.json");
  for (const JsonRef& t : JsonRef(targets, "bs_targets.json#").elements()) {
    t.object();
    OrlTarget target{t["channel"].toInt(0), t["offset"].count(fileBytes), t["count"].count(fileBytes),
                     t["scale"].toFloat()};
    if (pack.channelCount && std::size_t(target.channel) >= pack.channelCount)
      t["channel"].fail("names channel " + std::to_string(target.channel) + " past the channel count " +
                        std::to_string(pack.channelCount));
    if (target.offset != entries) t["offset"].fail("blendshape target runs do not tile the delta array");
    entries += target.count;
    if (entries > fileBytes) t["count"].fail("the runs hold more entries than the file has bytes");
    pack.targets.push_back(target);
  }
  return entries;
}

}  // namespace

Expected<OrlPack> parseOrlPack(std::span<const std::uint8_t> b, std::string_view sourceName) {
  return guardRead(sourceName, [&] {
    OrlPack pack;
    const Members members = readMembers(b, pack);
    pack.manifest = memberJson(members, "manifest.json");
    const JsonRef m(pack.manifest, "manifest.json#");
    m.object();
    // Counts past the file size are corrupt: every vertex and joint holds data.
    pack.vertexCount = m["V"].count(b.size());
    pack.jointCount = m["numJoints"].count(b.size());
    pack.maxInfluence = int(m.integerOr("maxInfluence", 4, 1, 8));
    pack.channelCount = std::size_t(m.integerOr("numBlendShapeChannels", 0, 0, std::int64_t(b.size())));
    if (auto names = m.find("jointNames")) {
      pack.jointNames = names->strings(pack.jointCount);
      if (pack.jointNames.size() != pack.jointCount)
        names->fail("names " + std::to_string(pack.jointNames.size()) + " joints; the pack has " +
                    std::to_string(pack.jointCount));
    }
    const std::size_t V = pack.vertexCount, J = pack.jointCount, I = std::size_t(pack.maxInfluence);
    const std::size_t entries = readTargets(members, b.size(), pack);
    pack.neutral = array<float>(members, "neutral_pos.bin", V * 3, "V*3");
    pack.jointNeutral = array<float>(members, "joint_neutral.bin", J * 9, "J*9");
    pack.jointParents = array<std::int32_t>(members, "joint_parents.bin", J, "J");
    for (std::size_t j = 0; j < J; ++j)
      if (pack.jointParents[j] < 0 || std::size_t(pack.jointParents[j]) > j)
        fail("joint " + std::to_string(j) + " has parent " + std::to_string(pack.jointParents[j]) +
             " (parents must come first)");
    const auto inverse = array<float>(members, "inverse_bind.bin", J * 16, "J*16");
    for (std::size_t j = 0; j < J; ++j) {
      glm::dmat4 mat;
      for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) mat[c][r] = inverse[j * 16 + std::size_t(r * 4 + c)];  // row-major
      pack.inverseBind.push_back(mat);
    }
    pack.skinIndex = array<std::uint16_t>(members, "skin_idx.bin", V * I, "V*maxInfluence");
    for (auto j : pack.skinIndex)
      if (j >= J) fail("skin_idx names joint " + std::to_string(j) + " past the joint count");
    pack.skinWeight = array<float>(members, "skin_w.bin", V * I, "V*maxInfluence");
    pack.bsIndex = array<std::uint16_t>(members, "bs_index.bin", entries, "the blendshape runs");
    for (auto v : pack.bsIndex)
      if (v >= V) fail("bs_index names vertex " + std::to_string(v) + " past V");
    pack.bsDelta = array<std::int8_t>(members, "bs_delta.bin", entries * 3, "3 per blendshape entry");
    if (auto dna = members.find(kOrlDnaMember); dna != members.end())
      pack.behaviorDna.assign(dna->second.begin(), dna->second.end());
    return pack;
  });
}

Expected<OrlOutputs> orlOutputsFromJson(const OrlPack& pack, const nlohmann::json& doc, std::string_view source) {
  return guardRead(source, [&] {
    const JsonRef root(doc);
    root.object();
    OrlOutputs out;
    const JsonRef joints = root["jointOut"];
    joints.arrayOfSize(pack.jointCount * 9, "numbers (9 per joint)");
    out.jointOut = joints.floats(pack.jointCount * 9);
    const JsonRef channels = root["bsOut"];
    if (pack.channelCount) channels.arrayOfSize(pack.channelCount, "weights (one per channel)");
    out.bsOut = channels.floats(std::max<std::size_t>(pack.channelCount, channels.size()));
    return out;
  });
}

std::vector<glm::dmat4> orlJointWorlds(const OrlPack& pack, std::span<const float> out) {
  const std::size_t J = pack.jointCount;
  std::vector<glm::dmat4> world(J);
  for (std::size_t j = 0; j < J; ++j) {
    const float* n = &pack.jointNeutral[j * 9];
    const float* d = out.size() >= (j + 1) * 9 ? &out[j * 9] : nullptr;
    const auto delta = [&](int k) { return d ? double(d[k]) : 0.0; };
    glm::dmat4 local = glm::translate(glm::dmat4(1.0), glm::dvec3(n[0] + delta(0), n[1] + delta(1), n[2] + delta(2)));
    local = local * rotationXyzDegrees(n[3], n[4], n[5]) * rotationXyzDegrees(delta(3), delta(4), delta(5));
    // Each column scaled by 1 + s (the rest scale is 1 in the packs we read).
    local = local * glm::scale(glm::dmat4(1.0),
                               glm::dvec3(n[6] * (1 + delta(6)), n[7] * (1 + delta(7)), n[8] * (1 + delta(8))));
    const auto parent = std::size_t(pack.jointParents[j]);
    world[j] = parent == j ? local : world[parent] * local;
  }
  return world;
}

Expected<std::vector<float>> orlDeform(const OrlPack& pack, std::span<const float> jointOutputs,
                                       std::span<const float> weights) {
  const std::size_t V = pack.vertexCount, J = pack.jointCount, I = std::size_t(pack.maxInfluence);
  if (jointOutputs.size() != J * 9)
    return makeError(ErrorCode::Usage, "joint outputs: " + std::to_string(jointOutputs.size()) + " numbers, expected " +
                                           std::to_string(J * 9));
  if (pack.channelCount && weights.size() != pack.channelCount)
    return makeError(ErrorCode::Usage, "channel weights: " + std::to_string(weights.size()) + ", expected " +
                                           std::to_string(pack.channelCount));
  std::vector<double> p(pack.neutral.begin(), pack.neutral.end());
  for (const OrlTarget& t : pack.targets) {
    const double w = std::size_t(t.channel) < weights.size() ? weights[std::size_t(t.channel)] : 0.0;
    if (w == 0.0) continue;
    for (std::size_t e = t.offset; e < t.offset + t.count; ++e)
      for (int k = 0; k < 3; ++k)
        p[pack.bsIndex[e] * 3 + std::size_t(k)] += w * t.scale * pack.bsDelta[e * 3 + std::size_t(k)];
  }
  const auto world = orlJointWorlds(pack, jointOutputs);
  std::vector<glm::dmat4> skin(J);
  for (std::size_t j = 0; j < J; ++j) skin[j] = world[j] * pack.inverseBind[j];
  std::vector<float> out(V * 3);
  for (std::size_t v = 0; v < V; ++v) {
    const glm::dvec4 src(p[v * 3], p[v * 3 + 1], p[v * 3 + 2], 1.0);
    glm::dvec4 acc(0.0);
    for (std::size_t i = 0; i < I; ++i) {
      const double w = pack.skinWeight[v * I + i];
      if (w != 0.0) acc += w * (skin[pack.skinIndex[v * I + i]] * src);
    }
    for (int k = 0; k < 3; ++k) out[v * 3 + std::size_t(k)] = float(acc[k]);
  }
  return out;
}

const char* orlDriveModeName(OrlDriveMode mode) {
  return mode == OrlDriveMode::Skin ? "skin" : mode == OrlDriveMode::Shell ? "shell" : "none";
}

OrlDriveMode orlDriveMode(std::size_t n) {
  if (n == 24049) return OrlDriveMode::Skin;
  if (n <= 4096) return OrlDriveMode::Shell;
  return OrlDriveMode::None;
}

std::vector<int> orlShellBinding(const OrlPack& pack, std::span<const float> pos,
                                 std::span<const std::uint32_t> faces) {
  const std::size_t V = pos.size() / 3;
  // Connected pieces by union-find over the faces.
  std::vector<std::size_t> root(V);
  std::iota(root.begin(), root.end(), 0);
  const auto find = [&root](std::size_t i) {  // iterative, with path halving: pieces can be long chains
    while (root[i] != i) i = root[i] = root[root[i]];
    return i;
  };
  for (std::size_t f = 0; f + 2 < faces.size(); f += 3) {
    if (faces[f] >= V || faces[f + 1] >= V || faces[f + 2] >= V) continue;  // a face past the positions binds nothing
    for (int k = 1; k < 3; ++k) root[find(faces[f + std::size_t(k)])] = find(faces[f]);
  }
  std::map<std::size_t, std::pair<glm::dvec3, std::size_t>> pieces;  // root -> (sum, count)
  for (std::size_t v = 0; v < V; ++v) {
    auto& [sum, n] = pieces[find(v)];
    sum += glm::dvec3(pos[v * 3], pos[v * 3 + 1], pos[v * 3 + 2]);
    ++n;
  }
  const auto rest = orlJointWorlds(pack, {});
  struct Pair {
    double distance;
    std::size_t piece;
    int joint;
  };
  std::vector<Pair> pairs;
  for (const char* name : {"FACIAL_L_Eye", "FACIAL_R_Eye", "FACIAL_C_TeethUpper", "FACIAL_C_TeethLower"}) {
    const auto it = std::find(pack.jointNames.begin(), pack.jointNames.end(), name);
    if (it == pack.jointNames.end()) continue;
    const int j = int(it - pack.jointNames.begin());
    const glm::dvec3 at(rest[std::size_t(j)][3]);
    for (const auto& [r, acc] : pieces) {
      const double d = glm::length(acc.first / double(acc.second) - at);
      if (d <= 4.0) pairs.push_back({d, r, j});
    }
  }
  std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.distance < b.distance; });
  std::map<std::size_t, int> pieceJoint;
  std::set<int> used;
  for (const Pair& p : pairs)
    if (!pieceJoint.count(p.piece) && !used.count(p.joint)) {
      pieceJoint[p.piece] = p.joint;
      used.insert(p.joint);
    }
  std::vector<int> out(V, -1);
  for (std::size_t v = 0; v < V; ++v)
    if (auto it = pieceJoint.find(find(v)); it != pieceJoint.end()) out[v] = it->second;
  return out;
}

}  // namespace riglens::core
