#include "riglens/core/gltf/glb_writer.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <cassert>
#include <cstring>
#include <limits>
#include <string_view>

#include "gltf/glb_bytes.h"
#include "gltf/gltf_buffer_views.h"
#include "riglens/core/base/file_io.h"

namespace riglens::core {
namespace {

// The exact JSON of an empty part (a socket) as the meshing binaries write it.
constexpr std::string_view kSocketJson =
    R"({"asset":{"version":"2.0","generator":"test-cabinet"},"scene":0,"scenes":[{"nodes":[]}],)"
    R"("nodes":[],"meshes":[],"accessors":[],"bufferViews":[],"buffers":[]})";

void appendU32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

// GLB container by hand only for the socket: tinygltf never writes an empty BIN
// chunk, but every real socket file has one, and the loaders must see it.
std::vector<std::uint8_t> encodeSocketGlb() {
  std::string jsonText(kSocketJson);
  while (jsonText.size() % 4 != 0) jsonText.push_back(' ');
  std::vector<std::uint8_t> out;
  const auto total = static_cast<std::uint32_t>(12 + 8 + jsonText.size() + 8);
  appendU32(out, 0x46546C67u);  // "glTF"
  appendU32(out, 2);
  appendU32(out, total);
  appendU32(out, static_cast<std::uint32_t>(jsonText.size()));
  appendU32(out, 0x4E4F534Au);  // "JSON"
  out.insert(out.end(), jsonText.begin(), jsonText.end());
  appendU32(out, 0);
  appendU32(out, 0x004E4942u);  // "BIN\0"
  return out;
}

int addVec3Accessor(tinygltf::Model& model, const std::vector<float>& xyz, bool withBounds) {
  tinygltf::Accessor accessor;
  accessor.bufferView = appendBufferView(model, xyz, TINYGLTF_TARGET_ARRAY_BUFFER);
  accessor.componentType = TINYGLTF_COMPONENT_TYPE_FLOAT;
  accessor.type = TINYGLTF_TYPE_VEC3;
  accessor.count = xyz.size() / 3;
  if (withBounds) {
    accessor.minValues.assign(3, std::numeric_limits<double>::max());
    accessor.maxValues.assign(3, std::numeric_limits<double>::lowest());
    for (std::size_t i = 0; i < xyz.size(); ++i) {
      accessor.minValues[i % 3] = std::min<double>(accessor.minValues[i % 3], xyz[i]);
      accessor.maxValues[i % 3] = std::max<double>(accessor.maxValues[i % 3], xyz[i]);
    }
  }
  model.accessors.push_back(std::move(accessor));
  return static_cast<int>(model.accessors.size() - 1);
}

}  // namespace

std::vector<std::uint8_t> encodePartGlb(const PartMesh& mesh) {
  if (mesh.empty()) return encodeSocketGlb();
  [[maybe_unused]] const std::size_t vertices = mesh.vertexCount();
  assert(mesh.positions.size() == vertices * 3);
  assert(mesh.normals.empty() || mesh.normals.size() == vertices * 3);
  assert(mesh.colors.empty() || mesh.colors.size() == vertices * 3);
  assert(std::all_of(mesh.indices.begin(), mesh.indices.end(), [&](std::uint32_t i) { return i < vertices; }));

  tinygltf::Model model;
  model.asset.version = "2.0";
  model.asset.generator = "riglens";
  model.buffers.emplace_back();
  reserveBinaryBytes(
      model, sizeof(float) * (mesh.positions.size() + mesh.normals.size() + mesh.colors.size() + mesh.indices.size()));

  tinygltf::Primitive primitive;
  primitive.mode = TINYGLTF_MODE_TRIANGLES;
  primitive.attributes["POSITION"] = addVec3Accessor(model, mesh.positions, true);
  if (!mesh.normals.empty()) primitive.attributes["NORMAL"] = addVec3Accessor(model, mesh.normals, false);
  if (!mesh.colors.empty()) primitive.attributes["COLOR_0"] = addVec3Accessor(model, mesh.colors, false);
  if (!mesh.indices.empty()) {
    tinygltf::Accessor indices;
    indices.bufferView = appendBufferView(model, mesh.indices, TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER);
    indices.componentType = TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
    indices.type = TINYGLTF_TYPE_SCALAR;
    indices.count = mesh.indices.size();
    model.accessors.push_back(std::move(indices));
    primitive.indices = static_cast<int>(model.accessors.size() - 1);
  }
  while (model.buffers[0].data.size() % 4 != 0) model.buffers[0].data.push_back(0);

  tinygltf::Mesh gltfMesh;
  gltfMesh.primitives.push_back(std::move(primitive));
  model.meshes.push_back(std::move(gltfMesh));
  tinygltf::Node node;
  node.mesh = 0;
  model.nodes.push_back(std::move(node));
  tinygltf::Scene scene;
  scene.nodes.push_back(0);
  model.scenes.push_back(std::move(scene));
  model.defaultScene = 0;

  return encodeGlb(model);
}

Expected<void> writePartGlb(const PartMesh& mesh, const std::filesystem::path& path) {
  const auto bytes = encodePartGlb(mesh);
  return writeFileAtomically(path, bytes);
}

}  // namespace riglens::core
