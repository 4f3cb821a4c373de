// What a bundle's manifest says about one decoded branch
// (contract/DECODERS.md A1, A3, A4, A7): its ONNX files (trunk, geom, appr and
// their fp16 siblings), whether it is fused, its uv_res and rig_dim, the
// scale map's numbers with the contract's defaults, and its neutral-rig
// presets. bundle.cpp fills these; the decoder chain and the lift read them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace riglens::core {

// Lift pass 1's scale map (A7), as the contract's dims uniform carries it.
struct LiftScale {
  float scaleLogBias = 0.0f;
  float scaleLogMax = 1e30f;  // +inf is written as 1e30
  float triKappa = 0.0f;      // tri_size_cap; 0 = the triangle bound is off
  float sliverQMin = 0.0f;    // sliver_min_quality (only scales the bound; A8)
  bool bounded = false;       // sigma_max > 0
  float logSigmaMax = 0.0f;   // ln(sigma_max) when bounded
  float scaleOffset = 0.0f;   // sigma_offset when bounded, else scale_log_bias
};

struct DecoderBranch {
  std::string name;
  bool fused = false;              // no trunk: geom takes rig_params and emits code
  std::string trunk;               // bundle-relative; empty when fused
  std::string geom, appr;          // bundle-relative fp32 graphs
  std::string geomFp16, apprFp16;  // siblings present in the folder, else empty
  int uvRes = 0;
  int rigDim = 0;
  LiftScale scale;
  float uvErode = 0.0f;    // declared, not applied on this path (A7)
  std::string rigPresets;  // .npy whose row 0 is the neutral rig, or empty
};

// "geom.onnx" -> "geom_fp16.onnx"; idempotent; empty for a non-.onnx name (A3).
std::string fp16SiblingName(const std::string& name);

}  // namespace riglens::core
