#include "riglens/core/character/orl_bundle_rig.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "riglens/core/base/json_reader.h"

namespace riglens::core {
namespace {

std::unordered_map<std::string_view, int> indexOf(const std::vector<std::string>& names) {
  std::unordered_map<std::string_view, int> index;
  for (std::size_t i = 0; i < names.size(); ++i) index.emplace(names[i], int(i));  // the first of a repeated name
  return index;
}

// DECODERS.md B1: the share of the bundle's names that must reach the DNA.
constexpr double kMinMatchedShare = 0.8;

}  // namespace

Expected<OrlControlMap> mapOrlControls(const Dna& dna, std::span<const std::string> names, std::string_view source,
                                       std::string_view pointer) {
  const auto gui = indexOf(dna.guiControlNames), raw = indexOf(dna.rawControlNames);
  OrlControlMap guiMap{DnaControlMode::Gui, {}, 0, {}}, rawMap{DnaControlMode::Raw, {}, 0, {}};
  for (const std::string& name : names) {
    const auto g = gui.find(orlDnaControlName(name));
    const auto r = raw.find(name);
    guiMap.dnaIndex.push_back(g == gui.end() ? -1 : g->second);
    rawMap.dnaIndex.push_back(r == raw.end() ? -1 : r->second);
    guiMap.matched += g != gui.end();
    rawMap.matched += r != raw.end();
    if (g == gui.end()) guiMap.unmatched.push_back(name);
    if (r == raw.end()) rawMap.unmatched.push_back(name);
  }
  OrlControlMap map = rawMap.matched > guiMap.matched ? std::move(rawMap) : std::move(guiMap);
  const auto needed = std::size_t(std::floor(kMinMatchedShare * double(names.size())));
  if (names.empty() || map.matched < needed)
    return errorAt(ErrorCode::Invalid, std::string(source), std::string(pointer),
                   std::to_string(map.matched) + " of the " + std::to_string(names.size()) +
                       " control names reach the DNA's " +
                       (map.mode == DnaControlMode::Gui ? "GUI controls" : "raw controls") + " (at least " +
                       std::to_string(std::max<std::size_t>(needed, 1)) + " must)" +
                       (map.unmatched.empty() ? "" : "; the first unknown is '" + map.unmatched.front() + "'"));
  return map;
}

Expected<std::unique_ptr<OrlBundleRig>> OrlBundleRig::create(std::shared_ptr<const OrlCharacter> character,
                                                             OrlControlMap map) {
  std::unique_ptr<OrlBundleRig> rig(new OrlBundleRig);
  auto poser = OrlPoser::create(*character);
  if (!poser) return poser.error();
  const Dna& dna = *character->dna;
  const std::size_t count = map.mode == DnaControlMode::Gui ? dna.guiControlNames.size() : dna.rawCount();
  for (int index : map.dnaIndex)
    if (index >= int(count))
      return makeError(ErrorCode::Invalid, "the control map names control " + std::to_string(index) + "; the DNA has " +
                                               std::to_string(count));
  rig->m_poser = std::move(poser).value();
  rig->m_values.assign(count, 0.0f);
  rig->m_map = std::move(map);
  rig->m_character = std::move(character);
  return rig;
}

Expected<void> OrlBundleRig::evaluate(std::span<const float> rig) {
  if (rig.size() > rigDim())
    return makeError(ErrorCode::Usage, "the rig vector holds " + std::to_string(rig.size()) +
                                           " values; the bundle names " + std::to_string(rigDim()) + " controls");
  std::fill(m_values.begin(), m_values.end(), 0.0f);
  for (std::size_t i = 0; i < rig.size(); ++i) {
    if (!std::isfinite(rig[i])) return makeError(ErrorCode::Usage, "the rig vector holds a non-finite value");
    // A name repeated in the bundle: the last one wins, as setting a control twice does.
    if (const int at = m_map.dnaIndex[i]; at >= 0) m_values[std::size_t(at)] = rig[i];
  }
  return m_poser->evaluate(m_values, m_map.mode);
}

Expected<std::vector<float>> OrlBundleRig::deformCpu(std::span<const float> rig) {
  if (auto ok = evaluate(rig); !ok) return ok.error();
  return orlDeform(*m_character->pack, jointOutputs(), channelWeights());
}

Expected<std::vector<float>> OrlBundleRig::rigVectorFor(std::span<const float> values, DnaControlMode mode) {
  std::span<const float> dnaValues = values;
  if (mode != m_map.mode) {
    if (mode == DnaControlMode::Raw)
      return makeError(ErrorCode::Usage,
                       "this bundle's decoders take the DNA's GUI controls; raw values cannot be mapped back to them");
    if (auto ok = m_poser->evaluate(values, DnaControlMode::Gui); !ok) return ok.error();
    dnaValues = m_poser->rig().controls().first(m_character->dna->rawCount());  // after GUI -> raw
  }
  std::vector<float> rig(rigDim(), 0.0f);
  for (std::size_t i = 0; i < rig.size(); ++i)
    if (const int at = m_map.dnaIndex[i]; at >= 0 && std::size_t(at) < dnaValues.size())
      rig[i] = dnaValues[std::size_t(at)];
  return rig;
}

Expected<std::vector<float>> OrlBundleRig::rigVectorFromJson(const nlohmann::json& doc, std::string_view source) {
  auto controls = orlControlsFromJson(*m_character->dna, doc, source);
  if (!controls) return controls.error();
  auto rig = rigVectorFor(controls->values, controls->mode);
  if (!rig) return errorAt(rig.error().code, std::string(source), "", rig.error().message);
  return rig;
}

}  // namespace riglens::core
