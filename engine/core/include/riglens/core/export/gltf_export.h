// Exporting a loaded run to one glTF 2.0 file (.glb, or .gltf + .bin when the
// path ends in .gltf) plus <stem>.interface.json when the rig has caller
// joints. The node frames, channels and units are planned by planExport
// (export_plan.h); this writes them with tinygltf. Files appear atomically:
// everything is written to temporary names and renamed into place, so a
// failure never leaves a half-written file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "riglens/core/base/diagnostic.h"
#include "riglens/core/base/expected.h"
#include "riglens/core/export/export_plan.h"
#include "riglens/core/rig/run_loader.h"

namespace riglens::core {

struct ExportReport {
  std::filesystem::path output;
  std::filesystem::path interfacePath;  // empty when none was written
  std::uintmax_t bytes = 0;             // .glb, or .gltf + .bin
  std::size_t nodes = 0, meshes = 0, animations = 0, channels = 0;
  std::size_t keysWritten = 0;   // keyframes over every channel
  std::size_t denseSamples = 0;  // the dense grid the reduction started from
  Diagnostics warnings;
};

// Builds the glTF document in memory (GLB bytes). For tests and benchmarks.
std::vector<std::uint8_t> encodeExportGlb(const ExportPlan& plan);

Expected<ExportReport> exportRun(const LoadedRun& run, const std::filesystem::path& output,
                                 const ExportOptions& options = {});

}  // namespace riglens::core
