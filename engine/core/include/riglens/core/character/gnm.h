// GNM evaluation on the CPU (contract/CHARACTER.md section 2): the
// calibration reference for the GPU path. Metres throughout.
//
//   1 expression  p = neutral + sum_c (expr[c] * basisScale[c]) * basis[v][c]
//   2 gaze        per eye e (left, then right) on the updated p:
//                 p += eyeWeight[e][v] * (R_e (p - eye_e) - (p - eye_e))
//   3 neck seam   p += stitchLocal[v]
//   4 skinning    skin_j = jointWorld_j * inverse(restWorld_j) * bindTransform
//                 p' = sum_i w_i * skin_{idx_i} * p
//
// Zero coefficients are skipped (a typical ARKit-driven frame touches a few
// dozen of 383); the basis loop runs vertex-major over the active set only.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/character/aosrig.h"

namespace riglens::core {

// Steps 1-2: head-local vertices (V*3) before the seam and skinning. A
// shorter head_ext is zero-padded; a longer one is refused. `threads` splits
// the expression loop over vertex ranges (1: on the calling thread, 0: one
// per hardware thread); results are identical whatever the count.
Expected<std::vector<float>> gnmForward(const AosRigPack& pack, std::span<const float> headExt, unsigned threads = 1);

// Joint worlds for skinning, with overrides (rebuilt from rest on every call).
class GnmJointState {
 public:
  explicit GnmJointState(const AosRigPack& pack);

  // J*16 row-major worlds in the pack's joint order; refused on a wrong length
  // or a non-finite value.
  Expected<void> setJointWorlds(std::span<const float> rowMajor);
  // (name, w, x, y, z): from rest, local = inverse(parent rest) * rest, its
  // rotation post-multiplied by the override; worlds walked parent-first.
  // Unknown names are skipped; overrides do not accumulate across calls.
  void setJointOverrides(const std::vector<std::pair<std::string, glm::dquat>>& overrides);

  const std::vector<glm::dmat4>& worlds() const { return m_worlds; }
  // skin_j = world_j * inverse(restWorld_j) * bindTransform
  std::vector<glm::dmat4> skinMatrices() const;

 private:
  const AosRigPack& m_pack;
  std::vector<glm::dmat4> m_rest;
  std::vector<glm::dmat4> m_worlds;
};

// The whole path: gnmForward, the seam, skinning with `joints` (rest when null).
Expected<std::vector<float>> gnmPose(const AosRigPack& pack, std::span<const float> headExt,
                                     const GnmJointState* joints = nullptr, unsigned threads = 1);

// A joint-worlds file (`riglens-cli character pose --joint-worlds`): a JSON
// array of exactly `jointCount` row-major 4x4 matrices, 16 numbers each.
// Returns the J*16 floats setJointWorlds takes; refusals name the pointer.
Expected<std::vector<float>> jointWorldsFromJson(const nlohmann::json& doc, std::size_t jointCount,
                                                 std::string_view source);

// Row-major 16 floats -> column-major matrix.
glm::dmat4 fromRowMajor(const float* m);

}  // namespace riglens::core
