// EXT_meshopt_compression (what gltfpack writes): bufferViews whose bytes
// are meshoptimizer's vertex or index codec, decoded with Debian's
// libmeshoptimizer. tinygltf does not know the extension and refuses its
// fallback buffer (declared without data), so the document is prepared
// before tinygltf reads it — each compressed view pointed at its compressed
// bytes, buffers without data dropped — and the views decoded after, each
// into a buffer of its own. Private to engine/core.
#pragma once

#include <tiny_gltf.h>

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "gltf_buffers.h"
#include "riglens/core/base/expected.h"

namespace riglens::core {

struct MeshoptView {
  enum class Mode { Attributes, Triangles, Indices };
  enum class Filter { None, Octahedral, Quaternion, Exponential };
  int view = 0;
  std::size_t count = 0, stride = 0;
  Mode mode = Mode::Attributes;
  Filter filter = Filter::None;
};

// Whether the document uses the extension (extensionsUsed names it).
bool usesMeshopt(const nlohmann::json& doc);

// Rewrites `doc` for tinygltf and returns the compressed views. Throws a
// ReadProblem (with its JSON pointer) for a malformed extension object, or a
// view that claims more decoded bytes than its compressed bytes can hold.
std::vector<MeshoptView> prepareMeshopt(nlohmann::json& doc);

// Decodes each view into a new buffer of `model`; the decoded bytes in all.
Expected<std::size_t> decodeMeshopt(tinygltf::Model& model, const GltfBuffers& buffers,
                                    const std::vector<MeshoptView>& views, std::string_view source);

}  // namespace riglens::core
