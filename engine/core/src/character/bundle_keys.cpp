#include "bundle_keys.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <string_view>

namespace riglens::core {

namespace {

using nlohmann::json;
using Keys = std::span<const std::string_view>;

constexpr std::array<std::string_view, 17> kSceneKeys{
    "schema_version", "subject",  "world_scale",  "world_offset",     "world_rotation", "rig_range",
    "rig_dim",        "rig_dims", "moment_scale", "branches",         "trunks",         "rig",
    "mode",           "order",    "num_poses",    "expression_space", "rig_presets"};
constexpr std::array<std::string_view, 20> kBranchKeys{
    "geom",          "appr",         "trunk",     "mesh_json",    "mesh_bin",           "mesh_glb", "frame_vertices",
    "rig_presets",   "statics",      "uv_res",    "rig_dim",      "gaze_conditioned",   "fused",    "scale_log_bias",
    "scale_log_max", "sigma_offset", "sigma_max", "tri_size_cap", "sliver_min_quality", "uv_erode"};
constexpr std::array<std::string_view, 4> kRigKeys{"backend", "pack", "control_names", "vertex_count"};
constexpr std::array<std::string_view, 5> kExpressionKeys{"kind", "dim", "names", "segments", "arkit_map"};
constexpr std::array<std::string_view, 3> kSegmentKeys{"name", "start", "count"};
constexpr std::array<std::string_view, 4> kMeshKeys{"uv_res", "num_vertices", "num_faces", "buffers"};
constexpr std::array<std::string_view, 5> kBufferKeys{"name", "dtype", "shape", "offset", "byte_length"};

// RFC 6901: '~' and '/' in a key are escaped.
std::string pointerTo(const std::string& parent, const std::string& key) {
  std::string escaped;
  for (char c : key) escaped += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return parent + "/" + escaped;
}

void noteUnknownKeys(const json& object, Keys known, const std::string& pointer, const std::string& source,
                     Diagnostics& problems, std::string_view knownPrefix = {}) {
  if (!object.is_object()) return;  // the reader refuses it with its type
  for (const auto& [key, value] : object.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    if (!knownPrefix.empty() && key.rfind(knownPrefix, 0) == 0) continue;
    problems.push_back({source, pointerTo(pointer, key), "unknown key '" + key + "'; ignored"});
  }
}

void noteEachObject(const json& container, Keys known, const std::string& pointer, const std::string& source,
                    Diagnostics& problems) {
  if (container.is_object())
    for (const auto& [key, value] : container.items())
      noteUnknownKeys(value, known, pointerTo(pointer, key), source, problems);
  if (container.is_array())
    for (std::size_t i = 0; i < container.size(); ++i)
      noteUnknownKeys(container[i], known, pointer + "/" + std::to_string(i), source, problems);
}

void noteImplausibleWorld(const json& scene, const std::string& source, Diagnostics& problems) {
  const auto scale = scene.find("world_scale");
  if (scale != scene.end() && scale->is_number()) {
    const double s = scale->get<double>();
    if (std::isfinite(s) && s > 0 && (s < kMinPlausibleWorldScale || s > kMaxPlausibleWorldScale))
      problems.push_back({source, "/world_scale",
                          "world_scale " + scale->dump() + " (metres per bundle unit) is outside " +
                              json(kMinPlausibleWorldScale).dump() + " .. " + json(kMaxPlausibleWorldScale).dump() +
                              "; loaded as given, but it cannot be meant"});
  }
}

}  // namespace

void noteSceneOddities(const json& scene, const std::string& source, Diagnostics& problems) {
  noteUnknownKeys(scene, kSceneKeys, "", source, problems, "rig_presets_");
  if (!scene.is_object()) return;
  if (const auto branches = scene.find("branches"); branches != scene.end())
    noteEachObject(*branches, kBranchKeys, "/branches", source, problems);
  if (const auto rig = scene.find("rig"); rig != scene.end()) noteUnknownKeys(*rig, kRigKeys, "/rig", source, problems);
  if (const auto space = scene.find("expression_space"); space != scene.end()) {
    noteUnknownKeys(*space, kExpressionKeys, "/expression_space", source, problems);
    if (space->is_object())
      if (const auto segments = space->find("segments"); segments != space->end())
        noteEachObject(*segments, kSegmentKeys, "/expression_space/segments", source, problems);
  }
  noteImplausibleWorld(scene, source, problems);
}

void noteMeshManifestOddities(const json& manifest, const std::string& source, Diagnostics& problems) {
  noteUnknownKeys(manifest, kMeshKeys, "", source, problems);
  if (manifest.is_object())
    if (const auto buffers = manifest.find("buffers"); buffers != manifest.end())
      noteEachObject(*buffers, kBufferKeys, "/buffers", source, problems);
}

}  // namespace riglens::core
