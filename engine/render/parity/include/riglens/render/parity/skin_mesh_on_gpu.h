// The GPU side of core::morphMesh then core::skinMesh (shaders/skin.comp),
// run once and read back:
// the parity test compares it with the CPU reference. RigRenderer runs the
// same pass every frame and draws its output directly.
#pragma once

#include <glm/mat4x4.hpp>
#include <span>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/gltf/glb_reader.h"
#include "riglens/core/gltf/part_mesh.h"
#include "riglens/render/device/rhi_device.h"

namespace riglens::render {

// `restTangents` (4 floats a vertex, or empty): skinned too, into
// `skinnedTangents` (core::skinTangents' GPU side).
core::Expected<core::PartMesh> skinMeshOnGpu(RhiDevice& device, const core::PartMesh& rest, const core::SkinData& skin,
                                             std::span<const glm::mat4> bones, const core::MorphData& morph = {},
                                             std::span<const float> morphWeights = {},
                                             std::span<const float> restTangents = {},
                                             std::vector<float>* skinnedTangents = nullptr);

}  // namespace riglens::render
