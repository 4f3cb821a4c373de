// Character bundles (contract/CHARACTER.md section 4): a folder with
// scene.json (multi-region) or the single-region schema 1 (mesh.json +
// rig_names.json). loadBundle reads the manifest, orders the branches (head,
// body, teeth, clothes, eyes, then the rest by name), takes or derives the
// engine's `rig` and `expression_space` blocks, reads each branch mesh
// (mesh_<b>.json viewing mesh_<b>.bin), and lists every file the manifest
// names: eager ones (manifest, meshes, rig pack, names) are read and count as
// resident; decoders (ONNX, with _fp16 siblings) are listed, sized and
// described (DecoderBranch) for engine/decode to load.
#pragma once

#include <filesystem>
#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "riglens/core/base/diagnostic.h"
#include "riglens/core/base/expected.h"
#include "riglens/core/character/aosrig.h"
#include "riglens/core/character/expressions.h"
#include "riglens/core/character/orl_bundle_rig.h"
#include "riglens/core/decoded/decoder_spec.h"

namespace riglens::core {

struct BundleFile {
  std::string name;  // bundle-relative
  std::string role;  // manifest, mesh, pack, names, decoder, statics, other
  bool eager = true;
  bool present = false;
  std::uintmax_t bytes = 0;
};

struct BranchMesh {
  std::string branch;
  std::size_t vertexCount = 0, faceCount = 0;
  int uvRes = 0;
  std::vector<std::uint32_t> faces;  // F*3
  std::vector<float> neutral;        // V*3 (bundle units)
  // The UV maps the lift reads (H = W = uvRes, texel p = y*W + x, top row
  // first); empty when the mesh file has none. Checked at load: indices in
  // range, shapes (H,W,3) / (H,W).
  std::vector<std::int32_t> idxim;  // HW*3 vertex ids (negative wraps: id + V)
  std::vector<float> barim;         // HW*3 barycentric weights
  std::vector<std::int32_t> triim;  // HW face ids (< 0: no face)
  std::vector<std::uint8_t> valid;  // HW (0: the texel is not lifted)
  bool hasUvMaps() const { return !triim.empty(); }
};

struct Bundle {
  std::filesystem::path folder;
  nlohmann::json scene;  // as read (schema 1: synthesised from mesh.json)
  int schema = 2;
  std::string subject;
  double worldScale = 1.0;
  glm::dvec3 worldOffset{0.0}, worldRotationDeg{0.0};
  double rigRangeLo = -3, rigRangeHi = 3;
  int rigDim = 0;
  std::vector<std::string> branches;  // in engine order
  nlohmann::json rig;                 // {backend, pack, control_names, vertex_count}
  bool rigDerived = false;
  ExpressionSpace expression;
  bool expressionDerived = false;
  std::vector<BranchMesh> meshes;
  std::vector<DecoderBranch> decoders;  // branches with decoders, engine order; gaze-conditioned ones skipped
  double momentScale = 0.0;             // the plucker moment scale (A5)
  const BranchMesh* mesh(const std::string& branch) const;
  std::optional<AosRigPack> gnmPack;
  // backend orl: the pack and its DNA, and how rig.control_names (the
  // decoders' order; the DNA's GUI names when the bundle gives none) reach the DNA.
  std::shared_ptr<const OrlCharacter> orl;
  OrlControlMap orlControls;
  std::vector<BundleFile> files;
  std::uintmax_t residentBytes = 0;
  Diagnostics problems;  // missing files and other non-fatal findings
};

Expected<Bundle> loadBundle(const std::filesystem::path& folder);

}  // namespace riglens::core
