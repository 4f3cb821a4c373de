#include "riglens/core/character/expressions.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "riglens/core/character/character_tables.h"
#include "riglens/core/character/head_ext.h"

namespace riglens::core {
namespace {

using nlohmann::json;

const json& mhTable() {
  static const json table = json::parse(tables::arkit_to_mh);
  return table;
}

int arkitIndex(const std::string& name) {
  const auto& names = arkitNames();
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : int(it - names.begin());
}

}  // namespace

const std::vector<std::string>& arkitNames() {
  static const std::vector<std::string> names = json::parse(tables::arkit52).get<std::vector<std::string>>();
  return names;
}

const std::vector<std::string>& mhRigNames() {
  static const std::vector<std::string> names = json::parse(tables::mh188).get<std::vector<std::string>>();
  return names;
}

void arkitToMh(std::span<const float> a, std::span<float, kMhControlCount> out) {
  // Compiled once: (out, arkit, gain) triples.
  struct Term {
    int out, arkit;
    float gain;
  };
  static const std::vector<Term> terms = [] {
    std::vector<Term> t;
    for (const auto& entry : mhTable()["linear"])
      for (const auto& term : entry["terms"])
        t.push_back({entry["out"].get<int>(), term["arkit"].get<int>(), term["gain"].get<float>()});
    return t;
  }();
  std::fill(out.begin(), out.end(), 0.0f);
  const auto at = [&a](int i) { return std::size_t(i) < a.size() ? a[std::size_t(i)] : 0.0f; };
  for (const Term& t : terms) out[std::size_t(t.out)] += t.gain * at(t.arkit);
  // The lips-together corrective: j = JawOpen, c = MouthClose.
  const float j = at(17), c = at(18);
  const float val = j > 0 ? std::min(1.0f, c / j) : c;
  for (int o : {73, 74, 147, 148}) out[std::size_t(o)] = val;
}

Expected<std::vector<int>> gatherFromRigNames(std::span<const std::string> rigNames) {
  if (rigNames.empty()) return makeError(ErrorCode::Invalid, "rig_names is empty");
  const auto& mh = mhRigNames();
  std::vector<int> gather;
  for (const auto& name : rigNames) {
    const auto it = std::find(mh.begin(), mh.end(), name);
    if (it == mh.end())
      return makeError(ErrorCode::Invalid, "rig name '" + name + "' is not one of the 188 MetaHuman controls");
    gather.push_back(int(it - mh.begin()));
  }
  return gather;
}

void arkitToRig(std::span<const float> arkit52, std::span<const int> gather, std::span<float> out,
                std::span<const float> rest, std::span<const std::pair<float, float>> range) {
  std::array<float, kMhControlCount> mh{};
  arkitToMh(arkit52, mh);
  const bool useRest = rest.size() == gather.size();
  for (std::size_t i = 0; i < gather.size() && i < out.size(); ++i) {
    float v = (useRest ? rest[i] : 0.0f) + mh[std::size_t(gather[i])];
    if (range.size() == gather.size())
      v = std::clamp(v, range[i].first, range[i].second);
    else if (range.size() == 1)
      v = std::clamp(v, range[0].first, range[0].second);
    out[i] = v;
  }
}

ArkitToGnmMap ArkitToGnmMap::create(const HeadExtLayout& layout, Options options) {
  static const json table = json::parse(tables::arkit_to_gnm_default);
  ArkitToGnmMap map;
  map.m_dim = layout.dim;
  map.m_clamp = options.clamp;
  const auto slices = regionSlices(layout);
  for (const auto& [name, terms] : table["table"].items()) {
    const int a = arkitIndex(name);
    for (const auto& t : terms) {
      const std::string region = t["region"];
      const int index = t["index"];
      const auto it = slices.find(region);
      if (a < 0 || it == slices.end() || it->second.start + index >= it->second.end) {
        map.m_dropped.push_back(name + " -> " + region + "[" + std::to_string(index) + "]");
        continue;
      }
      map.m_terms.push_back({a, it->second.start + index, t["gain"].get<float>()});
    }
  }
  if (options.gaze && layout.gazeDim >= 4) {
    const char* names[8] = {"EyeLookDownLeft",  "EyeLookUpLeft",  "EyeLookOutLeft", "EyeLookInLeft",
                            "EyeLookDownRight", "EyeLookUpRight", "EyeLookInRight", "EyeLookOutRight"};
    bool all = true;
    for (int i = 0; i < 8; ++i) all &= (map.m_look[std::size_t(i)] = arkitIndex(names[i])) >= 0;
    if (all) map.m_gazeStart = layout.exprDim;
  }
  return map;
}

void ArkitToGnmMap::apply(std::span<const float> a, std::span<float> out) const {
  std::fill(out.begin(), out.begin() + std::min<std::size_t>(out.size(), std::size_t(m_dim)), 0.0f);
  for (const Term& t : m_terms)            // clamped after every accumulation step, in table order
    if (std::size_t(t.slot) < out.size())  // a shorter `out` than the layout keeps what fits
      out[std::size_t(t.slot)] =
          std::clamp(out[std::size_t(t.slot)] + a[std::size_t(t.arkit)] * t.gain, -m_clamp, m_clamp);
  if (m_gazeStart >= 0 && out.size() >= std::size_t(m_gazeStart + 4)) {
    const auto w = [&](int i) { return a[std::size_t(m_look[std::size_t(i)])]; };
    const float s = float(kGazeFullScale);
    out[std::size_t(m_gazeStart)] = (w(0) - w(1)) * s;
    out[std::size_t(m_gazeStart + 1)] = (w(2) - w(3)) * s;
    out[std::size_t(m_gazeStart + 2)] = (w(4) - w(5)) * s;
    out[std::size_t(m_gazeStart + 3)] = (w(6) - w(7)) * s;
  }
}

const char* expressionKindName(ExpressionKind kind) {
  switch (kind) {
    case ExpressionKind::Arkit52: return "arkit52";
    case ExpressionKind::Gnm: return "gnm";
    case ExpressionKind::Gnm68: return "gnm68";
  }
  return "gnm";
}

ExpressionSpace gnmExpressionSpace(const HeadExtLayout& layout, bool withArkitMap) {
  ExpressionSpace space;
  space.kind = ExpressionKind::Gnm;
  space.dim = layout.dim;
  space.names = headExtNames(layout);
  int at = 0;
  for (const auto& r : layout.regions) {
    space.segments.push_back({r.name, at, r.count});
    at += r.count;
  }
  space.segments.push_back({"gaze", layout.exprDim, layout.gazeDim});
  if (withArkitMap) space.arkitMap = ArkitToGnmMap::create(layout);
  return space;
}

Expected<std::vector<float>> toRigVector(const ExpressionSpace& space, ExpressionKind input, std::span<const float> v,
                                         const HeadExtLayout* layout) {
  if (input == ExpressionKind::Arkit52) {
    if (v.size() < kArkitCount)
      return makeError(ErrorCode::Usage, "an ARKit frame needs 52 weights, got " + std::to_string(v.size()));
    if (space.kind == ExpressionKind::Arkit52) return std::vector<float>(v.begin(), v.begin() + kArkitCount);
    if (!space.arkitMap)
      return makeError(ErrorCode::Usage,
                       std::string("refused: an ARKit-52 frame sent to a ") + expressionKindName(space.kind) +
                           " expression space that has no arkit map; the spaces are unrelated and a silent "
                           "reinterpretation would move the face wrongly");
    std::vector<float> out(std::size_t(space.dim), 0.0f);
    space.arkitMap->apply(v, out);
    return out;
  }
  if (space.kind == ExpressionKind::Arkit52)
    return makeError(ErrorCode::Usage, "refused: a GNM vector sent to an ARKit-52 expression space");
  if (input == ExpressionKind::Gnm68) {
    if (!layout) return makeError(ErrorCode::Usage, "widening the reduced view needs the pack's layout");
    return widenReducedHeadExt(v, *layout);
  }
  if (int(v.size()) > space.dim)
    return makeError(ErrorCode::Usage, "the rig vector has " + std::to_string(v.size()) + " values; the space takes " +
                                           std::to_string(space.dim));
  std::vector<float> out(std::size_t(space.dim), 0.0f);
  std::copy(v.begin(), v.end(), out.begin());
  return out;
}

}  // namespace riglens::core
