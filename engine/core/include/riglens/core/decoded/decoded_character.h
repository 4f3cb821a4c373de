// A bundle's decoded character (contract/DECODERS.md A1-A11) without the
// GPU: every drawable branch's decoder chain, its calibration (rig space ->
// bundle space), its sink slots, and the re-run policy:
//   rig changed            -> trunk -> geom -> appr (full pass)
//   only the camera moved  -> plucker + appr (geom cached)
//   nothing changed        -> nothing.
// Posing is the caller's (the GNM or ORL pass on the GPU, poseRigCpu on the CPU); the
// lift is uv_lift (CPU) or engine/render's GpuDecodedLift. Not thread-safe:
// one thread decodes (the viewer's decode worker, or the CLI's main thread).
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "riglens/core/base/bounds.h"
#include "riglens/core/base/diagnostic.h"
#include "riglens/core/base/expected.h"
#include "riglens/core/character/bundle.h"
#include "riglens/core/character/orl_shell.h"
#include "riglens/core/decoded/branch_decoders.h"
#include "riglens/core/decoded/calibration.h"
#include "riglens/core/decoded/plucker.h"
#include "riglens/core/decoded/uv_lift.h"

namespace riglens::core {

struct DecodedOptions {
  bool preferFp16 = true;
};

enum class DecodePass { None, Appearance, Full };
const char* decodePassName(DecodePass pass);

// What a lift needs of one branch, without its decoder sessions (the GPU
// lift is built from these on the render thread). `mesh` points into the
// character's bundle, which the holder keeps alive.
struct BranchLiftSpec {
  std::string name;
  const BranchMesh* mesh = nullptr;
  LiftScale scale;
  LiftPlacement placement;
  bool rigged = false;
  VertexTransform transform;
  std::shared_ptr<const OrlShell> shell;  // an ORL shell branch: its vertices come from the joints, not the skin
};

// One decode's results, copied out of the sessions so another thread can
// lift them while the next decode runs: per branch, geom_uv (only after a
// full pass; null otherwise: the lift keeps the last one) and color_uv.
struct DecodedOutputs {
  DecodePass pass = DecodePass::None;
  std::vector<float> rig;  // the rig vector this decode ran for (the lift poses with it)
  // Which full pass the geometry comes from (grows with each one): a
  // consumer that skipped a decode (latest-only) carries the last geometry
  // forward, and a lift uploads it only when this changed.
  std::uint64_t geometryId = 0;
  std::vector<std::shared_ptr<const std::vector<float>>> geom, color;
  std::vector<SessionRuns> runs;
};

// Whether a decode's maps fit the lift's branches: as many branches, and
// each map present the size of its branch's UV grid (11 or 3 channels of
// uv_res^2); `branch(i)` is the lift's spec of branch i.
template <class SpecOf>
Expected<void> checkDecodedOutputs(const DecodedOutputs& out, std::size_t branches, SpecOf branch);

struct DecodedBranch {
  BranchDecoders decoders;
  const BranchMesh* mesh = nullptr;  // in the character's bundle
  LiftPlacement placement;
  bool rigged = false;  // false: the rig was dropped (or there is none); the mesh's neutral is lifted
  Calibration calibration;
  std::shared_ptr<const OrlShell> shell;  // an ORL bundle's eyes or teeth (shell mode), bound rigidly
};

// What the bundle's rig (GNM or ORL) makes of one rig vector on the CPU: the
// skinned head (GNM metres, ORL centimetres) and, for ORL, the joints'
// outputs the shell branches follow.
struct RigCpuPose {
  std::vector<float> vertices;
  std::vector<float> jointOutputs;
};
Expected<RigCpuPose> poseRigCpu(const Bundle& bundle, std::span<const float> rigVector);
// How many values the bundle's rig takes (GNM head_ext, or the ORL control names).
std::size_t rigVectorSize(const Bundle& bundle);
// A controls file as the bundle's rig vector: GNM, controlsFromJson (an array
// or {name: value} of head_ext); ORL, {name: value} of the DNA's GUI or raw
// controls, carried into the bundle's control order (OrlBundleRig).
Expected<std::vector<float>> readRigVector(const Bundle& bundle, const std::filesystem::path& file);

// A11's frame of a bundle's decoded branches (those with decoders and a
// mesh): the union of their neutral bounds, scaled and offset into the scene
// (the rotation is ignored, as the contract does). Empty when there are none.
Bounds decodedBounds(const Bundle& bundle);

class DecodedCharacter {
 public:
  // Opens every non-gaze branch that has decoders and a mesh with UV maps,
  // calibrates it against the bundle's rig (GNM, or ORL: the head skinned,
  // eyes and teeth as shells in the head's frame) at the reference rig, and
  // allocates its slots. Findings (fp16 fallbacks, dropped rigs, skipped
  // branches, the calibration) go to `notes`. Refuses a bundle with no
  // decodable branch.
  static Expected<std::unique_ptr<DecodedCharacter>> open(std::shared_ptr<const Bundle> bundle,
                                                          const DecoderOpener& opener, DecodedOptions options,
                                                          Diagnostics& notes);

  // Runs what changed since the last call (the first call is a full pass).
  Expected<DecodePass> decode(std::span<const float> rigVector, const PluckerCamera& camera);

  // The vertices a branch's lift reads, for the rig's posed output (V*3 in
  // the rig's units; an ORL shell branch follows the joint outputs instead):
  // calibrated when the branch is rigged, else the neutral.
  std::vector<float> liftVertices(std::size_t branch, std::span<const float> rigOutput,
                                  std::span<const float> jointOutputs = {}) const;
  // Both lift passes on the CPU for every branch, into `sink` (capacity()).
  void liftCpu(std::span<const float> rigOutput, SplatSink& sink, std::span<const float> jointOutputs = {}) const;

  Bounds bounds() const { return decodedBounds(*m_bundle); }

  std::vector<BranchLiftSpec> liftSpecs() const;
  // The current decode's results (call after decode()).
  DecodedOutputs outputs(DecodePass pass) const;

  const Bundle& bundle() const { return *m_bundle; }
  std::shared_ptr<const Bundle> sharedBundle() const { return m_bundle; }
  const std::vector<DecodedBranch>& branches() const { return m_branches; }
  std::uint32_t capacity() const { return m_capacity; }
  const std::vector<float>& referenceRig() const { return m_referenceRig; }  // the rig vector of the first decode
  const BundlePlacement& placement() const { return m_placement; }
  std::uintmax_t weightBytes() const;

 private:
  DecodedCharacter() = default;
  void calibrateBranch(DecodedBranch& b, const RigCpuPose& reference, const std::string& source, Diagnostics& notes);
  std::optional<VertexTransform> m_baseFrame;  // the first rigged branch's fit, lent to shell branches
  std::shared_ptr<const Bundle> m_bundle;
  std::vector<DecodedBranch> m_branches;
  std::uint32_t m_capacity = 0;
  std::vector<float> m_referenceRig;
  BundlePlacement m_placement;
  std::vector<float> m_lastRig;
  PluckerCamera m_lastCamera;
  std::uint64_t m_geometryId = 0;
  bool m_decoded = false;
};

template <class SpecOf>
Expected<void> checkDecodedOutputs(const DecodedOutputs& out, std::size_t branches, SpecOf branch) {
  if (out.geom.size() != branches || out.color.size() != branches)
    return makeError(ErrorCode::Invalid, "the decode has " + std::to_string(out.geom.size()) + " branches, the lift " +
                                             std::to_string(branches));
  for (std::size_t i = 0; i < branches; ++i) {
    const BranchLiftSpec& b = branch(i);
    const std::size_t hw = std::size_t(b.mesh->uvRes) * std::size_t(b.mesh->uvRes);
    if (out.geom[i] && out.geom[i]->size() != 11 * hw)
      return makeError(ErrorCode::Invalid, b.name + ": geom_uv holds " + std::to_string(out.geom[i]->size()) +
                                               " floats, the lift needs " + std::to_string(11 * hw));
    if (out.color[i] && out.color[i]->size() != 3 * hw)
      return makeError(ErrorCode::Invalid, b.name + ": color_uv holds " + std::to_string(out.color[i]->size()) +
                                               " floats, the lift needs " + std::to_string(3 * hw));
  }
  return {};
}

}  // namespace riglens::core
