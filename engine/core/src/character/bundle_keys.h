// What a bundle's manifests hold that no reader takes, or that parses but
// cannot be meant: reported as warnings naming the JSON pointer, as rig.json's
// unknown keys are (a misspelt "branchs" would otherwise leave a scene with
// no branches, without a word). The keys are those of CHARACTER.md section 4
// and DECODERS.md, plus the ones real manifests carry that no reader uses
// (mode, order, num_poses, top-level rig_presets*).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "riglens/core/base/diagnostic.h"

namespace riglens::core {

// A world scale outside this range (metres per bundle unit) is a typo or a
// corrupt field: bundles are authored in metres or centimetres (1, 0.01),
// and nothing is drawn at a billionth or a million times its size.
inline constexpr double kMinPlausibleWorldScale = 1e-6;
inline constexpr double kMaxPlausibleWorldScale = 1e6;

// scene.json: its top level, each branch, and the rig / expression_space blocks.
void noteSceneOddities(const nlohmann::json& scene, const std::string& source, Diagnostics& problems);

// mesh_<b>.json (and schema 1's mesh.json): its top level and each buffer.
void noteMeshManifestOddities(const nlohmann::json& manifest, const std::string& source, Diagnostics& problems);

}  // namespace riglens::core
