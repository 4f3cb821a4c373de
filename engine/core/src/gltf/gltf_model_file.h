// Loading a .glb / .gltf into tinygltf's model, sandboxed (a .gltf reads
// only regular files in its own folder, images are not decoded) and with the
// container checked first; shared by the mesh and scene decoders. Private to
// engine/core.
#pragma once

#include <tiny_gltf.h>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <span>
#include <string_view>

#include "gltf_buffers.h"
#include "riglens/core/base/expected.h"
#include "riglens/core/gltf/gltf_scene.h"

namespace riglens::core {

// Called with the loaded model (empty for the meshing binaries' socket file)
// and the file's size; runs inside the loader's guard (a ReadProblem thrown
// here becomes the returned error).
// `buffers` fetches the bytes of the model's buffers (gltf_buffers.h).
using GltfModelUse =
    std::function<Expected<void>(const tinygltf::Model& model, const GltfBuffers& buffers, std::size_t fileBytes)>;

Expected<void> readGltfModel(const std::filesystem::path& path, const GltfModelUse& use);
// A whole .glb in memory (it may name no external file).
Expected<void> decodeGltfModel(std::span<const std::uint8_t> bytes, std::string_view sourceName,
                               const GltfModelUse& use);

// The scene of a loaded model (gltf_scene.cpp): what readGltfScene returns,
// and the outline the mesh decoder keeps beside its flattened mesh.
Expected<GltfScene> buildGltfScene(const tinygltf::Model& model, const GltfBuffers& buffers, std::string_view source,
                                   std::size_t fileBytes, GltfDecode decode);

}  // namespace riglens::core
