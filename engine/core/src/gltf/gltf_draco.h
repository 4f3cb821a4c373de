// KHR_draco_mesh_compression: a primitive whose geometry is one Draco-encoded
// bufferView, decoded with Debian's libdraco. Each decoded primitive gets a
// buffer of its own, new accessors for its attributes and indices (the
// accessors the file declares have no bufferView: their type, component
// type and normalization say how to store what Draco decodes), and is then
// read like any other. Private to engine/core.
#pragma once

#include <tiny_gltf.h>

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string_view>

#include "gltf_buffers.h"
#include "riglens/core/base/expected.h"

namespace riglens::core {

// tinygltf refuses an indices accessor without a bufferView, which is how
// the extension declares it: before tinygltf reads `doc`, each compressed
// primitive's "indices" moves into its extension object (kDracoIndicesKey),
// where decodeDraco finds it. Whether anything moved.
inline constexpr const char* kDracoIndicesKey = "riglens:indices";
bool prepareDraco(nlohmann::json& doc);

// Decodes every compressed primitive of `model`; the decoded bytes in all.
// Refuses, naming the primitive's extension by JSON pointer, a malformed
// extension object, bytes Draco cannot decode, an attribute id the decoded
// mesh lacks, or a mesh larger than kMaxDracoRatio times its bytes.
Expected<std::size_t> decodeDraco(tinygltf::Model& model, const GltfBuffers& buffers, std::string_view source);

// Draco's best ratios on real meshes are in the tens (connectivity at about
// two bits a triangle, quantized and predicted attributes); a mesh that
// claims more vertex data than this many times its bytes is not one.
inline constexpr std::size_t kMaxDracoRatio = 1024;

}  // namespace riglens::core
