// What `riglens-cli inspect` (and `character inspect`) print: a JSON summary
// of anything the viewer opens, with the loader's problems in one list
// ({severity, file, pointer, message, part, joint}), the same list the
// viewer's Problems panel shows.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "riglens/core/base/diagnostic.h"
#include "riglens/core/base/expected.h"
#include "riglens/core/rig/run_loader.h"

namespace riglens::cli {

nlohmann::json problemsJson(const core::Diagnostics& problems);
// A load that failed, as one problem row (severity error).
nlohmann::json failedLoadJson(const core::Error& error, const std::string& path);

// A voxel run's parts, joints, animations and problems.
nlohmann::json runSummary(const core::LoadedRun& run);

// True for what summarizeScene reads (core/open's readers of characters,
// splat scenes and DNAs): a bundle folder, an .aosrig, a 3DGS .ply, an ORL
// pack, a DNA.
bool isScenePath(const std::string& path);
// A bundle, an .aosrig or ORL pack, or a 3DGS .ply (count, SH degree, bounds).
core::Expected<nlohmann::json> summarizeScene(const std::string& path);

// `key value` lines for people (nested values cut at 160 characters), then
// each problem on its own line.
void printSummary(const nlohmann::json& summary);

}  // namespace riglens::cli
