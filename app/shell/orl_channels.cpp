#include "orl_channels.h"

#include "riglens/core/character/expressions.h"
#include "riglens/core/character/orl_character.h"

namespace riglens::app {

namespace {

// "CTRL_C_jaw.tx" -> "CTRL_C_jaw": the widget a control belongs to.
QString widgetOf(const std::string& name) {
  const auto dot = name.rfind('.');
  return QString::fromStdString(dot == std::string::npos ? name : name.substr(0, dot));
}

}  // namespace

std::vector<ExpressionChannel> orlChannels(const core::Dna& dna, OrlChannelMode mode) {
  std::vector<ExpressionChannel> channels;
  switch (mode) {
    case OrlChannelMode::Gui:
      for (std::size_t i = 0; i < dna.guiControlNames.size(); ++i) {
        const auto [lo, hi] = dna.guiRange(i);
        const std::string& name = dna.guiControlNames[i];
        channels.push_back({QString::fromStdString(name), widgetOf(name), lo, hi > lo ? hi : lo + 1.0});
      }
      break;
    case OrlChannelMode::Raw:
      for (const std::string& name : dna.rawControlNames)
        channels.push_back({QString::fromStdString(name), widgetOf(name), 0.0, 1.0});
      break;
    case OrlChannelMode::Arkit:
      for (const auto& name : core::arkitNames())
        channels.push_back({QString::fromStdString(name), QStringLiteral("ARKit-52"), 0.0, 1.0});
      break;
  }
  return channels;
}

std::vector<float> orlControlsFor(const core::Dna& dna, OrlChannelMode mode, std::span<const float> values) {
  if (mode == OrlChannelMode::Arkit) return core::orlGuiFromArkit(dna, values);
  return {values.begin(), values.end()};
}

const char* orlChannelModeName(OrlChannelMode mode) {
  return mode == OrlChannelMode::Gui ? "gui" : mode == OrlChannelMode::Raw ? "raw" : "arkit";
}

}  // namespace riglens::app
