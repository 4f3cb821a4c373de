// The fuzz targets: one per file format RigLens opens. Each body runs the
// loader on one input the way the app or the CLI runs it and, when the input
// loads, everything that consumes the result (posing, sampling, skinning,
// the GNM and ORL deforms, export planning), so a value that passes the
// loader but breaks a consumer is found too.
//
// The bodies are plain functions: the libFuzzer executables call them
// (libfuzzer_main.cpp), and tst_core_fuzz_regressions runs the minimised
// inputs the fuzzers found through the very same bodies in the normal build.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace riglens::fuzz {

// What one input did: loaded, or refused with this message.
struct Outcome {
  bool loaded = false;
  std::string message;
};

using Body = Outcome (*)(std::span<const std::uint8_t> input);
// Writes the input where the viewer would open it (with the files a format
// expects beside it) and returns what to open: the body loads that path, and
// the viewer's tests open the same path. Null for inputs the viewer does not
// open as a document.
using Stage = std::filesystem::path (*)(std::span<const std::uint8_t> input);

struct Target {
  const char* name;    // fuzz_<name> is the executable
  const char* format;  // what the input is
  Body body;
  Stage stage;
};

std::span<const Target> targets();
const Target* findTarget(std::string_view name);

// Staging, for the targets the viewer opens as documents.
std::filesystem::path stageRigJson(std::span<const std::uint8_t> input);
std::filesystem::path stageRunRecord(std::span<const std::uint8_t> input);
std::filesystem::path stagePartGlb(std::span<const std::uint8_t> input);
std::filesystem::path stageMeshGlb(std::span<const std::uint8_t> input);
std::filesystem::path stageGltf(std::span<const std::uint8_t> input);
std::filesystem::path stageModelFormat(std::span<const std::uint8_t> input);
std::filesystem::path stageAosrig(std::span<const std::uint8_t> input);
std::filesystem::path stagePly(std::span<const std::uint8_t> input);
std::filesystem::path stageBundleScene(std::span<const std::uint8_t> input);
std::filesystem::path stageBundleMesh(std::span<const std::uint8_t> input);

// The bodies, by domain.
Outcome rigJson(std::span<const std::uint8_t> input);
Outcome runRecord(std::span<const std::uint8_t> input);
Outcome partGlb(std::span<const std::uint8_t> input);
Outcome meshGlb(std::span<const std::uint8_t> input);
Outcome gltfText(std::span<const std::uint8_t> input);
Outcome modelFormat(std::span<const std::uint8_t> input);
Outcome aosrig(std::span<const std::uint8_t> input);
Outcome orlPack(std::span<const std::uint8_t> input);
Outcome gaussianPly(std::span<const std::uint8_t> input);
Outcome bundleScene(std::span<const std::uint8_t> input);
Outcome bundleMesh(std::span<const std::uint8_t> input);
Outcome npyTable(std::span<const std::uint8_t> input);
Outcome controlsJson(std::span<const std::uint8_t> input);
Outcome bodyPoseJson(std::span<const std::uint8_t> input);
Outcome jointWorldsJson(std::span<const std::uint8_t> input);
Outcome orlOutputsJson(std::span<const std::uint8_t> input);
Outcome ictFace(std::span<const std::uint8_t> input);
Outcome dna(std::span<const std::uint8_t> input);
Outcome environmentMap(std::span<const std::uint8_t> input);

}  // namespace riglens::fuzz
