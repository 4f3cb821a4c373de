// Parsing rig.json text (a ModelSpec) into a RawRig. Checks shape and types
// only: every key's type, enum spellings, finite numbers, key order in time.
// Cross-references (parents, joint parts, track joints) are checked by
// buildRig. Errors name the source and the JSON pointer of the problem.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "riglens/core/base/expected.h"
#include "riglens/core/rig/rig_spec.h"

namespace riglens::core {

// `spec` is a ModelSpec object (top-level `parts`). `pointerPrefix` is where
// it sits in its file ("" for rig.json, "/voxel/rig" in a run record).
Expected<RawRig> parseRigSpec(const nlohmann::json& spec, std::string_view sourceName,
                              std::string_view pointerPrefix = "");

}  // namespace riglens::core
