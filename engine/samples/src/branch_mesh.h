// Writing a bundle branch mesh (contract/CHARACTER.md 4): mesh_<b>.json
// naming the buffers of mesh_<b>.bin (faces, the UV maps rasterised at
// `res`, neutral_vertices), for the sample characters.
#pragma once

#include <cstdint>
#include <filesystem>
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

}  // namespace riglens::samples
