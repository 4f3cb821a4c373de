#include "riglens/core/character/orl_character.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/character/expressions.h"
#include "riglens/core/dna/dna_reader.h"

namespace riglens::core {

Expected<OrlCharacter> loadOrlCharacter(const std::filesystem::path& path) {
  auto bytes = readFileBytes(path);
  if (!bytes) return bytes.error();
  auto pack = parseOrlPack(*bytes, path.string());
  if (!pack) return pack.error();
  const std::string member = path.string() + "#" + kOrlDnaMember;
  if (pack->behaviorDna.empty())
    return errorAt(ErrorCode::Invalid, path.string(), "", std::string("the pack has no ") + kOrlDnaMember + " member");
  auto dna = readDna(pack->behaviorDna, member);
  if (!dna) return dna.error();
  if (dna->jointCount() != pack->jointCount)
    return errorAt(ErrorCode::Invalid, member, "",
                   "the DNA drives " + std::to_string(dna->jointCount()) + " joints; the pack skins " +
                       std::to_string(pack->jointCount));
  if (pack->channelCount && dna->blendShapeCount() != pack->channelCount)
    return errorAt(ErrorCode::Invalid, member, "",
                   "the DNA has " + std::to_string(dna->blendShapeCount()) + " blendshape channels; the pack has " +
                       std::to_string(pack->channelCount));
  OrlCharacter c;
  c.packBytes = bytes->size();
  c.pack = std::make_shared<const OrlPack>(std::move(pack).value());
  c.dna = std::make_shared<const Dna>(std::move(dna).value());
  return c;
}

Expected<std::unique_ptr<OrlPoser>> OrlPoser::create(const OrlCharacter& character) {
  auto rig = DnaRig::create(character.dna);
  if (!rig) return rig.error();
  return std::unique_ptr<OrlPoser>(new OrlPoser(std::move(rig).value()));
}

Expected<void> OrlPoser::evaluate(std::span<const float> values, DnaControlMode mode) {
  DnaRig& rig = *m_rig;
  std::span<float> target = mode == DnaControlMode::Gui ? rig.guiControls() : rig.rawControls();
  if (values.size() > target.size())
    return makeError(ErrorCode::Usage, "the controls hold " + std::to_string(values.size()) +
                                           " values; the DNA takes " + std::to_string(target.size()) +
                                           (mode == DnaControlMode::Gui ? " GUI controls" : " raw controls"));
  for (float v : values)
    if (!std::isfinite(v)) return makeError(ErrorCode::Usage, "the controls hold a non-finite value");
  std::fill(target.begin(), target.end(), 0.0f);
  std::copy(values.begin(), values.end(), target.begin());
  if (mode == DnaControlMode::Gui) rig.mapGuiToRaw();
  rig.calculate();
  return {};
}

Expected<OrlControls> orlControlsFromJson(const Dna& dna, const nlohmann::json& doc, std::string_view source) {
  return guardRead(source, [&] {
    const JsonRef root(doc);
    root.object();
    OrlControls out;
    bool sawGui = false, sawRaw = false;
    for (const auto& [name, value] : doc.items()) {
      const JsonRef ref = root[name];
      const auto gui = std::find(dna.guiControlNames.begin(), dna.guiControlNames.end(), name);
      const auto raw = std::find(dna.rawControlNames.begin(), dna.rawControlNames.end(), name);
      if (gui == dna.guiControlNames.end() && raw == dna.rawControlNames.end())
        ref.fail("'" + name + "' is neither a GUI nor a raw control of the DNA");
      (gui != dna.guiControlNames.end() ? sawGui : sawRaw) = true;
      if (sawGui && sawRaw) ref.fail("the file mixes GUI and raw controls; name one kind");
    }
    out.mode = sawRaw ? DnaControlMode::Raw : DnaControlMode::Gui;
    const auto& names = sawRaw ? dna.rawControlNames : dna.guiControlNames;
    out.values.assign(names.size(), 0.0f);
    for (const auto& [name, value] : doc.items())
      out.values[std::size_t(std::find(names.begin(), names.end(), name) - names.begin())] = root[name].toFloat();
    return out;
  });
}

nlohmann::ordered_json orlControlsToJson(const Dna& dna, const OrlControls& controls) {
  const auto& names = controls.mode == DnaControlMode::Raw ? dna.rawControlNames : dna.guiControlNames;
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < controls.values.size() && i < names.size(); ++i)
    if (controls.values[i] != 0.0f) out[names[i]] = controls.values[i];
  return out;
}

std::string orlDnaControlName(std::string_view boardName) {
  std::string name(boardName);
  for (const auto& [from, to] :
       {std::pair{".translateX", ".tx"}, std::pair{".translateY", ".ty"}, std::pair{".translateZ", ".tz"}})
    if (name.ends_with(from)) name.replace(name.size() - std::strlen(from), std::strlen(from), to);
  return name;
}

std::vector<float> orlGuiFromArkit(const Dna& dna, std::span<const float> arkit52) {
  std::vector<float> board(kMhControlCount, 0.0f), gui(dna.guiControlNames.size(), 0.0f);
  arkitToMh(arkit52, std::span<float, kMhControlCount>(board));
  for (std::size_t i = 0; i < kMhControlCount; ++i) {
    if (board[i] == 0.0f) continue;
    const std::string name = orlDnaControlName(mhRigNames()[i]);
    const auto it = std::find(dna.guiControlNames.begin(), dna.guiControlNames.end(), name);
    if (it != dna.guiControlNames.end()) gui[std::size_t(it - dna.guiControlNames.begin())] = board[i];
  }
  return gui;
}

Expected<std::vector<float>> orlRestPose(const OrlPack& pack) {
  return orlDeform(pack, std::vector<float>(pack.jointCount * 9, 0.0f), std::vector<float>(pack.channelCount, 0.0f));
}

}  // namespace riglens::core
