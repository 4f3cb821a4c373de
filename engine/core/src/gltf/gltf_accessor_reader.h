// Reading glTF accessors safely, shared by the mesh decoder (glb_reader.cpp)
// and the scene decoder (gltf_scene.cpp). Private to engine/core.
#pragma once

#include <tiny_gltf.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/base/json_reader.h"

namespace riglens::core {

inline Error gltfRefusal(std::string_view source, const std::string& problem, ErrorCode code = ErrorCode::Parse) {
  return errorAt(code, std::string(source), "", problem);
}

// Reads one accessor as floats (`components` per element). Normalized
// integers are mapped to 0..1 as glTF says; plain integers are converted.
// Every offset and count is checked against its bufferView and buffer, with
// no arithmetic that can wrap, before anything is allocated.
class AccessorReader {
 public:
  AccessorReader(const tinygltf::Model& model, std::string_view source, std::size_t fileBytes)
      : m_model(model), m_source(source), m_fileBytes(fileBytes) {}

  // Floats for attributes; integers (exact past 2^24) for indices and joints,
  // which glTF stores as unsigned integers only.
  template <class Out>
  Expected<std::vector<Out>> read(int accessorIndex, const std::string& what, int* componentsOut) const {
    if (accessorIndex < 0 || accessorIndex >= static_cast<int>(m_model.accessors.size()))
      return gltfRefusal(m_source, what + ": accessor " + std::to_string(accessorIndex) + " does not exist");
    const tinygltf::Accessor& acc = m_model.accessors[accessorIndex];
    const std::string name = what + " (accessor " + std::to_string(accessorIndex) + ")";
    if (acc.sparse.isSparse)
      return gltfRefusal(m_source, name + ": sparse accessors are not supported", ErrorCode::Unsupported);
    const int components = tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(acc.type));
    const int componentSize = tinygltf::GetComponentSizeInBytes(static_cast<std::uint32_t>(acc.componentType));
    if (components <= 0 || componentSize <= 0) return gltfRefusal(m_source, name + ": unknown type or component type");
    if constexpr (std::is_integral_v<Out>) {
      if (acc.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
          acc.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
          acc.componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
        return gltfRefusal(m_source, name + ": component type must be an unsigned integer");
    }
    *componentsOut = components;
    const std::size_t elementSize = static_cast<std::size_t>(components * componentSize);
    const std::size_t count = acc.count;
    if (acc.bufferView < 0) {  // all zeros, as glTF says; as many as the file could have held
      if (count > m_fileBytes / elementSize)
        return gltfRefusal(m_source, name + ": " + std::to_string(count) +
                                         " elements without a bufferView, more than the file could hold");
      return std::vector<Out>(count * static_cast<std::size_t>(components), Out{});
    }
    if (acc.bufferView >= static_cast<int>(m_model.bufferViews.size()))
      return gltfRefusal(m_source, name + ": bufferView " + std::to_string(acc.bufferView) + " does not exist");
    const tinygltf::BufferView& view = m_model.bufferViews[acc.bufferView];
    if (view.buffer < 0 || view.buffer >= static_cast<int>(m_model.buffers.size()))
      return gltfRefusal(m_source, name + ": buffer " + std::to_string(view.buffer) + " does not exist");
    const auto& buffer = m_model.buffers[view.buffer].data;
    const std::size_t stride = view.byteStride ? view.byteStride : elementSize;
    if (stride < elementSize)
      return gltfRefusal(m_source, name + ": bufferView " + std::to_string(acc.bufferView) + " byteStride " +
                                       std::to_string(stride) + " is shorter than one element (" +
                                       std::to_string(elementSize) + " bytes)");
    if (view.byteOffset > buffer.size() || view.byteLength > buffer.size() - view.byteOffset)
      return gltfRefusal(m_source, name + ": bufferView " + std::to_string(acc.bufferView) + " (bytes " +
                                       std::to_string(view.byteOffset) + " + " + std::to_string(view.byteLength) +
                                       ") runs past its buffer (" + std::to_string(buffer.size()) + " bytes)");
    // byteOffset + stride * (count - 1) + elementSize <= byteLength, without overflow.
    if (count > 0 && (acc.byteOffset > view.byteLength || view.byteLength - acc.byteOffset < elementSize ||
                      count - 1 > (view.byteLength - acc.byteOffset - elementSize) / stride))
      return gltfRefusal(m_source, name + ": " + std::to_string(count) + " elements from byte " +
                                       std::to_string(acc.byteOffset) + " run past bufferView " +
                                       std::to_string(acc.bufferView) + " (" + std::to_string(view.byteLength) +
                                       " bytes)");
    std::vector<Out> out(count * static_cast<std::size_t>(components), Out{});
    if (count == 0) return out;
    const std::uint8_t* base = buffer.data() + view.byteOffset + acc.byteOffset;
    if (stride == elementSize && componentSize == sizeof(Out) && !acc.normalized &&
        acc.componentType ==
            (std::is_floating_point_v<Out> ? TINYGLTF_COMPONENT_TYPE_FLOAT : TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)) {
      std::memcpy(out.data(), base,
                  out.size() * sizeof(Out));  // the meshers' layout: tightly packed
      return out;
    }
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint8_t* element = base + i * stride;
      for (int c = 0; c < components; ++c)
        out[i * components + c] =
            static_cast<Out>(component(element + c * componentSize, acc.componentType, acc.normalized));
    }
    return out;
  }

 private:
  static double component(const std::uint8_t* p, int type, bool normalized) {
    switch (type) {
      case TINYGLTF_COMPONENT_TYPE_FLOAT: {
        float v;
        std::memcpy(&v, p, 4);
        return v;
      }
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return normalized ? *p / 255.0 : *p;
      case TINYGLTF_COMPONENT_TYPE_BYTE: {
        auto v = static_cast<std::int8_t>(*p);
        return normalized ? std::max(v / 127.0, -1.0) : v;
      }
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
        std::uint16_t v;
        std::memcpy(&v, p, 2);
        return normalized ? v / 65535.0 : v;
      }
      case TINYGLTF_COMPONENT_TYPE_SHORT: {
        std::int16_t v;
        std::memcpy(&v, p, 2);
        return normalized ? std::max(v / 32767.0, -1.0) : v;
      }
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
      }
      default: return 0.0;
    }
  }

  const tinygltf::Model& m_model;
  std::string_view m_source;
  std::size_t m_fileBytes;
};

// Triangle list from a primitive's (possibly absent) indices and its mode.
inline std::vector<std::uint32_t> gltfTriangles(const std::vector<std::uint32_t>& idx, int mode) {
  if (mode == TINYGLTF_MODE_TRIANGLES) return idx;
  std::vector<std::uint32_t> out;
  for (std::size_t i = 2; i < idx.size(); ++i) {
    if (mode == TINYGLTF_MODE_TRIANGLE_STRIP) {
      if (i % 2 == 0)
        out.insert(out.end(), {idx[i - 2], idx[i - 1], idx[i]});
      else
        out.insert(out.end(), {idx[i - 1], idx[i - 2], idx[i]});
    } else {  // fan
      out.insert(out.end(), {idx[0], idx[i - 1], idx[i]});
    }
  }
  return out;
}

}  // namespace riglens::core
