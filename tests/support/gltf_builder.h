// A tiny glTF builder over tinygltf for test fixtures: one buffer, views
// appended, one mesh on one node in one scene.
#pragma once

#include <tiny_gltf.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace riglens::test {

// A tiny glTF builder over tinygltf for fixtures: one buffer, views appended.
struct GltfBuilder {
  tinygltf::Model model;
  GltfBuilder() {
    model.asset.version = "2.0";
    model.buffers.emplace_back();
  }
  int view(const void* data, std::size_t bytes, int stride = 0) {
    auto& buf = model.buffers[0].data;
    while (buf.size() % 4) buf.push_back(0);
    tinygltf::BufferView v;
    v.buffer = 0;
    v.byteOffset = buf.size();
    v.byteLength = bytes;
    v.byteStride = static_cast<std::size_t>(stride);
    buf.insert(buf.end(), static_cast<const std::uint8_t*>(data), static_cast<const std::uint8_t*>(data) + bytes);
    model.bufferViews.push_back(v);
    return static_cast<int>(model.bufferViews.size() - 1);
  }
  int accessor(int viewIndex, int componentType, int type, std::size_t count, std::size_t offset = 0,
               bool normalized = false) {
    tinygltf::Accessor a;
    a.bufferView = viewIndex;
    a.componentType = componentType;
    a.type = type;
    a.count = count;
    a.byteOffset = offset;
    a.normalized = normalized;
    model.accessors.push_back(a);
    return static_cast<int>(model.accessors.size() - 1);
  }
  template <class T>
  int data(const std::vector<T>& values, int componentType, int type, bool normalized = false) {
    const int comps = tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(type));
    return accessor(view(values.data(), values.size() * sizeof(T)), componentType, type, values.size() / comps, 0,
                    normalized);
  }
  // A sparse accessor (glTF 2.0, 3.6.2.3): `base` (-1: zeros) with the
  // elements at `indices` (strictly increasing) replaced by `values`.
  int sparse(int base, std::size_t count, int type, const std::vector<std::uint16_t>& indices,
             const std::vector<float>& values) {
    const int out = base >= 0 ? base : accessor(-1, TINYGLTF_COMPONENT_TYPE_FLOAT, type, count);
    auto& s = model.accessors[std::size_t(out)].sparse;
    s.isSparse = true;
    s.count = static_cast<int>(indices.size());
    s.indices.bufferView = view(indices.data(), indices.size() * 2);
    s.indices.byteOffset = 0;
    s.indices.componentType = TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT;
    s.values.bufferView = view(values.data(), values.size() * 4);
    s.values.byteOffset = 0;
    return out;
  }
  // Sets a VEC3 accessor's min and max (glTF requires them on POSITION) from
  // the values it holds.
  void bounds(int accessorIndex, const std::vector<float>& xyz) {
    auto& a = model.accessors[std::size_t(accessorIndex)];
    a.minValues.assign(3, 1e300);
    a.maxValues.assign(3, -1e300);
    for (std::size_t i = 0; i < xyz.size(); ++i) {
      a.minValues[i % 3] = std::min(a.minValues[i % 3], double(xyz[i]));
      a.maxValues[i % 3] = std::max(a.maxValues[i % 3], double(xyz[i]));
    }
  }
  // A POSITION accessor with the bounds glTF requires on it.
  int positionData(const std::vector<float>& xyz) {
    const int out = data(xyz, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3);
    bounds(out, xyz);
    return out;
  }
  void primitive(std::map<std::string, int> attributes, int indices = -1, int mode = TINYGLTF_MODE_TRIANGLES) {
    if (model.meshes.empty()) {
      model.meshes.emplace_back();
      tinygltf::Node node;
      node.mesh = 0;
      model.nodes.push_back(node);
      tinygltf::Scene scene;
      scene.nodes = {0};
      model.scenes.push_back(scene);
      model.defaultScene = 0;
    }
    tinygltf::Primitive p;
    p.attributes = std::move(attributes);
    p.indices = indices;
    p.mode = mode;
    model.meshes[0].primitives.push_back(p);
  }
  std::vector<std::uint8_t> glb() {
    std::ostringstream out;
    tinygltf::TinyGLTF writer;
    writer.WriteGltfSceneToStream(&model, out, false, true);
    const std::string s = out.str();
    return {s.begin(), s.end()};
  }
};

}  // namespace riglens::test
