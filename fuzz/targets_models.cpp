// Models Assimp reads (OBJ, STL, PLY, COLLADA, FBX): the first input byte
// picks the format, the rest is the file. Assimp runs in its own process
// (assimp_model.h), so what is fuzzed here is the viewer's side: that
// whatever Assimp does with the bytes — refuse, crash, hang, or export a GLB
// — comes back as a model or as a refusal naming the file.
#include <array>

#include "fixtures.h"
#include "fuzz_target.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/core/view/environment.h"

namespace riglens::fuzz {

namespace {
constexpr std::array<const char*, 5> kExtensions{"obj", "stl", "ply", "dae", "fbx"};
}

std::filesystem::path stageModelFormat(std::span<const std::uint8_t> input) {
  if (input.empty()) return put("models/model.obj", input);
  const char* ext = kExtensions[input[0] % kExtensions.size()];
  return put(std::string("models/model.") + ext, input.subspan(1));
}

Outcome modelFormat(std::span<const std::uint8_t> input) {
  auto run = core::loadRun(stageModelFormat(input));
  if (run) exerciseRun(*run);
  return outcomeOf(run);
}

}  // namespace riglens::fuzz

namespace riglens::fuzz {

// An environment map: the first byte picks .hdr (even) or .exr (odd), the
// rest is the file, decoded from memory as the viewer reads it.
Outcome environmentMap(std::span<const std::uint8_t> input) {
  const bool exr = !input.empty() && (input[0] & 1);
  const auto bytes = input.empty() ? input : input.subspan(1);
  return outcomeOf(core::decodeEnvironment(bytes, exr ? "environment.exr" : "environment.hdr"));
}

}  // namespace riglens::fuzz
