// The ORL pack (ORLPACK1, contract/CHARACTER.md section 3) and its deform:
// blendshapes + 9 joint outputs per joint -> local -> world -> skin -> LBS,
// in centimetres. Controls -> joint outputs (RigLogic's DNA behaviour) is not
// evaluated here: the deform takes the joint outputs and channel weights.
//
//   bytes 0..7 "ORLPACK1", u32 TOC length @8, u32 total length @12 (= file
//   size), TOC JSON [{n, o, l}] @16; members 8-byte aligned.
#pragma once

#include <cstdint>
#include <filesystem>
#include <glm/mat4x4.hpp>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "riglens/core/base/expected.h"

namespace riglens::core {

struct OrlTarget {
  int channel = 0;
  std::size_t offset = 0, count = 0;  // a run of the bs_index / bs_delta arrays
  float scale = 1.0f;                 // real delta = int8 * scale
};

struct OrlPack {
  nlohmann::json manifest;
  std::size_t vertexCount = 0;
  std::size_t jointCount = 0;
  int maxInfluence = 4;
  std::size_t channelCount = 0;
  std::vector<std::string> jointNames;  // from the manifest when present
  std::vector<OrlTarget> targets;
  std::vector<float> neutral;              // V*3, cm
  std::vector<float> jointNeutral;         // J*9: translation cm, rotation degrees, scale
  std::vector<std::int32_t> jointParents;  // root = itself; parent <= own index
  std::vector<glm::dmat4> inverseBind;     // J (stored row-major)
  std::vector<std::uint16_t> skinIndex;    // V*maxInfluence
  std::vector<float> skinWeight;           // V*maxInfluence
  std::vector<std::uint16_t> bsIndex;
  std::vector<std::int8_t> bsDelta;  // 3 per bs entry
  std::vector<std::string> members;  // every member name in the TOC (dna, mesh_idx, ...)
  // The head_behavior.dna member's bytes (empty when the pack has none):
  // read by core::readDna when the rig is evaluated (dna/dna_reader.h).
  std::vector<std::uint8_t> behaviorDna;
};

inline constexpr const char* kOrlDnaMember = "head_behavior.dna";

// The file starts with "ORLPACK1" (an ORL pack, whatever its name).
bool startsWithOrlMagic(const std::filesystem::path& path);

Expected<OrlPack> parseOrlPack(std::span<const std::uint8_t> bytes, std::string_view sourceName);

// jointOutputs: J*9 (translation delta cm, rotation delta degrees, scale
// delta applied as 1 + s); channelWeights: one per channel (may be negative).
// Returns V*3 vertices in cm. Stateless: repeated calls do not accumulate.
Expected<std::vector<float>> orlDeform(const OrlPack& pack, std::span<const float> jointOutputs,
                                       std::span<const float> channelWeights);

// An outputs file (`riglens-cli character orl-deform --outputs`):
// {"jointOut": [J*9 numbers], "bsOut": [one weight per channel]}, checked
// against the pack's counts; refusals name the pointer.
struct OrlOutputs {
  std::vector<float> jointOut;
  std::vector<float> bsOut;
};
Expected<OrlOutputs> orlOutputsFromJson(const OrlPack& pack, const nlohmann::json& doc, std::string_view source);

// The joints' world matrices for the given outputs (for shell binding, tests).
std::vector<glm::dmat4> orlJointWorlds(const OrlPack& pack, std::span<const float> jointOutputs);

enum class OrlDriveMode { Skin, Shell, None };
const char* orlDriveModeName(OrlDriveMode mode);
// skin at exactly 24,049 vertices (MetaHuman head_lod0), shell at <= 4096, otherwise none.
OrlDriveMode orlDriveMode(std::size_t branchVertexCount);

// Shell binding: the branch mesh split into connected pieces (by faces), each
// bound rigidly to the nearest of FACIAL_L_Eye, FACIAL_R_Eye,
// FACIAL_C_TeethUpper, FACIAL_C_TeethLower whose rest position lies within
// 4 cm of the piece's centroid, each joint at most once (closest pairs
// first). Returns the joint index per vertex (-1: unbound, stays neutral).
std::vector<int> orlShellBinding(const OrlPack& pack, std::span<const float> positionsCm,
                                 std::span<const std::uint32_t> faces);

}  // namespace riglens::core
