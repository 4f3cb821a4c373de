// A bundle's ORL rig as its decoders see it (contract/DECODERS.md B1): the
// decoders take the rig vector in the bundle's control order (rig_names.json
// or rig.control_names), and the same vector poses the head. Those names
// address the DNA's GUI controls ("CTRL_C_jaw.translateY", spelled ".ty" in
// the DNA) or its raw controls ("CTRL_expressions.jawOpen"); the layer with
// more matches wins (RAW only when strictly more), unmatched names are
// ignored, and fewer than 80% matched is refused.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/character/orl_character.h"

namespace riglens::core {

struct OrlControlMap {
  DnaControlMode mode = DnaControlMode::Gui;  // which of the DNA's control layers the names address
  std::vector<int> dnaIndex;                  // per bundle control: the DNA control it sets, or -1 (ignored)
  std::size_t matched = 0;
  std::vector<std::string> unmatched;  // for Problems
};

// Refused (naming `source` and `pointer`) when fewer than floor(0.8 N) of the N names match.
Expected<OrlControlMap> mapOrlControls(const Dna& dna, std::span<const std::string> names, std::string_view source,
                                       std::string_view pointer);

// The rig vector in the bundle's order -> joint outputs and channel weights
// (one DnaRig), and -> centimetres (the CPU deform). evaluate() allocates
// nothing; deformCpu() returns a fresh vertex array.
class OrlBundleRig {
 public:
  static Expected<std::unique_ptr<OrlBundleRig>> create(std::shared_ptr<const OrlCharacter> character,
                                                        OrlControlMap map);
  std::size_t rigDim() const { return m_map.dnaIndex.size(); }
  const OrlControlMap& map() const { return m_map; }
  const OrlCharacter& character() const { return *m_character; }

  // Refuses a vector longer than rigDim() or holding a non-finite value; shorter ones are zero-padded.
  Expected<void> evaluate(std::span<const float> rig);
  std::span<const float> jointOutputs() const { return m_poser->jointOutputs(); }
  std::span<const float> channelWeights() const { return m_poser->channelWeights(); }
  // The DNA-order values evaluate() handed the DNA, in map().mode.
  std::span<const float> dnaValues() const { return m_values; }
  Expected<std::vector<float>> deformCpu(std::span<const float> rig);

  // The rig vector for a viewer's values in the DNA's `mode` (one per GUI or
  // raw control, in its order): copied when the bundle's names address that
  // layer; GUI values reach a raw-named bundle through the DNA's GUI -> raw
  // table. Raw values for a GUI-named bundle cannot be mapped back: refused.
  Expected<std::vector<float>> rigVectorFor(std::span<const float> values, DnaControlMode mode);
  // A controls file (orlControlsFromJson: the DNA's GUI or raw names) as this bundle's rig vector.
  Expected<std::vector<float>> rigVectorFromJson(const nlohmann::json& doc, std::string_view source);

 private:
  OrlBundleRig() = default;
  std::shared_ptr<const OrlCharacter> m_character;
  OrlControlMap m_map;
  std::unique_ptr<OrlPoser> m_poser;
  std::vector<float> m_values;
};

}  // namespace riglens::core
