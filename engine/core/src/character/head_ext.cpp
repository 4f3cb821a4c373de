#include "riglens/core/character/head_ext.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

#include "riglens/core/base/json_reader.h"

namespace riglens::core {

std::map<std::string, CoeffRange> regionSlices(const HeadExtLayout& layout) {
  std::map<std::string, CoeffRange> out;
  int at = 0;
  for (const auto& r : layout.regions) {
    out[r.name] = {at, at + r.count};
    at += r.count;
  }
  return out;
}

std::vector<std::string> headExtNames(const HeadExtLayout& layout) {
  std::vector<std::string> names;
  for (const auto& r : layout.regions)
    for (int i = 0; i < r.count; ++i) {
      char suffix[16];
      std::snprintf(suffix, sizeof suffix, "_%03d", i);
      names.push_back(r.name + suffix);
    }
  for (const char* g : {"gaze_pitch_l", "gaze_yaw_l", "gaze_pitch_r", "gaze_yaw_r"})
    if (int(names.size()) < layout.dim) names.push_back(g);
  return names;
}

Expected<std::vector<float>> paddedHeadExt(std::span<const float> headExt, const HeadExtLayout& layout) {
  if (int(headExt.size()) > layout.dim)
    return makeError(ErrorCode::Usage, "head_ext has " + std::to_string(headExt.size()) +
                                           " values; the pack takes at most " + std::to_string(layout.dim));
  std::vector<float> controls(std::size_t(layout.dim), 0.0f);
  std::copy(headExt.begin(), headExt.end(), controls.begin());
  for (float c : controls)
    if (!std::isfinite(c)) return makeError(ErrorCode::Usage, "head_ext holds a non-finite value");
  return controls;
}

Expected<UnpackedHeadExt> unpackHeadExt(std::span<const float> headExt, const HeadExtLayout& layout) {
  if (int(headExt.size()) < layout.dim)
    return makeError(ErrorCode::Usage, "head_ext has " + std::to_string(headExt.size()) +
                                           " values, the layout declares " + std::to_string(layout.dim));
  UnpackedHeadExt out;
  out.expr.assign(headExt.begin(), headExt.begin() + layout.exprDim);
  out.gaze.assign(headExt.begin() + layout.exprDim, headExt.begin() + layout.dim);
  return out;
}

Expected<std::vector<float>> widenReducedHeadExt(std::span<const float> reduced, const HeadExtLayout& layout) {
  if (layout.reduced.empty()) return makeError(ErrorCode::Usage, "this pack declares no reduced view");
  std::size_t reducedExpr = 0;
  for (const auto& r : layout.reduced) reducedExpr += std::size_t(r.count);
  if (reduced.size() != reducedExpr + std::size_t(layout.gazeDim))
    return makeError(ErrorCode::Usage, "the reduced view has " + std::to_string(reduced.size()) + " values, expected " +
                                           std::to_string(reducedExpr + layout.gazeDim));
  std::vector<float> wide(std::size_t(layout.dim), 0.0f);
  const auto slices = regionSlices(layout);
  std::size_t at = 0;
  for (const auto& r : layout.reduced) {
    const CoeffRange range = slices.at(r.name);
    for (int i = 0; i < r.count && range.start + i < range.end; ++i)
      wide[std::size_t(range.start + i)] = reduced[at + std::size_t(i)];
    at += std::size_t(r.count);
  }
  for (int g = 0; g < layout.gazeDim; ++g) wide[std::size_t(layout.exprDim + g)] = reduced[at + std::size_t(g)];
  return wide;
}

Expected<std::vector<float>> controlsFromJson(const HeadExtLayout& layout, const nlohmann::json& doc,
                                              std::string_view source) {
  return guardRead(source, [&] {
    const JsonRef root(doc);
    if (root.isArray()) {
      // In the pack's order; shorter is zero-padded downstream, longer refused (setControls).
      if (root.size() > std::size_t(layout.dim))
        root.fail("holds " + std::to_string(root.size()) + " controls; the pack takes " + std::to_string(layout.dim));
      return root.floats(std::size_t(layout.dim));
    }
    if (!root.isObject()) root.failType("an array or an object of controls");
    const auto names = headExtNames(layout);
    std::unordered_map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < names.size(); ++i) index.emplace(names[i], i);
    std::vector<float> out(names.size(), 0.0f);
    for (const auto& [name, value] : root.members()) {
      const auto it = index.find(name);
      if (it == index.end()) value.fail("unknown control '" + name + "'");
      out[it->second] = value.toFloat();
    }
    return out;
  });
}

nlohmann::ordered_json controlsToJson(const HeadExtLayout& layout, std::span<const float> headExt) {
  nlohmann::ordered_json doc = nlohmann::ordered_json::object();
  const auto names = headExtNames(layout);
  for (std::size_t i = 0; i < names.size(); ++i) doc[names[i]] = i < headExt.size() ? double(headExt[i]) : 0.0;
  return doc;
}

std::array<glm::dquat, 2> gazeToEyeRotations(std::span<const float, 4> gaze) {
  std::array<glm::dquat, 2> out;
  for (int e = 0; e < 2; ++e) {
    const double hp = 0.5 * gaze[std::size_t(e * 2)], hy = 0.5 * gaze[std::size_t(e * 2 + 1)];
    const double cp = std::cos(hp), sp = std::sin(hp), cy = std::cos(hy), sy = std::sin(hy);
    out[std::size_t(e)] = glm::dquat(cp * cy, sp * cy, cp * sy, sp * sy);  // (w, x, y, z)
  }
  return out;
}

std::array<float, 4> gazeAt(std::span<const float, 6> eyePositions, glm::vec3 target) {
  std::array<float, 4> gaze{};
  for (std::size_t e = 0; e < 2; ++e) {
    const glm::dvec3 eye(eyePositions[e * 3], eyePositions[e * 3 + 1], eyePositions[e * 3 + 2]);
    const glm::dvec3 towards = glm::dvec3(target) - eye;
    const double length = glm::length(towards);
    if (!(length > 0) || !std::isfinite(length)) continue;
    const glm::dvec3 d = towards / length;
    gaze[e * 2] = float(std::atan2(-d.y, d.z));
    gaze[e * 2 + 1] = float(std::asin(std::clamp(d.x, -1.0, 1.0)));
  }
  return gaze;
}

}  // namespace riglens::core
