// One branch's decoder chain (contract/DECODERS.md A1-A4): trunk -> geom on
// a rig change, plucker + appr on a view change, with code / zpack / geom_uv
// cached between them. The optional-I/O rule decides per session whether
// zpack is fed; fused branches have no trunk (geom emits code); fp16 siblings
// are preferred and fall back to fp32 with a note. Each run checks the shapes
// the contract fixes and refuses the others naming file and tensor.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "riglens/core/base/diagnostic.h"
#include "riglens/core/base/expected.h"
#include "riglens/core/decoded/decoder_session.h"
#include "riglens/core/decoded/decoder_spec.h"

namespace riglens::core {

struct Bundle;

struct SessionRuns {
  int trunk = 0, geom = 0, appr = 0;
  double trunkMs = 0, geomMs = 0, apprMs = 0;  // the last run of each
};

class BranchDecoders {
 public:
  // Opens the branch's graphs from the bundle folder. fp16 siblings are
  // tried first when preferFp16; a sibling the runtime refuses is noted in
  // `notes` and the fp32 graph is opened instead.
  static Expected<BranchDecoders> open(const Bundle& bundle, const DecoderBranch& branch, const DecoderOpener& opener,
                                       bool preferFp16, Diagnostics& notes);

  // trunk(rig) -> geom(code[, zpack]); the rig vector is trimmed or
  // zero-padded at the tail to the branch's rig_dim. Drops the cached
  // colour (it was decoded from the old code).
  Expected<void> runGeometry(std::span<const float> rig);
  // appr(code, plucker[, zpack]) against the cached code; plucker is
  // [6, uv_res, uv_res] channel-major.
  Expected<void> runAppearance(std::vector<float> plucker);  // taken, not copied: it becomes the feed

  bool hasGeometry() const { return !m_geomUv.data.empty(); }
  const std::vector<float>& geomUv() const { return m_geomUv.data; }    // 11 x HW
  const std::vector<float>& colorUv() const { return m_colorUv.data; }  // 3 x HW
  const DecoderBranch& spec() const { return m_spec; }
  const SessionRuns& runs() const { return m_runs; }
  bool geomIsFp16() const { return m_geomFp16; }
  bool apprIsFp16() const { return m_apprFp16; }
  bool regionFactored() const { return m_regionFactored; }  // the trunk emits zpack
  std::uintmax_t weightBytes() const;
  std::vector<std::string> sessionFiles() const;

 private:
  BranchDecoders() = default;
  Expected<std::vector<Tensor>> runSession(DecoderSession& session, std::vector<NamedTensor> feeds,
                                           std::vector<std::string> outputs, const char* role);

  DecoderBranch m_spec;
  std::unique_ptr<DecoderSession> m_trunk, m_geom, m_appr;
  bool m_geomFp16 = false, m_apprFp16 = false, m_regionFactored = false;
  Tensor m_code, m_zpack, m_geomUv, m_colorUv;
  SessionRuns m_runs;
};

}  // namespace riglens::core
