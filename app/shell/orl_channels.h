// The expression channels of an ORL character, in three modes:
//  gui    the DNA's GUI controls, grouped by widget (CTRL_C_jaw: .tx, .ty),
//         each with the range its GUI->raw rows cover (bipolar widgets such
//         as CTRL_C_jaw.tx run from -1 to 1);
//  raw    the DNA's raw controls (CTRL_expressions.*), 0..1, set as they are;
//  arkit  the 52 ARKit weights, mapped through the ARKit -> MetaHuman table
//         onto the GUI controls (core::orlGuiFromArkit).
// And the frame's controls for a set of channel values.
#pragma once

#include <span>
#include <vector>

#include "expression_channel_model.h"
#include "riglens/core/dna/dna.h"

namespace riglens::app {

enum class OrlChannelMode { Gui, Raw, Arkit };

std::vector<ExpressionChannel> orlChannels(const core::Dna& dna, OrlChannelMode mode);
// GUI values (gui, arkit) or raw values (raw), in the DNA's order.
std::vector<float> orlControlsFor(const core::Dna& dna, OrlChannelMode mode, std::span<const float> values);
const char* orlChannelModeName(OrlChannelMode mode);  // "gui", "raw", "arkit"

}  // namespace riglens::app
