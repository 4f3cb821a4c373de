// A tiny glTF builder over tinygltf for test fixtures: one buffer, views
// appended, one mesh on one node in one scene.
#pragma once

#include <tiny_gltf.h>

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
