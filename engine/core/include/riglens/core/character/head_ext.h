// head_ext: the packed GNM rig vector (contract/CHARACTER.md section 2):
// exprDim expression coefficients tiled by region in declaration order, then
// gazeDim gaze angles [pitch_L, yaw_L, pitch_R, yaw_R] (radians; pitch > 0
// looks down about +X, yaw > 0 looks toward character-left about +Y).
#pragma once

#include <array>
#include <glm/gtc/quaternion.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/character/aosrig.h"

namespace riglens::core {

struct CoeffRange {
  int start = 0, end = 0;  // half-open
};

// Each region's coefficient range; gaze is not included.
std::map<std::string, CoeffRange> regionSlices(const HeadExtLayout& layout);

// <region>_000 ... per coefficient, then gaze_pitch_l, gaze_yaw_l, gaze_pitch_r, gaze_yaw_r.
std::vector<std::string> headExtNames(const HeadExtLayout& layout);

struct UnpackedHeadExt {
  std::vector<float> expr;  // exprDim
  std::vector<float> gaze;  // gazeDim
};

// Splits one frame; a shorter vector is refused, a longer one's tail ignored.
Expected<UnpackedHeadExt> unpackHeadExt(std::span<const float> headExt, const HeadExtLayout& layout);

// One frame of controls as the GNM evaluators take it (CPU gnmForward, the
// GPU pass): at most layout.dim values, all finite, zero-padded to dim.
Expected<std::vector<float>> paddedHeadExt(std::span<const float> headExt, const HeadExtLayout& layout);

// The reduced ML view (sum of layout.reduced counts + gaze) widened to dim:
// each region's reduced coefficients fill the start of its range, the rest
// is zero; gaze copied. Refused when the layout has no reduced view or the
// length is wrong.
Expected<std::vector<float>> widenReducedHeadExt(std::span<const float> reduced, const HeadExtLayout& layout);

// Controls from JSON: an array in the pack's control order, or an object of
// control name -> value (names from headExtNames); unknown names and
// non-numbers are refused.
Expected<std::vector<float>> controlsFromJson(const HeadExtLayout& layout, const nlohmann::json& controls,
                                              std::string_view source);
// The inverse: {name: value} for every control of the layout, in its order
// (what controlsFromJson reads back, and `riglens-cli render --controls` takes).
nlohmann::ordered_json controlsToJson(const HeadExtLayout& layout, std::span<const float> headExt);

// q = qx(pitch) * qy(yaw) per eye: (w,x,y,z) = (cp*cy, sp*cy, cp*sy, sp*sy)
// of the half angles. Left, then right.
std::array<glm::dquat, 2> gazeToEyeRotations(std::span<const float, 4> gaze);

// The gaze [pitch_L, yaw_L, pitch_R, yaw_R] that turns each eye's rest
// direction (+Z, the face's forward) towards `target` (head space, the pack's
// units): the inverse of gazeToEyeRotations for that direction, i.e.
// yaw = asin(d.x), pitch = atan2(-d.y, d.z) with d the unit vector from the
// eye centre. A target at an eye centre leaves that eye's angles at 0.
std::array<float, 4> gazeAt(std::span<const float, 6> eyePositions, glm::vec3 target);

}  // namespace riglens::core
