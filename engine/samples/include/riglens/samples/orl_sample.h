// The sample ORL character: a MetaHuman-style face rig of our own, built by
// code from the ICT-FaceKit face RigLens ships (MIT, data/ict-face), so a new
// user can open an ORL character and move it. No MetaHuman data is used.
//
//  mesh   the ICT face region, its triangles split at their centroids until
//         it has exactly 24,049 vertices: the count the ORL contract's skin
//         drive mode takes (CHARACTER.md 3). Every added vertex interpolates
//         its triangle (position, expression deltas, weights, uv), so the
//         surface is the ICT surface.
//  DNA    (sampleOrlDna) MetaHuman board widgets (CTRL_C_jaw.ty, bipolar
//         CTRL_C_jaw.tx, CTRL_L_eye_blink.ty, ...) mapped to raw
//         CTRL_expressions.* controls; PSD correctives (jaw open x smile,
//         blink x cheek raise); an interpolative RBF solver over the jaw's raw
//         controls whose poses slide the jaw; joint groups for the jaw and
//         (quaternion-represented) eyes; the ICT expressions as blendshape
//         channels; animated maps; two LODs.
//  pack   orl_pack.bin (ORLPACK1) with the DNA as head_behavior.dna, joints
//         FACIAL_C_FacialRoot / FACIAL_C_Jaw / FACIAL_L_Eye / FACIAL_R_Eye,
//         skin weights, int8 blendshape deltas in centimetres.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/dna/dna.h"
#include "riglens/samples/character_sample.h"

namespace riglens::samples {

inline constexpr std::size_t kOrlSkinVertexCount = 24049;

// The sample's DNA alone (no mesh needed): deterministic.
core::Dna sampleOrlDna();

// An ORLPACK1 from its parts (members written in the contract's order, 8-byte aligned).
struct OrlPackParts {
  std::size_t vertexCount = 0;
  std::vector<std::string> jointNames;
  int maxInfluence = 4;
  std::size_t channelCount = 0;
  struct Target {
    int channel;
    std::vector<std::uint16_t> vertices;
    std::vector<float> deltas;  // 3 per vertex, cm
  };
  std::vector<Target> targets;
  std::vector<std::uint8_t> dna;
  std::vector<float> neutral, jointNeutral, inverseBind, skinWeight;  // cm; J*9; J*16 row-major; V*I
  std::vector<std::int32_t> jointParents;
  std::vector<std::uint16_t> skinIndex;  // V*I
};
core::Expected<std::vector<std::uint8_t>> writeOrlPack(const OrlPackParts& parts);

struct OrlSample {
  OrlPackParts pack;
  std::vector<std::uint32_t> faces;  // T*3 over the 24,049 vertices
  std::vector<float> uv;             // V*2
};
core::Expected<OrlSample> makeSampleOrl(const std::filesystem::path& ictFolder);

// <out>/sample-orl-bundle/: orl_pack.bin, scene.json (rig backend orl, the
// DNA's GUI controls as control_names in the board's .translateX/Y
// spelling, an arkit52 expression space), the head branch mesh
// (centimetres, with UV maps of options.uvRes) and, when options.decoders
// names a folder, the head's decoders (rig_dim: the 52 control names).
// options.schema1 does not apply (an ORL bundle is multi-region).
core::Expected<void> writeSampleOrlBundle(const std::filesystem::path& ictFolder, const std::filesystem::path& out,
                                          const SampleBundleOptions& options = {});

}  // namespace riglens::samples
