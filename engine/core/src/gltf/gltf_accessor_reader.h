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

#include "gltf_buffers.h"
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
  AccessorReader(const tinygltf::Model& model, const GltfBuffers& buffers, std::string_view source,
                 std::size_t fileBytes)
      : m_model(model), m_buffers(buffers), m_source(source), m_fileBytes(fileBytes) {}

  // Floats for attributes; integers (exact past 2^24) for indices and joints,
  // which glTF stores as unsigned integers only. A sparse accessor is its
  // base (its bufferView, or zeros) with `sparse.count` elements replaced.
  template <class Out>
  Expected<std::vector<Out>> read(int accessorIndex, const std::string& what, int* componentsOut) const {
    if (accessorIndex < 0 || accessorIndex >= static_cast<int>(m_model.accessors.size()))
      return gltfRefusal(m_source, what + ": accessor " + std::to_string(accessorIndex) + " does not exist");
    const tinygltf::Accessor& acc = m_model.accessors[accessorIndex];
    const std::string name = what + " (accessor " + std::to_string(accessorIndex) + ")";
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
    if (acc.bufferView < 0 && count > m_fileBytes / elementSize)  // zeros, as glTF says; no more than a file holds
      return gltfRefusal(m_source, name + ": " + std::to_string(count) +
                                       " elements without a bufferView, more than the file could hold");
    // The elements are checked against their view before anything is allocated.
    Expected<Elements> base = Elements{};
    if (acc.bufferView >= 0) base = elements(acc.bufferView, acc.byteOffset, count, elementSize, true, name);
    if (!base) return base.error();
    std::vector<Out> out(count * static_cast<std::size_t>(components), Out{});
    if (acc.bufferView >= 0) convert(base->first(), base->stride, count, acc, components, componentSize, out.data());
    if (acc.sparse.isSparse)
      if (auto ok = applySparse(acc, name, components, componentSize, out); !ok) return ok.error();
    return out;
  }

 private:
  struct Elements {
    FetchedBytes fetched;  // from the first element to the end of the last
    std::size_t stride = 0;
    const std::uint8_t* first() const { return fetched.bytes.data(); }
  };

  // Where `count` elements of `elementSize` bytes start in bufferView `viewIndex`
  // from `byteOffset`, checked against the view and its buffer with no
  // arithmetic that can wrap. Sparse indices and values are tightly packed.
  Expected<Elements> elements(int viewIndex, std::size_t byteOffset, std::size_t count, std::size_t elementSize,
                              bool strided, const std::string& name) const {
    const std::string viewName = "bufferView " + std::to_string(viewIndex);
    if (viewIndex < 0 || viewIndex >= static_cast<int>(m_model.bufferViews.size()))
      return gltfRefusal(m_source, name + ": " + viewName + " does not exist");
    const tinygltf::BufferView& view = m_model.bufferViews[viewIndex];
    if (view.buffer < 0 || view.buffer >= static_cast<int>(m_buffers.count()))
      return gltfRefusal(m_source, name + ": buffer " + std::to_string(view.buffer) + " does not exist");
    const std::size_t bufferSize = m_buffers.size(view.buffer);
    const std::size_t stride = strided && view.byteStride ? view.byteStride : elementSize;
    if (stride < elementSize)
      return gltfRefusal(m_source, name + ": " + viewName + " byteStride " + std::to_string(stride) +
                                       " is shorter than one element (" + std::to_string(elementSize) + " bytes)");
    if (view.byteOffset > bufferSize || view.byteLength > bufferSize - view.byteOffset)
      return gltfRefusal(m_source, name + ": " + viewName + " (bytes " + std::to_string(view.byteOffset) + " + " +
                                       std::to_string(view.byteLength) + ") runs past its buffer (" +
                                       std::to_string(bufferSize) + " bytes)");
    // byteOffset + stride * (count - 1) + elementSize <= byteLength, without overflow.
    if (count > 0 && (byteOffset > view.byteLength || view.byteLength - byteOffset < elementSize ||
                      count - 1 > (view.byteLength - byteOffset - elementSize) / stride))
      return gltfRefusal(m_source, name + ": " + std::to_string(count) + " elements from byte " +
                                       std::to_string(byteOffset) + " run past " + viewName + " (" +
                                       std::to_string(view.byteLength) + " bytes)");
    const std::size_t span = count == 0 ? 0 : stride * (count - 1) + elementSize;
    auto fetched = m_buffers.fetch(view.buffer, view.byteOffset + byteOffset, span, m_source);
    if (!fetched) return fetched.error();
    return Elements{std::move(fetched).value(), stride};
  }

  template <class Out>
  static void convert(const std::uint8_t* first, std::size_t stride, std::size_t count, const tinygltf::Accessor& acc,
                      int components, int componentSize, Out* out) {
    const std::size_t elementSize = static_cast<std::size_t>(components * componentSize);
    if (count == 0) return;
    if (stride == elementSize && componentSize == sizeof(Out) && !acc.normalized &&
        acc.componentType ==
            (std::is_floating_point_v<Out> ? TINYGLTF_COMPONENT_TYPE_FLOAT : TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)) {
      std::memcpy(out, first, count * elementSize);  // the meshers' layout: tightly packed
      return;
    }
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint8_t* element = first + i * stride;
      for (int c = 0; c < components; ++c)
        out[i * components + c] =
            static_cast<Out>(component(element + c * componentSize, acc.componentType, acc.normalized));
    }
  }

  // glTF 2.0, 3.6.2.3: `sparse.count` indices (strictly increasing, each
  // below the accessor's count) and as many values of the accessor's type.
  template <class Out>
  Expected<void> applySparse(const tinygltf::Accessor& acc, const std::string& name, int components, int componentSize,
                             std::vector<Out>& out) const {
    const auto& sparse = acc.sparse;
    const std::string where = name + " sparse";
    if (sparse.count < 1 || static_cast<std::size_t>(sparse.count) > acc.count)
      return gltfRefusal(m_source, where + ": count " + std::to_string(sparse.count) + " is not within 1.." +
                                       std::to_string(acc.count));
    if (sparse.indices.byteOffset < 0 || sparse.values.byteOffset < 0)
      return gltfRefusal(m_source, where + ": a negative byteOffset");
    const int indexType = sparse.indices.componentType;
    if (indexType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && indexType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
        indexType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
      return gltfRefusal(m_source, where + " indices: componentType " + std::to_string(indexType) +
                                       " is not an unsigned integer type");
    const auto count = static_cast<std::size_t>(sparse.count);
    const auto indexSize = static_cast<std::size_t>(tinygltf::GetComponentSizeInBytes(indexType));
    auto indices = elements(sparse.indices.bufferView, std::size_t(sparse.indices.byteOffset), count, indexSize, false,
                            where + " indices");
    if (!indices) return indices.error();
    const std::size_t elementSize = static_cast<std::size_t>(components * componentSize);
    auto values = elements(sparse.values.bufferView, std::size_t(sparse.values.byteOffset), count, elementSize, false,
                           where + " values");
    if (!values) return values.error();
    double previous = -1;
    for (std::size_t i = 0; i < count; ++i) {
      const double index = component(indices->first() + i * indexSize, indexType, false);
      if (index <= previous || index >= static_cast<double>(acc.count))
        return gltfRefusal(m_source, where + " indices: index " + std::to_string(i) + " (" +
                                         std::to_string(static_cast<std::uint64_t>(index)) +
                                         ") is not above the previous one and below the count " +
                                         std::to_string(acc.count));
      previous = index;
      convert(values->first() + i * elementSize, elementSize, 1, acc, components, componentSize,
              out.data() + static_cast<std::size_t>(index) * static_cast<std::size_t>(components));
    }
    return {};
  }

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
  const GltfBuffers& m_buffers;
  std::string_view m_source;
  std::size_t m_fileBytes;
};

// glTF's primitive modes are 0-6 (points, lines, line loop, line strip,
// triangles, strip, fan); tinygltf reads an absent mode as 4. A value
// outside them (tinygltf's own -1 default, written out by some tools) is
// read as the default, triangles, and the reader warns.
inline bool isGltfPrimitiveMode(int mode) {
  return mode >= TINYGLTF_MODE_POINTS && mode <= TINYGLTF_MODE_TRIANGLE_FAN;
}
inline int drawnPrimitiveMode(int mode) {
  return isGltfPrimitiveMode(mode) ? mode : TINYGLTF_MODE_TRIANGLES;
}
inline bool isTriangleMode(int mode) {
  return mode == TINYGLTF_MODE_TRIANGLES || mode == TINYGLTF_MODE_TRIANGLE_STRIP || mode == TINYGLTF_MODE_TRIANGLE_FAN;
}

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
