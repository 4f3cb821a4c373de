// What `inspect` and `character evaluate` say about a DNA: its version,
// layers, counts, and the GUI and raw controls with their ranges (from the
// GUI->raw table), in the DNA's order.
#pragma once

#include <nlohmann/json.hpp>

#include "riglens/core/dna/dna.h"

namespace riglens::cli {

nlohmann::json dnaSummary(const core::Dna& dna);
// The raw control's range after GUI->raw mapping: the rows feeding it at
// their interval ends, clamped to [0, 1] as the mapping clamps ([0, 1] when no row feeds it).
std::pair<float, float> rawRange(const core::Dna& dna, std::size_t raw);

}  // namespace riglens::cli
