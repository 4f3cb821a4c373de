// Reads a VRM avatar's extension (VRM 0.x `VRM`, VRM 1.0 `VRMC_vrm`) from
// tinygltf's model, after the scene's nodes and meshes are read. What the
// file gets wrong (a bind to a node without morph targets, a humanoid bone
// naming no node) is set aside with a warning pointing at it: the geometry
// does not depend on it.
#pragma once

#include <optional>
#include <string_view>

#include "riglens/core/base/diagnostic.h"
#include "riglens/core/gltf/gltf_scene.h"
#include "riglens/core/gltf/vrm.h"

namespace tinygltf {
class Model;
}

namespace riglens::core {

// Null when the file is no VRM (neither extension present).
std::optional<VrmAvatar> readVrmAvatar(const tinygltf::Model& model, const GltfScene& scene, std::string_view source,
                                       Diagnostics& warnings);

}  // namespace riglens::core
