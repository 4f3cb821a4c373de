// What the fuzz bodies stand an input beside: a scratch folder of this
// process, the valid companion files a format expects (a tiny GNM pack, the
// ORL fixture, the tank sample's part meshes), and the consumers every
// loaded result is put through. Built by code, once per process.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fuzz_target.h"
#include "riglens/core/base/expected.h"
#include "riglens/core/character/aosrig.h"
#include "riglens/core/character/orl_pack.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/samples/gnm_bake.h"

namespace riglens::fuzz {

// A folder of this process under $TMPDIR (fuzzers may run several at once).
const std::filesystem::path& scratch();
// Writes `bytes` to scratch()/relative, making folders; returns the path.
std::filesystem::path put(const std::filesystem::path& relative, std::span<const std::uint8_t> bytes);
std::filesystem::path put(const std::filesystem::path& relative, std::string_view text);
std::string_view asText(std::span<const std::uint8_t> input);

// A 64-vertex synthetic GNM head (regions, a reduced view, four joints).
samples::GnmBake tinyPackBake();
const std::vector<std::uint8_t>& tinyPackBytes();
const core::AosRigPack& tinyPack();
// The real ORL fixture (tests/data/orl/deform-synthetic.json, packBase64).
const std::vector<std::uint8_t>& orlFixtureBytes();
const core::OrlPack& orlFixture();
// A 3-vertex ORL pack on the sample's four joints whose head_behavior.dna is
// the sample DNA (a bundle's orl_pack.bin: the rig's control names reach it).
const std::vector<std::uint8_t>& tinyOrlPackBytes();
// A branch mesh: 4 vertices, 2 faces, as mesh_head.json text + mesh_head.bin.
std::pair<std::string, std::vector<std::uint8_t>> branchMeshFixture();
// The tank sample's rig.json text and its part meshes as .glb bytes.
const std::string& tankRigJson();
const std::vector<std::pair<std::string, std::vector<std::uint8_t>>>& tankPartGlbs();

// The consumers of a loaded result.
void exerciseRun(const core::LoadedRun& run);
void exercisePack(const core::AosRigPack& pack);
void exerciseOrl(const core::OrlPack& pack);

template <class T>
Outcome outcomeOf(const core::Expected<T>& result) {
  return result ? Outcome{true, {}} : Outcome{false, result.error().message};
}

}  // namespace riglens::fuzz
