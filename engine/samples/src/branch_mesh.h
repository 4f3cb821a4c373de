// Writing a bundle branch (contract/CHARACTER.md 4) for the sample
// characters: its mesh (mesh_<b>.json naming the buffers of mesh_<b>.bin:
// faces, the UV maps rasterised at `res`, neutral_vertices) and its decoders.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "riglens/core/base/expected.h"

namespace riglens::samples {

core::Expected<void> writeText(const std::filesystem::path& path, const std::string& text);
// neutral: the rig's own deform of its neutral controls, so the bundle's
// calibration (DECODERS.md A10) is the identity.
core::Expected<void> writeBranchMesh(std::span<const std::uint32_t> faces, std::span<const float> uv,
                                     std::span<const float> neutral, int res, const std::filesystem::path& json,
                                     const std::filesystem::path& bin);

core::Expected<void> copyFile(const std::filesystem::path& from, const std::filesystem::path& to);
// Copies the branch's .onnx files of `decoders` (<stem>_<name>[_fp16].onnx)
// into `folder` and names its
// trunk (or "fused": true when there is none), geom and appr in `branch`.
core::Expected<void> copyBranchDecoders(const std::filesystem::path& decoders, const std::filesystem::path& folder,
                                        const std::string& name, nlohmann::ordered_json& branch);

}  // namespace riglens::samples
