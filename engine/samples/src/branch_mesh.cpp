#include "branch_mesh.h"

#include <nlohmann/json.hpp>

#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/samples/uv_maps.h"

namespace riglens::samples {

using namespace core;

Expected<void> writeText(const std::filesystem::path& path, const std::string& text) {
  return writeFileAtomically(path, {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
}

// mesh_<b>.json + .bin (CHARACTER.md 4): named buffers in one binary.
// neutral: the rig's own deform of the neutral rig, so the bundle's
// calibration (DECODERS.md A10) is the identity.
Expected<void> writeBranchMesh(std::span<const std::uint32_t> faces, std::span<const float> uv,
                               std::span<const float> neutral, int res, const std::filesystem::path& json,
                               const std::filesystem::path& bin) {
  const UvMaps maps = rasteriseUvMaps(uv, neutral, faces, res);
  std::vector<std::uint8_t> bytes;
  nlohmann::ordered_json buffers = nlohmann::ordered_json::array();
  const auto add = [&](const char* name, const char* dtype, std::vector<std::size_t> shape, const void* data,
                       std::size_t length) {
    buffers.push_back(
        {{"name", name}, {"dtype", dtype}, {"shape", shape}, {"offset", bytes.size()}, {"byte_length", length}});
    const auto* p = static_cast<const std::uint8_t*>(data);
    bytes.insert(bytes.end(), p, p + length);
  };
  const std::size_t R = std::size_t(res), F = faces.size() / 3, V = neutral.size() / 3;
  add("faces", "u32", {F, 3}, faces.data(), faces.size() * 4);
  add("idxim", "i32", {R, R, 3}, maps.idxim.data(), maps.idxim.size() * 4);
  add("barim", "f32", {R, R, 3}, maps.barim.data(), maps.barim.size() * 4);
  add("triim", "i32", {R, R}, maps.triim.data(), maps.triim.size() * 4);
  add("valid", "u8", {R, R}, maps.valid.data(), maps.valid.size());
  add("neutral_vertices", "f32", {V, 3}, neutral.data(), neutral.size() * 4);
  nlohmann::ordered_json manifest;
  manifest["uv_res"] = res;
  manifest["num_vertices"] = V;
  manifest["num_faces"] = F;
  manifest["buffers"] = buffers;
  if (auto ok = writeFileAtomically(bin, bytes); !ok) return ok;
  return writeText(json, manifest.dump(2) + "\n");
}

Expected<void> copyFile(const std::filesystem::path& from, const std::filesystem::path& to) {
  auto bytes = readFileBytes(from);
  if (!bytes) return bytes.error();
  return writeFileAtomically(to, *bytes);
}

Expected<void> copyBranchDecoders(const std::filesystem::path& decoders, const std::filesystem::path& folder,
                                  const std::string& name, nlohmann::ordered_json& branch) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(decoders, ec)) {
    const std::string stem = entry.path().stem().string();
    if (entry.path().extension() == ".onnx" && (stem.ends_with("_" + name) || stem.ends_with("_" + name + "_fp16")))
      if (auto ok = copyFile(entry.path(), folder / entry.path().filename()); !ok) return ok;
  }
  if (ec) return errorAt(ErrorCode::Io, decoders.string(), "", "cannot list the decoders: " + ec.message());
  if (std::filesystem::exists(decoders / ("trunk_" + name + ".onnx"), ec))
    branch["trunk"] = "trunk_" + name + ".onnx";
  else
    branch["fused"] = true;
  branch["geom"] = "geom_" + name + ".onnx";
  branch["appr"] = "appr_" + name + ".onnx";
  branch["scale_log_bias"] = 0.0;
  return {};
}

}  // namespace riglens::samples
