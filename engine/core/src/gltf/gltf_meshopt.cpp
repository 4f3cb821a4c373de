#include "gltf/gltf_meshopt.h"

#include <meshoptimizer.h>

#include <array>
#include <limits>
#include <string>

#include "gltf/gltf_accessor_reader.h"
#include "riglens/core/base/json_reader.h"

namespace riglens::core {

namespace {

constexpr const char* kMeshoptExtension = "EXT_meshopt_compression";

// meshoptimizer's codecs shrink data by at most about 64x (a group of 16
// zero bytes takes 2 header bits), so a view claiming more than this from
// its compressed bytes is refused before anything is allocated.
constexpr std::size_t kMaxRatio = 64, kSlack = 1 << 16;

std::optional<JsonRef> extensionOf(const JsonRef& object) {
  const auto extensions = object.find("extensions");
  if (!extensions) return std::nullopt;
  extensions->object();
  return extensions->find(kMeshoptExtension);
}

// One bufferView's extension object, read and checked against the layouts
// the extension allows (its specification's "Mode" and "Filter") and what
// its compressed bytes can hold; `*compressedBytes` and `*byteOffset` locate them.
MeshoptView readMeshoptView(const JsonRef& ext, std::size_t i, std::size_t* compressedBytes, std::int64_t* byteOffset) {
  ext.object();
  MeshoptView m;
  m.view = int(i);
  m.stride = std::size_t(ext["byteStride"].integer(1, 256));
  m.count = ext["count"].count(std::numeric_limits<std::uint32_t>::max());
  m.mode = ext["mode"].choice(
      std::array<std::pair<const char*, MeshoptView::Mode>, 3>{{{"ATTRIBUTES", MeshoptView::Mode::Attributes},
                                                                {"TRIANGLES", MeshoptView::Mode::Triangles},
                                                                {"INDICES", MeshoptView::Mode::Indices}}});
  if (const auto filter = ext.find("filter"))
    m.filter = filter->choice(std::array<std::pair<const char*, MeshoptView::Filter>, 4>{
        {{"NONE", MeshoptView::Filter::None},
         {"OCTAHEDRAL", MeshoptView::Filter::Octahedral},
         {"QUATERNION", MeshoptView::Filter::Quaternion},
         {"EXPONENTIAL", MeshoptView::Filter::Exponential}}});
  const std::size_t compressed = std::size_t(ext["byteLength"].integer(1, std::numeric_limits<std::int64_t>::max()));
  *byteOffset = ext.integerOr("byteOffset", 0, 0, std::numeric_limits<std::int64_t>::max());
  const bool attributes = m.mode == MeshoptView::Mode::Attributes;
  if (attributes && m.stride % 4 != 0) ext["byteStride"].fail("ATTRIBUTES needs a byteStride divisible by 4");
  if (!attributes && m.stride != 2 && m.stride != 4) ext["byteStride"].fail("indices are 2 or 4 bytes");
  if (m.mode == MeshoptView::Mode::Triangles && m.count % 3 != 0)
    ext["count"].fail("TRIANGLES needs a whole number of triangles");
  if (m.filter != MeshoptView::Filter::None) {
    const bool fits = attributes && (m.filter == MeshoptView::Filter::Octahedral   ? m.stride == 4 || m.stride == 8
                                     : m.filter == MeshoptView::Filter::Quaternion ? m.stride == 8
                                                                                   : true);
    if (!fits) ext.fail("the filter does not fit the mode and byteStride");
  }
  if (m.count > (compressed * kMaxRatio + kSlack) / m.stride)
    ext.fail(std::to_string(m.count) + " elements of " + std::to_string(m.stride) + " bytes from " +
             std::to_string(compressed) + " compressed bytes: more than the codec can encode");
  *compressedBytes = compressed;
  return m;
}

}  // namespace

bool usesMeshopt(const nlohmann::json& doc) {
  const auto used = doc.find("extensionsUsed");
  if (used == doc.end() || !used->is_array()) return false;
  for (const auto& name : *used)
    if (name.is_string() && name.get<std::string>() == kMeshoptExtension) return true;
  return false;
}

std::vector<MeshoptView> prepareMeshopt(nlohmann::json& doc) {
  const JsonRef root(doc);
  root.object();
  // Buffers the extension marks as fallbacks and that carry no data: dropped,
  // the others renumbered.
  std::vector<int> newIndex;
  std::vector<bool> dropped;
  if (const auto buffers = root.find("buffers")) {
    int kept = 0;
    for (const JsonRef& buffer : buffers->elements()) {
      buffer.object();
      const auto ext = extensionOf(buffer);
      const bool fallback = ext && ext->object().booleanOr("fallback", false) && !buffer.has("uri");
      dropped.push_back(fallback);
      newIndex.push_back(fallback ? -1 : kept++);
    }
  }
  const auto bufferIndex = [&](const JsonRef& ref) {
    const auto index = std::size_t(ref.integer(0, std::int64_t(newIndex.size()) - 1));
    if (dropped[index]) ref.fail("names a fallback buffer, which holds no data");
    return newIndex[index];
  };

  std::vector<MeshoptView> views;
  std::vector<nlohmann::json> rewritten;
  if (const auto bufferViews = root.find("bufferViews")) {
    const auto elements = bufferViews->elements();
    for (std::size_t i = 0; i < elements.size(); ++i) {
      const JsonRef& view = elements[i].object();
      nlohmann::json out = view.json();
      const auto ext = extensionOf(view);
      if (!ext) {
        out["buffer"] = bufferIndex(view["buffer"]);
        rewritten.push_back(std::move(out));
        continue;
      }
      std::size_t compressed = 0;
      std::int64_t offset = 0;
      const MeshoptView m = readMeshoptView(*ext, i, &compressed, &offset);
      if (std::size_t(view["byteLength"].integer(0, std::numeric_limits<std::int64_t>::max())) != m.count * m.stride)
        view["byteLength"].fail("must be the decoded size, count x byteStride = " + std::to_string(m.count * m.stride));
      out["buffer"] = bufferIndex((*ext)["buffer"]);
      out["byteOffset"] = offset;
      out["byteLength"] = compressed;
      out.erase("byteStride");  // the compressed bytes have none; restored when decoded
      rewritten.push_back(std::move(out));
      views.push_back(m);
    }
  }
  if (doc.contains("bufferViews")) doc["bufferViews"] = std::move(rewritten);
  if (doc.contains("buffers")) {
    nlohmann::json kept = nlohmann::json::array();
    for (std::size_t i = 0; i < dropped.size(); ++i)
      if (!dropped[i]) kept.push_back(doc["buffers"][i]);
    doc["buffers"] = std::move(kept);
  }
  return views;
}

Expected<std::size_t> decodeMeshopt(tinygltf::Model& model, const GltfBuffers& buffers,
                                    const std::vector<MeshoptView>& views, std::string_view source) {
  std::size_t total = 0;
  for (const MeshoptView& m : views) {
    const std::string where = "bufferView " + std::to_string(m.view) + " (" + kMeshoptExtension + ")";
    if (m.view < 0 || m.view >= int(model.bufferViews.size())) return gltfRefusal(source, where + " does not exist");
    tinygltf::BufferView& view = model.bufferViews[std::size_t(m.view)];
    if (view.buffer < 0 || view.buffer >= int(buffers.count()))
      return gltfRefusal(source, where + ": buffer " + std::to_string(view.buffer) + " does not exist");
    const std::size_t bufferSize = buffers.size(view.buffer);
    if (view.byteOffset > bufferSize || view.byteLength > bufferSize - view.byteOffset)
      return gltfRefusal(source, where + ": the compressed bytes run past the end of their buffer");
    auto compressed = buffers.fetch(view.buffer, view.byteOffset, view.byteLength, source);
    if (!compressed) return compressed.error();
    tinygltf::Buffer decoded;
    decoded.data.resize(m.count * m.stride);
    const unsigned char* in = compressed->bytes.data();
    int rc = 0;
    if (m.count > 0) switch (m.mode) {
        case MeshoptView::Mode::Attributes:
          rc = meshopt_decodeVertexBuffer(decoded.data.data(), m.count, m.stride, in, view.byteLength);
          break;
        case MeshoptView::Mode::Triangles:
          rc = meshopt_decodeIndexBuffer(decoded.data.data(), m.count, m.stride, in, view.byteLength);
          break;
        case MeshoptView::Mode::Indices:
          rc = meshopt_decodeIndexSequence(decoded.data.data(), m.count, m.stride, in, view.byteLength);
          break;
      }
    if (rc != 0)
      return gltfRefusal(
          source, where + ": the compressed bytes do not decode (meshoptimizer error " + std::to_string(rc) + ")");
    if (m.count > 0) switch (m.filter) {
        case MeshoptView::Filter::Octahedral: meshopt_decodeFilterOct(decoded.data.data(), m.count, m.stride); break;
        case MeshoptView::Filter::Quaternion: meshopt_decodeFilterQuat(decoded.data.data(), m.count, m.stride); break;
        case MeshoptView::Filter::Exponential: meshopt_decodeFilterExp(decoded.data.data(), m.count, m.stride); break;
        case MeshoptView::Filter::None: break;
      }
    total += decoded.data.size();
    view.buffer = int(model.buffers.size());
    view.byteOffset = 0;
    view.byteLength = decoded.data.size();
    if (m.mode == MeshoptView::Mode::Attributes) view.byteStride = m.stride;
    model.buffers.push_back(std::move(decoded));
  }
  return total;
}

}  // namespace riglens::core
