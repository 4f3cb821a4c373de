#include "gltf_draco.h"

#include <draco/compression/decode.h>
#include <draco/core/decoder_buffer.h>
#include <draco/mesh/mesh.h>

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "gltf_accessor_reader.h"

namespace riglens::core {
namespace {

constexpr const char* kDracoExtension = "KHR_draco_mesh_compression";

// Appends one decoded attribute to `buffer` as the accessor's component type
// says; false where Draco cannot convert a value.
template <class T>
bool appendAs(const draco::PointAttribute& attribute, const draco::Mesh& mesh, int components,
              std::vector<unsigned char>& buffer) {
  while (buffer.size() % 4) buffer.push_back(0);
  const std::size_t start = buffer.size();
  buffer.resize(start + std::size_t(mesh.num_points()) * std::size_t(components) * sizeof(T));
  const std::size_t bytes = std::size_t(components) * sizeof(T);
  T value[4] = {};  // SCALAR..VEC4
  for (draco::PointIndex p(0); p < mesh.num_points(); ++p) {
    if (!attribute.ConvertValue<T>(attribute.mapped_index(p), static_cast<std::int8_t>(components), value))
      return false;
    std::memcpy(buffer.data() + start + std::size_t(p.value()) * bytes, value, bytes);
  }
  return true;
}

bool appendAttribute(const draco::PointAttribute& attribute, const draco::Mesh& mesh, int componentType, int components,
                     std::vector<unsigned char>& buffer) {
  switch (componentType) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT: return appendAs<float>(attribute, mesh, components, buffer);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return appendAs<std::uint8_t>(attribute, mesh, components, buffer);
    case TINYGLTF_COMPONENT_TYPE_BYTE: return appendAs<std::int8_t>(attribute, mesh, components, buffer);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return appendAs<std::uint16_t>(attribute, mesh, components, buffer);
    case TINYGLTF_COMPONENT_TYPE_SHORT: return appendAs<std::int16_t>(attribute, mesh, components, buffer);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: return appendAs<std::uint32_t>(attribute, mesh, components, buffer);
    default: return false;
  }
}

int addView(tinygltf::Model& model, int buffer, std::size_t offset, std::size_t length) {
  tinygltf::BufferView view;
  view.buffer = buffer;
  view.byteOffset = offset;
  view.byteLength = length;
  model.bufferViews.push_back(view);
  return int(model.bufferViews.size() - 1);
}

// A copy of the declared accessor pointed at its decoded bytes.
int addAccessor(tinygltf::Model& model, const tinygltf::Accessor& declared, int view, std::size_t count) {
  tinygltf::Accessor accessor = declared;
  accessor.bufferView = view;
  accessor.byteOffset = 0;
  accessor.count = count;
  accessor.sparse = {};
  accessor.sparse.isSparse = false;
  model.accessors.push_back(accessor);
  return int(model.accessors.size() - 1);
}

class PrimitiveDecoder {
 public:
  PrimitiveDecoder(tinygltf::Model& model, const GltfBuffers& buffers, std::string_view source, std::string where)
      : m_model(model), m_buffers(buffers), m_source(source), m_where(std::move(where)) {}

  // The decoded bytes.
  Expected<std::size_t> decode(tinygltf::Primitive& prim, const tinygltf::Value& extension) {
    if (!extension.IsObject() || !extension.Has("bufferView") || !extension.Get("bufferView").IsNumber() ||
        !extension.Has("attributes") || !extension.Get("attributes").IsObject())
      return refuse("needs a bufferView number and an attributes object");
    auto fetched = bytesOf(extension.Get("bufferView").GetNumberAsInt());
    if (!fetched) return fetched.error();
    const std::span<const std::uint8_t> compressed = fetched->bytes;
    draco::DecoderBuffer input;
    input.Init(reinterpret_cast<const char*>(compressed.data()), compressed.size());
    auto geometryType = draco::Decoder::GetEncodedGeometryType(&input);
    if (!geometryType.ok() || geometryType.value() != draco::TRIANGULAR_MESH)
      return refuse("the compressed bytes are not a Draco triangle mesh");
    draco::Decoder decoder;
    auto decoded = decoder.DecodeMeshFromBuffer(&input);
    if (!decoded.ok())
      return refuse("the compressed bytes do not decode (Draco: " + decoded.status().error_msg_string() + ")");
    const std::unique_ptr<draco::Mesh> mesh = std::move(decoded).value();
    const std::size_t points = mesh->num_points(), faces = mesh->num_faces();

    const tinygltf::Value& ids = extension.Get("attributes");
    const std::size_t claimed = faces * 3 * 4 + ids.Keys().size() * points * 4 * 4;  // VEC4 floats at most
    if (claimed / kMaxDracoRatio > compressed.size())
      return refuse("decodes to " + std::to_string(points) + " points and " + std::to_string(faces) +
                    " triangles, more than " + std::to_string(kMaxDracoRatio) + " times its " +
                    std::to_string(compressed.size()) + " bytes");

    tinygltf::Buffer out;
    for (const std::string& name : ids.Keys()) {
      const tinygltf::Value& id = ids.Get(name);
      auto slot = prim.attributes.find(name);
      if (slot == prim.attributes.end() || !id.IsNumber())
        return refuse("attribute " + name + " is not an id of one of the primitive's attributes");
      if (slot->second < 0 || slot->second >= int(m_model.accessors.size()))
        return refuse("attribute " + name + ": accessor " + std::to_string(slot->second) + " does not exist");
      const tinygltf::Accessor declared = m_model.accessors[std::size_t(slot->second)];
      const draco::PointAttribute* attribute = mesh->GetAttributeByUniqueId(std::uint32_t(id.GetNumberAsInt()));
      const int components = tinygltf::GetNumComponentsInType(std::uint32_t(declared.type));
      if (!attribute || id.GetNumberAsInt() < 0)
        return refuse("attribute " + name + ": the decoded mesh has no attribute " +
                      std::to_string(id.GetNumberAsInt()));
      if (components <= 0 || components > 4)
        return refuse("attribute " + name + ": accessor " + std::to_string(slot->second) +
                      " is not a SCALAR or VEC2..VEC4");
      const std::size_t start = (out.data.size() + 3) / 4 * 4;
      if (!appendAttribute(*attribute, *mesh, declared.componentType, components, out.data))
        return refuse("attribute " + name + ": its values do not convert to accessor " + std::to_string(slot->second) +
                      "'s component type");
      const int view = addView(m_model, int(m_model.buffers.size()), start, out.data.size() - start);
      slot->second = addAccessor(m_model, declared, view, points);
    }
    // Indices: Draco decodes a triangle list whatever the file declared.
    tinygltf::Accessor indices;
    if (extension.Has(kDracoIndicesKey)) {
      const tinygltf::Value& declared = extension.Get(kDracoIndicesKey);
      const int index = declared.IsNumber() ? declared.GetNumberAsInt() : -1;
      if (index < 0 || index >= int(m_model.accessors.size()))
        return refuse("the primitive's indices accessor does not exist");
      indices = m_model.accessors[std::size_t(index)];
    }
    indices.componentType = TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
    indices.type = TINYGLTF_TYPE_SCALAR;
    while (out.data.size() % 4) out.data.push_back(0);
    const std::size_t start = out.data.size();
    out.data.resize(start + faces * 3 * 4);
    for (draco::FaceIndex f(0); f < mesh->num_faces(); ++f) {
      const auto& face = mesh->face(f);
      const std::uint32_t corners[3] = {face[0].value(), face[1].value(), face[2].value()};
      std::memcpy(out.data.data() + start + std::size_t(f.value()) * 12, corners, 12);
    }
    prim.indices =
        addAccessor(m_model, indices, addView(m_model, int(m_model.buffers.size()), start, faces * 12), faces * 3);
    prim.mode = TINYGLTF_MODE_TRIANGLES;
    prim.extensions.erase(kDracoExtension);
    const std::size_t total = out.data.size();
    m_model.buffers.push_back(std::move(out));
    return total;
  }

 private:
  Error refuse(const std::string& problem) const { return gltfRefusal(m_source, m_where + ": " + problem); }

  Expected<FetchedBytes> bytesOf(int viewIndex) const {
    if (viewIndex < 0 || viewIndex >= int(m_model.bufferViews.size()))
      return refuse("bufferView " + std::to_string(viewIndex) + " does not exist");
    const tinygltf::BufferView& view = m_model.bufferViews[std::size_t(viewIndex)];
    if (view.buffer < 0 || view.buffer >= int(m_buffers.count()))
      return refuse("buffer " + std::to_string(view.buffer) + " does not exist");
    const std::size_t size = m_buffers.size(view.buffer);
    if (view.byteOffset > size || view.byteLength > size - view.byteOffset)
      return refuse("bufferView " + std::to_string(viewIndex) + " runs past the end of its buffer");
    return m_buffers.fetch(view.buffer, view.byteOffset, view.byteLength, m_source);
  }

  tinygltf::Model& m_model;
  const GltfBuffers& m_buffers;
  std::string_view m_source;
  std::string m_where;
};

}  // namespace

bool prepareDraco(nlohmann::json& doc) {
  bool moved = false;
  const auto meshes = doc.find("meshes");
  if (meshes == doc.end() || !meshes->is_array()) return false;
  for (auto& mesh : *meshes) {
    if (!mesh.is_object() || !mesh.contains("primitives") || !mesh["primitives"].is_array()) continue;
    for (auto& prim : mesh["primitives"]) {
      if (!prim.is_object() || !prim.contains("indices") || !prim.contains("extensions")) continue;
      auto& extensions = prim["extensions"];
      if (!extensions.is_object() || !extensions.contains(kDracoExtension) || !extensions[kDracoExtension].is_object())
        continue;
      extensions[kDracoExtension][kDracoIndicesKey] = prim["indices"];
      prim.erase("indices");
      moved = true;
    }
  }
  return moved;
}

Expected<std::size_t> decodeDraco(tinygltf::Model& model, const GltfBuffers& buffers, std::string_view source) {
  std::size_t total = 0;
  for (std::size_t m = 0; m < model.meshes.size(); ++m)
    for (std::size_t p = 0; p < model.meshes[m].primitives.size(); ++p) {
      tinygltf::Primitive& prim = model.meshes[m].primitives[p];
      const auto it = prim.extensions.find(kDracoExtension);
      if (it == prim.extensions.end()) continue;
      const tinygltf::Value extension = it->second;
      PrimitiveDecoder decoder(
          model, buffers, source,
          "/meshes/" + std::to_string(m) + "/primitives/" + std::to_string(p) + "/extensions/" + kDracoExtension);
      auto bytes = decoder.decode(prim, extension);
      if (!bytes) return bytes.error();
      total += *bytes;
    }
  return total;
}

}  // namespace riglens::core
