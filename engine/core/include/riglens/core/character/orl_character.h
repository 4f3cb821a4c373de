// An ORL character as the viewer and the CLI drive it: the pack
// (ORLPACK1) and the DNA inside it, checked against each other, and the
// per-frame step controls -> DnaRig -> joint outputs + channel weights that
// the deform (CPU orlDeform, or render::GpuOrl) takes.
#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>

#include "riglens/core/base/expected.h"
#include "riglens/core/character/orl_pack.h"
#include "riglens/core/dna/dna.h"
#include "riglens/core/dna/dna_rig.h"

namespace riglens::core {

struct OrlCharacter {
  std::shared_ptr<const OrlPack> pack;
  std::shared_ptr<const Dna> dna;
  std::size_t packBytes = 0;  // the file's size, held while open
};

// Reads the pack and its head_behavior.dna; refused when the DNA's joints or
// channels do not match the pack's (they index the same arrays).
Expected<OrlCharacter> loadOrlCharacter(const std::filesystem::path& packPath);

// One evaluation per frame, allocation-free after construction: `values` are
// the DNA's GUI controls (Gui) or raw controls (Raw) in its order; fewer are
// zero-padded, more are refused.
class OrlPoser {
 public:
  static Expected<std::unique_ptr<OrlPoser>> create(const OrlCharacter& character);
  Expected<void> evaluate(std::span<const float> values, DnaControlMode mode);
  std::span<const float> jointOutputs() const { return m_rig->jointOutputs(); }
  std::span<const float> channelWeights() const { return m_rig->blendShapeOutputs(); }
  const DnaRig& rig() const { return *m_rig; }

 private:
  explicit OrlPoser(std::unique_ptr<DnaRig> rig) : m_rig(std::move(rig)) {}
  std::unique_ptr<DnaRig> m_rig;
};

// A controls file for an ORL character (`render --controls`, the viewer's
// Load/Save Controls): {"name": value, ...} naming the DNA's GUI controls, or
// its raw controls; mixing the two or an unknown name is refused, naming it.
struct OrlControls {
  DnaControlMode mode = DnaControlMode::Gui;
  std::vector<float> values;  // every GUI (or raw) control, in the DNA's order
};
Expected<OrlControls> orlControlsFromJson(const Dna& dna, const nlohmann::json& doc, std::string_view source);
nlohmann::ordered_json orlControlsToJson(const Dna& dna,
                                         const OrlControls& controls);  // the non-zero values, in the DNA's order

// A board control as the DNA spells it: a trailing .translateX/Y/Z becomes
// .tx/.ty/.tz ("CTRL_C_jaw.translateY" -> "CTRL_C_jaw.ty"); others unchanged.
std::string orlDnaControlName(std::string_view boardName);

// ARKit-52 weights -> the DNA's GUI controls: the ARKit -> MetaHuman board
// table (arkitToMh), each board control ("CTRL_C_jaw.translateY") onto the
// DNA's GUI control of the same widget and axis ("CTRL_C_jaw.ty"); board
// controls the DNA lacks are dropped. Returns one value per GUI control.
std::vector<float> orlGuiFromArkit(const Dna& dna, std::span<const float> arkit52);

// The rest pose (every output zero), in centimetres.
Expected<std::vector<float>> orlRestPose(const OrlPack& pack);

}  // namespace riglens::core
