#include "riglens/core/gltf/glb_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <tiny_gltf.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <glm/gtc/matrix_inverse.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <limits>
#include <optional>
#include <set>
#include <type_traits>
#include <utility>

#include "gltf_accessor_reader.h"
#include "gltf_draco.h"
#include "gltf_materials.h"
#include "gltf_meshopt.h"
#include "gltf_model_file.h"
#include "gltf_tangents.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_file.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/model_import/assimp_model.h"

namespace riglens::core {
namespace {

constexpr std::uint32_t kGlbMagic = 0x46546C67u;  // "glTF"
constexpr std::uint32_t kJsonChunk = 0x4E4F534Au;
constexpr std::uint32_t kBinChunk = 0x004E4942u;

std::uint32_t readU32(std::span<const std::uint8_t> bytes, std::size_t at) {
  std::uint32_t v;
  std::memcpy(&v, bytes.data() + at, 4);
  return v;  // glTF is little-endian, as every platform we build for
}

Error refuse(std::string_view source, const std::string& problem, ErrorCode code = ErrorCode::Parse) {
  return gltfRefusal(source, problem, code);
}

// The GLB container checks tinygltf makes too, but with messages a user can
// act on; and the JSON chunk, to recognise the socket file.
Expected<std::string> checkGlbContainer(std::span<const std::uint8_t> bytes, std::string_view source) {
  if (bytes.size() < 12)
    return refuse(source, "file too short for a GLB header (" + std::to_string(bytes.size()) + " bytes)");
  if (readU32(bytes, 0) != kGlbMagic) return refuse(source, "bad magic: not a GLB file");
  if (const auto version = readU32(bytes, 4); version != 2)
    return refuse(source, "GLB version " + std::to_string(version) + " is not 2");
  const std::uint64_t declared = readU32(bytes, 8);
  if (declared != bytes.size())
    return refuse(source, "header says " + std::to_string(declared) + " bytes but the file has " +
                              std::to_string(bytes.size()) + " (truncated or padded)");
  if (bytes.size() < 20) return refuse(source, "no JSON chunk");
  const std::uint64_t jsonLength = readU32(bytes, 12);
  if (readU32(bytes, 16) != kJsonChunk) return refuse(source, "first chunk is not JSON");
  if (20 + jsonLength > bytes.size())
    return refuse(source, "JSON chunk length " + std::to_string(jsonLength) + " runs past the end of the file");
  std::size_t at = 20 + jsonLength;
  while (at < bytes.size()) {  // any further chunks must fit too
    if (at + 8 > bytes.size()) return refuse(source, "truncated chunk header at byte " + std::to_string(at));
    const std::uint64_t length = readU32(bytes, at);
    if (at + 8 + length > bytes.size())
      return refuse(source, "chunk at byte " + std::to_string(at) + " declares " + std::to_string(length) +
                                " bytes, past the end of the file");
    at += 8 + length;
  }
  return std::string(reinterpret_cast<const char*>(bytes.data()) + 20, jsonLength);
}

glm::dmat4 nodeMatrix(const tinygltf::Node& node) {
  if (node.matrix.size() == 16) return glm::make_mat4(node.matrix.data());
  glm::dmat4 m(1.0);
  if (node.translation.size() == 3)
    m[3] = glm::dvec4(node.translation[0], node.translation[1], node.translation[2], 1.0);
  if (node.rotation.size() == 4)
    m = m * glm::mat4_cast(glm::dquat(node.rotation[3], node.rotation[0], node.rotation[1], node.rotation[2]));
  if (node.scale.size() == 3) m = glm::scale(m, glm::dvec3(node.scale[0], node.scale[1], node.scale[2]));
  return m;
}

class MeshAssembler {
 public:
  // Node transforms are baked into the vertices, so a mesh used by many nodes
  // is copied once per node. The copies may not grow past kInstancingBudget
  // times what the file holds (a small file naming one big mesh from a
  // hundred thousand nodes is refused, not expanded).
  static constexpr std::size_t kInstancingBudget = 64;

  MeshAssembler(const tinygltf::Model& model, const GltfBuffers& buffers, std::string_view source,
                std::size_t fileBytes)
      : m_model(model),
        m_source(source),
        m_reader(model, buffers, source, fileBytes),
        m_materials(model, source, m_out.warnings),
        m_vertexBudget(std::max<std::size_t>(fileBytes, 1 << 16) / 12 * kInstancingBudget) {}

  Expected<DecodedGltf> run() {
    const bool skinned = !m_model.skins.empty();
    m_posable = skinned || !m_model.animations.empty() ||
                std::any_of(m_model.meshes.begin(), m_model.meshes.end(), [](const tinygltf::Mesh& mesh) {
                  return std::any_of(mesh.primitives.begin(), mesh.primitives.end(),
                                     [](const tinygltf::Primitive& p) { return !p.targets.empty(); });
                });
    std::vector<int> roots;
    const int sceneIndex = m_model.defaultScene >= 0 ? m_model.defaultScene : 0;
    if (sceneIndex < static_cast<int>(m_model.scenes.size())) {
      roots = m_model.scenes[sceneIndex].nodes;
    } else {  // no scene: every node that is nobody's child
      std::vector<bool> isChild(m_model.nodes.size(), false);
      for (const auto& n : m_model.nodes)
        for (int c : n.children)
          if (c >= 0 && c < static_cast<int>(isChild.size())) isChild[c] = true;
      for (std::size_t i = 0; i < isChild.size(); ++i)
        if (!isChild[i]) roots.push_back(static_cast<int>(i));
    }
    reserveMesh();
    // Depth-first, with an explicit stack: a file may nest nodes as deep as it likes.
    std::vector<int> visited(m_model.nodes.size(), 0);
    std::vector<std::pair<int, glm::dmat4>> stack;
    for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.emplace_back(*it, glm::dmat4(1.0));
    while (!stack.empty()) {
      const auto [index, parent] = stack.back();
      stack.pop_back();
      if (index < 0 || index >= static_cast<int>(m_model.nodes.size()))
        return refuse(m_source, "node " + std::to_string(index) + " does not exist");
      if (visited[index]++)
        return refuse(m_source, "node " + std::to_string(index) + " appears twice in the scene graph");
      const auto& node = m_model.nodes[index];
      const glm::dmat4 world = parent * nodeMatrix(node);
      if (node.mesh >= 0) {
        if (node.mesh >= static_cast<int>(m_model.meshes.size()))
          return refuse(m_source,
                        "node " + std::to_string(index) + ": mesh " + std::to_string(node.mesh) + " does not exist");
        for (std::size_t p = 0; p < m_model.meshes[node.mesh].primitives.size(); ++p) {
          // A skinned primitive is posed by its bones, not by its node's
          // transform; a file with a skin may also hold meshes without one,
          // placed by their node.
          const auto& attributes = m_model.meshes[node.mesh].primitives[p].attributes;
          const bool bySkin = skinned && attributes.count("JOINTS_0") && attributes.count("WEIGHTS_0");
          if (auto ok = addPrimitive(node.mesh, p, bySkin ? glm::dmat4(1.0) : world, index); !ok) return ok.error();
        }
      }
      for (auto child = node.children.rbegin(); child != node.children.rend(); ++child)
        stack.emplace_back(*child, world);
    }

    if (!m_anyNormalsMissing) {
      // every primitive had normals
    } else {
      const auto computed = computeVertexNormals(m_out.mesh);
      for (std::size_t v = 0; v < m_needsNormal.size(); ++v)
        if (m_needsNormal[v])
          for (int c = 0; c < 3; ++c) m_out.mesh.normals[v * 3 + c] = computed[v * 3 + c];
    }
    if (m_posable) {
      if (auto ok = readSkin(); !ok) return ok.error();
    }
    if (!m_out.morph.empty()) m_out.morph.rangeOfVertex.resize(m_out.mesh.vertexCount(), MorphData::kNoRange);
    m_out.materials = m_materials.take();
    m_tangents.finish(m_out.mesh, m_out.materials);
    return std::move(m_out);
  }

 private:
  // Room for every node's primitives up front (within the vertex budget):
  // growing the arrays primitive by primitive copies a large file's vertices
  // over and over.
  void reserveMesh() {
    std::size_t vertices = 0, indices = 0;
    for (const auto& node : m_model.nodes) {
      if (node.mesh < 0 || node.mesh >= static_cast<int>(m_model.meshes.size())) continue;
      for (const auto& prim : m_model.meshes[std::size_t(node.mesh)].primitives) {
        const auto pos = prim.attributes.find("POSITION");
        if (pos == prim.attributes.end() || pos->second < 0 || pos->second >= int(m_model.accessors.size())) continue;
        const std::size_t count = m_model.accessors[std::size_t(pos->second)].count;
        const bool indexed = prim.indices >= 0 && prim.indices < int(m_model.accessors.size());
        vertices += count;
        indices += indexed ? m_model.accessors[std::size_t(prim.indices)].count : count;
      }
    }
    if (vertices > m_vertexBudget || indices > m_vertexBudget * 6) return;  // run() refuses it, or it is odd: no guess
    PartMesh& mesh = m_out.mesh;
    mesh.positions.reserve(vertices * 3);
    mesh.normals.reserve(vertices * 3);
    mesh.colors.reserve(vertices * 3);
    mesh.indices.reserve(indices);
    if (m_posable && m_model.skins.empty()) {  // one bone a vertex
      m_skin.rigid.reserve(vertices);
    } else if (m_posable) {  // four influences a vertex
      m_skin.joints.reserve(vertices * 4);
      m_skin.weights.reserve(vertices * 4);
    }
  }

  Expected<void> addPrimitive(int meshIndex, std::size_t primIndex, const glm::dmat4& world, int node) {
    const auto& prim = m_model.meshes[meshIndex].primitives[primIndex];
    const std::string where = "mesh " + std::to_string(meshIndex) + " primitive " + std::to_string(primIndex);
    const std::string pointer = "/meshes/" + std::to_string(meshIndex) + "/primitives/" + std::to_string(primIndex);
    // Said once, at the first: a tool that leaves the mode unset does so on
    // every primitive, and a warning each would bury the Problems panel.
    if (!isGltfPrimitiveMode(prim.mode) && !std::exchange(m_oddModeWarned, true))
      m_out.warnings.push_back({std::string(m_source), pointer + "/mode",
                                "mode " + std::to_string(prim.mode) +
                                    " is not a glTF primitive mode (0-6): drawn as triangles, the default, as is "
                                    "every primitive with such a mode (said for the first)"});
    const int mode = drawnPrimitiveMode(prim.mode);
    if (!isTriangleMode(mode)) {
      m_out.warnings.push_back(
          {std::string(m_source), pointer, "points/lines primitive skipped (only triangles are drawn)"});
      return {};
    }
    auto posIt = prim.attributes.find("POSITION");
    if (posIt == prim.attributes.end()) return refuse(m_source, where + ": no POSITION attribute");
    int comps = 0;
    auto positions = m_reader.read<float>(posIt->second, where + " POSITION", &comps);
    if (!positions) return positions.error();
    if (comps != 3) return refuse(m_source, where + " POSITION: expected VEC3");
    const std::size_t count = positions->size() / 3;
    const std::size_t base = m_out.mesh.vertexCount();
    if (count > m_vertexBudget - std::min(m_vertexBudget, base))
      return refuse(m_source, where + ": the nodes place more than " + std::to_string(m_vertexBudget) +
                                  " vertices, over " + std::to_string(kInstancingBudget) +
                                  " times what the file holds");
    auto normals = readPerVertex(prim, "NORMAL", where, count, {3}, "one VEC3 per vertex");
    if (!normals) return normals.error();
    auto tangents = readPerVertex(prim, "TANGENT", where, count, {4}, "one VEC4 per vertex");
    if (!tangents) return tangents.error();
    auto colors = readPerVertex(prim, "COLOR_0", where, count, {3, 4}, "one VEC3 or VEC4 per vertex");
    if (!colors) return colors.error();
    auto indices = readTriangleIndices(prim, where, count, mode);
    if (!indices) return indices.error();

    if (auto placed = appendPositions(*positions, count, world, where); !placed) return placed;
    appendNormals(normals->first, count, world);
    const glm::dmat3 world3(world);
    m_tangents.addPrimitive(tangents->first, count, &world3[0][0]);
    appendColors(*colors, count, prim);
    auto& mesh = m_out.mesh;
    const std::size_t firstIndex = mesh.indices.size();
    mesh.indices.reserve(mesh.indices.size() + indices->size());
    for (auto i : *indices) mesh.indices.push_back(static_cast<std::uint32_t>(base + i));
    if (auto ok = m_materials.addPrimitive(prim, where, base, count, firstIndex, indices->size(), node, m_reader); !ok)
      return ok;

    if (auto ok = addMorphTargets(prim, where, base, count, node, world); !ok) return ok;
    if (m_posable) return addSkinAttributes(prim, where, count, node, world, pointer);
    return {};
  }

  // An optional float attribute with `count` rows of one of `widths`
  // components (empty when absent), and its width.
  Expected<std::pair<std::vector<float>, int>> readPerVertex(const tinygltf::Primitive& prim, const char* name,
                                                             const std::string& where, std::size_t count,
                                                             std::initializer_list<int> widths, const char* expected) {
    const auto it = prim.attributes.find(name);
    if (it == prim.attributes.end()) return std::pair<std::vector<float>, int>{};
    int comps = 0;
    auto read = m_reader.read<float>(it->second, where + " " + name, &comps);
    if (!read) return read.error();
    if (std::find(widths.begin(), widths.end(), comps) == widths.end() || read->size() != count * std::size_t(comps))
      return refuse(m_source, where + " " + name + ": expected " + expected);
    return std::pair{std::move(read).value(), comps};
  }

  // The primitive's triangles as a list (strips and fans unrolled), each index
  // checked against its `count` vertices; no indices: 0..count-1.
  Expected<std::vector<std::uint32_t>> readTriangleIndices(const tinygltf::Primitive& prim, const std::string& where,
                                                           std::size_t count, int mode) {
    std::vector<std::uint32_t> indices;
    if (prim.indices >= 0) {
      int comps = 0;
      auto read = m_reader.read<std::uint32_t>(prim.indices, where + " indices", &comps);
      if (!read) return read.error();
      if (comps != 1) return refuse(m_source, where + " indices: expected SCALAR");
      const auto type = m_model.accessors[prim.indices].componentType;
      if (type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
          type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
        return refuse(m_source, where + " indices: component type must be an unsigned integer");
      for (std::size_t i = 0; i < read->size(); ++i)
        if ((*read)[i] >= count)
          return refuse(m_source, where + ": index " + std::to_string((*read)[i]) + " at position " +
                                      std::to_string(i) + " is past the vertex count " + std::to_string(count));
      indices = std::move(read).value();
    } else {
      for (std::size_t i = 0; i < count; ++i) indices.push_back(static_cast<std::uint32_t>(i));
    }
    indices = gltfTriangles(indices, mode);
    if (mode == TINYGLTF_MODE_TRIANGLES && indices.size() % 3 != 0)
      return refuse(m_source,
                    where + ": " + std::to_string(indices.size()) + " indices is not a whole number of triangles");
    return indices;
  }

  // The positions placed by the node's world matrix; refused when one is not
  // finite, in the file or once placed.
  Expected<void> appendPositions(const std::vector<float>& positions, std::size_t count, const glm::dmat4& world,
                                 const std::string& where) {
    auto& mesh = m_out.mesh;
    for (std::size_t i = 0; i < positions.size(); ++i)
      if (!std::isfinite(positions[i]))
        return refuse(m_source, where + " POSITION: vertex " + std::to_string(i / 3) + " is not finite");
    if (world == glm::dmat4(1.0)) {
      mesh.positions.insert(mesh.positions.end(), positions.begin(), positions.end());
      return {};
    }
    for (std::size_t v = 0; v < count; ++v) {
      const glm::dvec4 p = world * glm::dvec4(positions[v * 3], positions[v * 3 + 1], positions[v * 3 + 2], 1.0);
      for (int k = 0; k < 3; ++k)
        if (!(std::abs(p[k]) <= 1e37))  // NaN, or a node transform that throws it past a float
          return refuse(m_source,
                        where + " POSITION: vertex " + std::to_string(v) + " is not finite once placed by its node");
      mesh.positions.insert(mesh.positions.end(), {float(p.x), float(p.y), float(p.z)});
    }
    return {};
  }

  // The normals turned by the node (unit length); none: zeros, to be made
  // from the faces once every primitive is in.
  void appendNormals(const std::vector<float>& normals, std::size_t count, const glm::dmat4& world) {
    auto& mesh = m_out.mesh;
    if (normals.empty()) {
      mesh.normals.insert(mesh.normals.end(), count * 3, 0.0f);
      m_needsNormal.insert(m_needsNormal.end(), count, true);
      m_anyNormalsMissing = true;
      return;
    }
    const bool identity = world == glm::dmat4(1.0);
    const glm::dmat3 normalMatrix = glm::inverseTranspose(glm::dmat3(world));
    mesh.normals.reserve(mesh.normals.size() + count * 3);
    for (std::size_t v = 0; v < count; ++v) {
      glm::dvec3 n(normals[v * 3], normals[v * 3 + 1], normals[v * 3 + 2]);
      if (!identity) n = normalMatrix * n;
      const double len = glm::length(n);
      n = len > 0 ? n / len : glm::dvec3(0, 1, 0);
      mesh.normals.insert(mesh.normals.end(), {float(n.x), float(n.y), float(n.z)});
    }
    m_needsNormal.insert(m_needsNormal.end(), count, false);
  }

  // Base colour = COLOR_0 x baseColorFactor (glTF 2.0 section 3.9.2); without
  // COLOR_0 the factor, and grey without a material.
  void appendColors(const std::pair<std::vector<float>, int>& colors, std::size_t count,
                    const tinygltf::Primitive& prim) {
    std::array<double, 3> baseFactor{1.0, 1.0, 1.0}, fallbackColor{0.8, 0.8, 0.8};
    if (prim.material >= 0 && prim.material < static_cast<int>(m_model.materials.size())) {
      const auto& factor = m_model.materials[prim.material].pbrMetallicRoughness.baseColorFactor;
      if (factor.size() >= 3) fallbackColor = baseFactor = {factor[0], factor[1], factor[2]};
    }
    auto& out = m_out.mesh.colors;
    const auto& [values, width] = colors;
    for (std::size_t v = 0; v < count; ++v)
      for (std::size_t c = 0; c < 3; ++c)
        out.push_back(values.empty() ? float(fallbackColor[c])
                                     : values[v * std::size_t(width) + c] * float(baseFactor[c]));
  }

  // One set of joint influences (JOINTS_n / WEIGHTS_n), checked.
  Expected<std::pair<std::vector<std::uint32_t>, std::vector<float>>> readInfluences(const tinygltf::Primitive& prim,
                                                                                     const std::string& where,
                                                                                     std::size_t count, int set) {
    const std::string jName = "JOINTS_" + std::to_string(set), wName = "WEIGHTS_" + std::to_string(set);
    const auto jIt = prim.attributes.find(jName);
    const auto wIt = prim.attributes.find(wName);
    if (jIt == prim.attributes.end() || wIt == prim.attributes.end())
      return refuse(m_source, where + ": " + jName + " and " + wName + " come in pairs");
    int comps = 0;
    auto joints = m_reader.read<std::uint32_t>(jIt->second, where + " " + jName, &comps);
    if (!joints) return joints.error();
    if (comps != 4 || joints->size() != count * 4)
      return refuse(m_source, where + " " + jName + ": expected one VEC4 per vertex");
    if (std::any_of(joints->begin(), joints->end(), [](std::uint32_t j) { return j > 0xffffu; }))
      return refuse(m_source, where + " " + jName + ": joint indices are unsigned bytes or shorts");
    auto weights = m_reader.read<float>(wIt->second, where + " " + wName, &comps);
    if (!weights) return weights.error();
    if (comps != 4 || weights->size() != count * 4)
      return refuse(m_source, where + " " + wName + ": expected one VEC4 per vertex");
    return std::pair{std::move(joints).value(), std::move(weights).value()};
  }

  Expected<void> addSkinAttributes(const tinygltf::Primitive& prim, const std::string& where, std::size_t count,
                                   int node, const glm::dmat4& world, const std::string& pointer) {
    const auto has = [&](const char* name) { return prim.attributes.count(name) > 0; };
    if (!has("JOINTS_0") && !has("WEIGHTS_0")) {
      // Not skinned (placed at its node's world): bound whole to its node's
      // bone, which follows the node from its rest world (readSkin).
      const auto known = std::find_if(m_nodeBones.begin(), m_nodeBones.end(), [&](auto& b) { return b.node == node; });
      const auto slot = std::uint32_t(known - m_nodeBones.begin());
      if (known == m_nodeBones.end()) m_nodeBones.push_back({node, world});
      const std::uint32_t bone = kNodeBone | slot;
      if (m_model.skins.empty()) {  // a skinless file: one bone a vertex (SkinData::rigid)
        m_skin.rigid.insert(m_skin.rigid.end(), count, bone);
        return {};
      }
      for (std::size_t v = 0; v < count; ++v) {
        m_skin.joints.insert(m_skin.joints.end(), {bone, 0, 0, 0});
        m_skin.weights.insert(m_skin.weights.end(), {1.0f, 0.0f, 0.0f, 0.0f});
      }
      return {};
    }
    auto first = readInfluences(prim, where, count, 0);
    if (!first) return first.error();
    auto& [joints, weights] = *first;
    if (has("JOINTS_1") || has("WEIGHTS_1")) {
      auto second = readInfluences(prim, where, count, 1);
      if (!second) return second.error();
      keepFourLargest(joints, weights, second->first, second->second, pointer);
    }
    m_skin.joints.insert(m_skin.joints.end(), joints.begin(), joints.end());
    m_skin.weights.insert(m_skin.weights.end(), weights.begin(), weights.end());
    return {};
  }

  // The viewer skins with 4 influences a vertex (one uvec4 / vec4, the GPU
  // pass's layout): of 8, each vertex keeps its 4 largest, renormalised to
  // the weight they had together — as engines with a 4-bone limit do — and
  // the file is told how much weight that dropped. (core::GltfScene keeps
  // all 8: riglens-cli pose --vertices is exact.)
  void keepFourLargest(std::vector<std::uint32_t>& joints, std::vector<float>& weights,
                       const std::vector<std::uint32_t>& moreJoints, const std::vector<float>& moreWeights,
                       const std::string& pointer) {
    std::size_t changed = 0;
    float mostDropped = 0.0f;
    for (std::size_t v = 0; v < weights.size() / 4; ++v) {
      std::array<std::pair<float, std::uint32_t>, 8> all;
      for (std::size_t k = 0; k < 4; ++k) {
        all[k] = {weights[v * 4 + k], joints[v * 4 + k]};
        all[k + 4] = {moreWeights[v * 4 + k], moreJoints[v * 4 + k]};
      }
      std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
      float total = 0.0f, kept = 0.0f;
      for (std::size_t k = 0; k < 8; ++k) total += all[k].first;
      for (std::size_t k = 0; k < 4; ++k) kept += all[k].first;
      if (total - kept > 0.0f) {
        ++changed;
        mostDropped = std::max(mostDropped, total > 0.0f ? (total - kept) / total : 0.0f);
      }
      for (std::size_t k = 0; k < 4; ++k) {
        joints[v * 4 + k] = all[k].second;
        weights[v * 4 + k] = kept > 0.0f ? all[k].first * total / kept : all[k].first;
      }
    }
    if (changed == 0) return;
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%", 100.0 * double(mostDropped));
    m_out.warnings.push_back({std::string(m_source), pointer + "/attributes/JOINTS_1",
                              "8 joint influences per vertex: the viewer keeps each vertex's 4 largest, "
                              "renormalised (" +
                                  std::to_string(changed) + " vertices lost up to " + share + " of their weight)"});
  }

  // The primitive's morph targets, placed as its vertices were (the node's
  // linear part on deltas; its inverse transpose on normal deltas).
  Expected<void> addMorphTargets(const tinygltf::Primitive& prim, const std::string& where, std::size_t base,
                                 std::size_t count, int node, const glm::dmat4& world) {
    if (prim.targets.empty()) return {};
    MorphData& morph = m_out.morph;
    const std::size_t floats = count * 3 * prim.targets.size();
    if (floats > m_vertexBudget * 3 * 8 - std::min(m_vertexBudget * 3 * 8, morph.positionDeltas.size()))
      return refuse(m_source, where + ": its morph targets would hold more than " + std::to_string(m_vertexBudget * 8) +
                                  " vertices' deltas");
    MorphData::Range range{std::uint32_t(base), std::uint32_t(count), std::uint32_t(morph.slotCount()),
                           std::uint32_t(prim.targets.size()), node};
    const glm::dmat3 linear(world), normalMatrix = glm::inverseTranspose(glm::dmat3(world));
    for (std::size_t t = 0; t < prim.targets.size(); ++t) {
      const std::size_t offset = morph.positionDeltas.size();
      morph.slotOffsets.push_back(std::uint32_t(offset));
      for (const char* attribute : {"POSITION", "NORMAL"}) {
        std::vector<float>& out = attribute[0] == 'P' ? morph.positionDeltas : morph.normalDeltas;
        const auto it = prim.targets[t].find(attribute);
        if (it == prim.targets[t].end()) {
          out.insert(out.end(), count * 3, 0.0f);
          continue;
        }
        int comps = 0;
        const std::string what = where + " target " + std::to_string(t) + " " + attribute;
        auto deltas = m_reader.read<float>(it->second, what, &comps);
        if (!deltas) return deltas.error();
        if (comps != 3 || deltas->size() != count * 3) return refuse(m_source, what + ": expected one VEC3 per vertex");
        const glm::dmat3& m = attribute[0] == 'P' ? linear : normalMatrix;
        for (std::size_t v = 0; v < count; ++v) {
          const glm::dvec3 d = m * glm::dvec3((*deltas)[v * 3], (*deltas)[v * 3 + 1], (*deltas)[v * 3 + 2]);
          for (int k = 0; k < 3; ++k)
            out.push_back(std::abs(d[k]) <= 1e37 ? float(d[k]) : 0.0f);  // NaN or past a float: no motion
        }
      }
    }
    morph.rangeOfVertex.resize(base, MorphData::kNoRange);
    morph.rangeOfVertex.insert(morph.rangeOfVertex.end(), count, std::uint32_t(morph.ranges.size()));
    morph.ranges.push_back(range);
    return {};
  }

  Expected<void> readSkin() {
    if (m_model.skins.empty()) {  // animated or morphed, no skin: node bones only
      if (auto ok = appendNodeBones(0); !ok) return ok;
      m_out.skin = std::move(m_skin);
      return {};
    }
    const auto& gltfSkin = m_model.skins[0];
    for (int node : gltfSkin.joints) {
      if (node < 0 || node >= static_cast<int>(m_model.nodes.size()))
        return refuse(m_source, "skin 0: joint node " + std::to_string(node) + " does not exist");
      m_skin.boneNames.push_back(m_model.nodes[node].name);
      m_skin.boneNodes.push_back(node);
    }
    const std::size_t bones = m_skin.boneNames.size();
    m_skin.inverseBinds.assign(bones, glm::mat4(1.0f));
    if (gltfSkin.inverseBindMatrices >= 0) {
      int comps = 0;
      auto read = m_reader.read<float>(gltfSkin.inverseBindMatrices, "skin 0 inverseBindMatrices", &comps);
      if (!read) return read.error();
      if (comps != 16 || read->size() != bones * 16)
        return refuse(m_source, "skin 0: inverseBindMatrices must be one MAT4 per joint");
      for (std::size_t b = 0; b < bones; ++b)
        for (int k = 0; k < 16; ++k) m_skin.inverseBinds[b][k / 4][k % 4] = (*read)[b * 16 + k];
    }
    if (auto ok = appendNodeBones(bones); !ok) return ok;
    m_out.skin = std::move(m_skin);
    return {};
  }

  // The unskinned meshes' nodes, one bone each after the skin's `bones`
  // joints: unnamed (never a rig part), its vertices baked at the node's rest
  // world, so its inverse bind is that world's inverse (a singular world
  // keeps the identity and no node: it never moves).
  Expected<void> appendNodeBones(std::size_t bones) {
    for (std::uint32_t& j : m_skin.rigid) j = std::uint32_t(bones) + (j & ~kNodeBone);
    for (std::size_t i = 0; i < m_skin.joints.size(); ++i) {
      std::uint32_t& j = m_skin.joints[i];
      if (j & kNodeBone)
        j = std::uint32_t(bones) + (j & ~kNodeBone);
      else if (j >= bones)  // the file's own index: within its skin's joints
        return refuse(m_source, "JOINTS_0: vertex " + std::to_string(i / 4) + " names bone " + std::to_string(j) +
                                    " but the skin has " + std::to_string(bones));
    }
    for (const NodeBone& b : m_nodeBones) {
      const bool invertible = std::abs(glm::determinant(b.restWorld)) > 1e-12;
      m_skin.boneNames.emplace_back();
      m_skin.boneNodes.push_back(invertible ? b.node : -1);
      m_skin.inverseBinds.emplace_back(invertible ? glm::mat4(glm::inverse(b.restWorld)) : glm::mat4(1.0f));
    }
    return {};
  }

  const tinygltf::Model& m_model;
  std::string_view m_source;
  AccessorReader m_reader;
  DecodedGltf m_out;  // before m_materials, which keeps a reference to its warnings
  MaterialReader m_materials;
  TangentCollector m_tangents;
  std::size_t m_vertexBudget;
  SkinData m_skin;
  std::vector<bool> m_needsNormal;
  bool m_anyNormalsMissing = false;
  bool m_oddModeWarned = false;  // a primitive mode outside 0-6 was reported
  // Skinned, animated or morphed: every vertex gets bones (node bones where
  // the file has no skin for it) and the skinning pass poses it.
  bool m_posable = false;
  // Unskinned primitives of a skinned file name their node's bone as
  // kNodeBone | slot in m_nodeBones until readSkin appends those bones.
  static constexpr std::uint32_t kNodeBone = 0x80000000u;
  struct NodeBone {
    int node;
    glm::dmat4 restWorld;
  };
  std::vector<NodeBone> m_nodeBones;
};

Expected<DecodedGltf> assemble(const tinygltf::Model& model, const GltfBuffers& buffers, std::string_view source,
                               std::size_t fileBytes) {
  auto decoded = MeshAssembler(model, buffers, source, fileBytes).run();
  if (!decoded) return decoded;
  // From the same parse: a second look at a large file costs a second copy of it.
  if (auto outline = buildGltfScene(model, buffers, source, fileBytes, GltfDecode::Outline)) {
    decoded->outline = std::move(outline).value();
    for (auto& w : decoded->outline.warnings) decoded->warnings.push_back(std::move(w));
    decoded->outline.warnings.clear();
  } else
    decoded->warnings.push_back(
        {std::string(source), "", "the file's node tree and clips are not shown: " + outline.error().message});
  return decoded;
}

std::string firstLine(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace

std::vector<float> computeVertexNormals(const PartMesh& mesh) {
  std::vector<glm::dvec3> acc(mesh.vertexCount(), glm::dvec3(0.0));
  const auto pos = [&](std::uint32_t i) {
    return glm::dvec3(mesh.positions[i * 3], mesh.positions[i * 3 + 1], mesh.positions[i * 3 + 2]);
  };
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const auto a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
    const glm::dvec3 n = glm::cross(pos(b) - pos(a), pos(c) - pos(a));  // length = 2 * area
    acc[a] += n;
    acc[b] += n;
    acc[c] += n;
  }
  std::vector<float> out;
  out.reserve(acc.size() * 3);
  for (auto n : acc) {
    const double len = glm::length(n);
    n = len > 0 ? n / len : glm::dvec3(0, 1, 0);
    out.insert(out.end(), {float(n.x), float(n.y), float(n.z)});
  }
  return out;
}

namespace {

// tinygltf reads the files a .gltf names (buffers, images) through these:
// only regular files inside the model's own folder (resolved through
// symlinks), never an absolute path, "../" or a device; a .glb decoded from
// memory has no folder and may name no external file at all.
struct ModelFolder {
  std::filesystem::path canonical;  // empty: no external files
};

bool insideModelFolder(const std::string& path, void* user) {
  const auto* folder = static_cast<const ModelFolder*>(user);
  if (!folder || folder->canonical.empty()) return false;
  std::error_code ec;
  const std::filesystem::path resolved = std::filesystem::weakly_canonical(path, ec);
  if (ec) return false;
  const std::filesystem::path inside = resolved.lexically_relative(folder->canonical);
  if (inside.empty() || *inside.begin() == "..") return false;
  return std::filesystem::is_regular_file(resolved, ec);
}

std::string keepPath(const std::string& path, void*) {
  return path;
}

bool readInsideModelFolder(std::vector<unsigned char>* out, std::string* err, const std::string& path, void* user) {
  if (!insideModelFolder(path, user)) {
    if (err) *err = "a model may only name regular files inside its own folder";
    return false;
  }
  auto bytes = readFileBytes(path);
  if (!bytes) {
    if (err) *err = bytes.error().message;
    return false;
  }
  out->assign(bytes->begin(), bytes->end());
  return true;
}

bool neverWrite(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
  if (err) *err = "writing is not allowed while reading";
  return false;
}

void sandbox(tinygltf::TinyGLTF& loader, ModelFolder& folder) {
  loader.SetStoreOriginalJSONForExtrasAndExtensions(false);
  loader.SetFsCallbacks({&insideModelFolder, &keepPath, &readInsideModelFolder, &neverWrite, &folder});
  loader.SetImageLoader(&keepEncodedImage, nullptr);  // decoded only if a material draws with it
}

// An image stored in a bufferView: tinygltf hands the image loader the
// view's bytes without checking that the view lies inside its buffer, so a
// view longer than the buffer was read past the buffer's end (the fuzzer
// found it). tinygltf itself refuses a view or buffer index out of range,
// and a buffer whose bytes are fewer than its byteLength, so the view is
// checked against the buffer's byteLength.
void refuseImageViewsPastTheirBuffers(const JsonRef& root) {
  const auto images = root.find("images");
  const auto views = root.find("bufferViews");
  const auto buffers = root.find("buffers");
  if (!images || !images->isArray() || !views || !views->isArray() || !buffers || !buffers->isArray()) return;
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  for (const JsonRef& image : images->elements()) {
    const auto at = image.isObject() ? image.find("bufferView") : std::nullopt;
    if (!at || !at->isNumber()) continue;
    const std::int64_t v = at->integer(0, std::int64_t(views->size()) - 1);
    const JsonRef view = views->at(std::size_t(v)).object();
    const std::int64_t b = view["buffer"].integer(0, std::int64_t(buffers->size()) - 1);
    const std::int64_t length = view["byteLength"].integer(1, kMax);
    const std::int64_t offset = view.has("byteOffset") ? view["byteOffset"].integer(0, kMax) : 0;
    const std::int64_t capacity = buffers->at(std::size_t(b))["byteLength"].integer(1, kMax);
    if (offset > capacity || length > capacity - offset)
      at->fail("bufferView " + std::to_string(v) + " (byteOffset " + std::to_string(offset) + ", byteLength " +
               std::to_string(length) + ") runs past the byteLength " + std::to_string(capacity) + " of buffer " +
               std::to_string(b));
  }
}

// What tinygltf 2.7 mishandles, refused before it sees the document: a
// buffer of byteLength 0 (the schema's minimum is 1) makes it index an empty
// vector and throw std::out_of_range past its API; an image's bufferView
// past its buffer makes it read out of bounds.
void refuseWhatTinygltfMishandles(const nlohmann::json& doc) {
  const JsonRef root(doc);
  root.object();
  if (const auto buffers = root.find("buffers"))
    for (const JsonRef& buffer : buffers->elements()) {
      buffer.object();
      buffer["byteLength"].integer(1, std::numeric_limits<std::int64_t>::max());
    }
  refuseImageViewsPastTheirBuffers(root);
}

// A file must not load where an extension it requires is not understood
// (glTF 2.0, 3.12): the geometry would be wrong. KHR_mesh_quantization needs
// nothing more than the accessor reader's normalized integers;
// EXT_meshopt_compression and KHR_draco_mesh_compression are decoded
// (gltf_meshopt.h, gltf_draco.h). The rest below change how a model looks,
// never where its vertices are: KHR_texture_transform and
// KHR_materials_unlit are honoured, KHR_lights_punctual's lights are read
// (gltf_scene.h), and the other KHR_materials_* are drawn as the base
// material with a warning (MaterialReader). A VRM avatar's own extensions
// (gltf/vrm.h) name expressions, bones and MToon shading on top of a
// complete glTF.
bool understood(const std::string& name) {
  static const std::set<std::string, std::less<>> kUnderstood{"KHR_mesh_quantization",
                                                              "EXT_meshopt_compression",
                                                              "KHR_draco_mesh_compression",
                                                              "KHR_texture_transform",
                                                              "KHR_materials_unlit",
                                                              "KHR_lights_punctual",
                                                              "VRM",
                                                              "VRMC_vrm",
                                                              "VRMC_materials_mtoon"};
  return kUnderstood.count(name) > 0 || name.rfind("KHR_materials_", 0) == 0;
}

Expected<void> checkRequiredExtensions(const tinygltf::Model& model, std::string_view source) {
  for (const std::string& name : model.extensionsRequired)
    if (!understood(name))
      return refuse(source, "the file requires the extension " + name + ", which RigLens does not decode yet",
                    ErrorCode::Unsupported);
  return {};
}

// What every load does once tinygltf has the model: the required extensions
// checked, the compressed views decoded (the budgets then grow with what the
// file decompresses to), and `use` called.
Expected<void> useModel(tinygltf::Model& model, const GltfBuffers& buffers, const std::vector<MeshoptView>& meshopt,
                        std::string_view source, std::size_t fileBytes, const GltfModelUse& use) {
  if (auto ok = checkRequiredExtensions(model, source); !ok) return ok;
  auto decoded = decodeMeshopt(model, buffers, meshopt, source);
  if (!decoded) return decoded.error();
  auto draco = decodeDraco(model, buffers, source);
  if (!draco) return draco.error();
  return use(model, buffers, fileBytes + *decoded + *draco);
}

Expected<void> useModel(tinygltf::Model& model, const std::vector<MeshoptView>& meshopt, std::string_view source,
                        std::size_t fileBytes, const GltfModelUse& use) {
  const GltfBuffers buffers(model);
  return useModel(model, buffers, meshopt, source, fileBytes, use);
}

// tinygltf reads `bytes` (a GLB, or a .gltf's text) into `model`, sandboxed
// to the model's folder.
Expected<void> loadWithTinygltf(std::span<const std::uint8_t> bytes, bool binary, std::string_view source,
                                ModelFolder& folder, tinygltf::Model& model) {
  tinygltf::TinyGLTF loader;
  sandbox(loader, folder);
  std::string err, warn;
  const auto* data = bytes.data();
  const auto size = static_cast<unsigned>(bytes.size());
  const bool loaded = binary ? loader.LoadBinaryFromMemory(&model, &err, &warn, data, size, folder.canonical.string())
                             : loader.LoadASCIIFromString(&model, &err, &warn, reinterpret_cast<const char*>(data),
                                                          size, folder.canonical.string());
  if (!loaded) return refuse(source, "invalid glTF: " + firstLine(err));
  return {};
}

// Compressed geometry rewritten for tinygltf (gltf_meshopt.h, gltf_draco.h);
// whether `doc` changed.
bool prepareCompressed(nlohmann::json& doc, std::vector<MeshoptView>& meshopt) {
  bool changed = false;
  if (usesMeshopt(doc)) {
    meshopt = prepareMeshopt(doc);
    changed = true;
  }
  return prepareDraco(doc) || changed;
}

// A GLB of `jsonText` and one BIN chunk (glTF 2.0, 4.4: JSON padded with spaces,
// BIN with zeros).
std::vector<std::uint8_t> assembleGlb(const std::string& jsonText, std::span<const std::uint8_t> bin) {
  const std::size_t jsonPadded = (jsonText.size() + 3) / 4 * 4, binPadded = (bin.size() + 3) / 4 * 4;
  const std::size_t total = 20 + jsonPadded + 8 + binPadded;
  const std::uint32_t header[5] = {kGlbMagic, 2, std::uint32_t(total), std::uint32_t(jsonPadded), kJsonChunk};
  const std::uint32_t binHeader[2] = {std::uint32_t(binPadded), kBinChunk};
  std::vector<std::uint8_t> out(total, 0);
  std::memcpy(out.data(), header, sizeof header);
  std::memcpy(out.data() + 20, jsonText.data(), jsonText.size());
  std::fill(out.begin() + std::ptrdiff_t(20 + jsonText.size()), out.begin() + std::ptrdiff_t(20 + jsonPadded), ' ');
  std::memcpy(out.data() + 20 + jsonPadded, binHeader, sizeof binHeader);
  std::memcpy(out.data() + 28 + jsonPadded, bin.data(), bin.size());
  return out;
}

// The GLB `bytes` with its JSON chunk (`oldJsonLength` bytes) replaced by
// `jsonText`, padded with spaces to 4 bytes as GLB asks; the chunks after it copied.
std::vector<std::uint8_t> withJsonChunk(std::span<const std::uint8_t> bytes, const std::string& jsonText,
                                        std::size_t oldJsonLength) {
  const std::size_t padded = (jsonText.size() + 3) / 4 * 4, rest = bytes.size() - 20 - oldJsonLength;
  const std::uint32_t header[5] = {kGlbMagic, 2, std::uint32_t(20 + padded + rest), std::uint32_t(padded), kJsonChunk};
  std::vector<std::uint8_t> out;
  out.reserve(20 + padded + rest);
  const auto* head = reinterpret_cast<const std::uint8_t*>(header);
  out.insert(out.end(), head, head + sizeof header);
  out.insert(out.end(), jsonText.begin(), jsonText.end());
  out.resize(20 + padded, std::uint8_t(' '));
  out.insert(out.end(), bytes.begin() + std::ptrdiff_t(20 + oldJsonLength), bytes.end());
  return out;
}

// `owned`, when given, holds `bytes`: it is released once tinygltf has its
// own copy of the buffers, before `use` decodes them (a large file is then
// held once, not twice, while its vertices are decoded).
Expected<void> loadModelIn(std::span<const std::uint8_t> bytes, std::string_view sourceName, ModelFolder folder,
                           const GltfModelUse& use, std::vector<std::uint8_t>* owned = nullptr) {
  auto jsonText = checkGlbContainer(bytes, sourceName);
  if (!jsonText) return jsonText.error();
  auto doc = parseJson(*jsonText, sourceName);
  if (!doc) return doc.error();
  if (!doc->is_object()) return refuse(sourceName, "the JSON chunk is not an object");
  // The empty part the meshing binaries write: no meshes at all. tinygltf
  // refuses its 0-byte BIN chunk, but it is a valid socket.
  const auto meshes = doc->find("meshes");
  if (meshes == doc->end() || (meshes->is_array() && meshes->empty())) {
    const tinygltf::Model empty;
    return use(empty, GltfBuffers(empty), bytes.size());
  }
  refuseWhatTinygltfMishandles(*doc);
  // Compressed views: the document rewritten for tinygltf, the GLB rebuilt
  // around it (the BIN chunk as it was).
  std::vector<MeshoptView> meshopt;
  std::vector<std::uint8_t> rebuilt;
  if (prepareCompressed(*doc, meshopt)) {
    rebuilt = withJsonChunk(bytes, doc->dump(), jsonText->size());
    bytes = rebuilt;
  }

  tinygltf::Model model;
  if (auto ok = loadWithTinygltf(bytes, true, sourceName, folder, model); !ok) return ok;
  const std::size_t fileBytes = bytes.size();
  std::vector<std::uint8_t>().swap(rebuilt);
  if (owned) std::vector<std::uint8_t>().swap(*owned);
  return useModel(model, meshopt, sourceName, fileBytes, use);
}

// A file descriptor closed on every way out.
struct OpenFile {
  int fd = -1;
  explicit OpenFile(const std::filesystem::path& path) : fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~OpenFile() {
    if (fd >= 0) ::close(fd);
  }
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
};

// A .glb opened by path whose BIN chunk can stay in the file: tinygltf gets
// the header and the JSON (buffer 0 declared 4 bytes long, a 4-byte BIN
// chunk), and the decoders read each range of the real chunk when they need
// it (GltfBuffers::keepInFile). A large model is then never held twice, nor
// its chunk whole. Files this cannot serve go the general way (nullopt):
// anything the container checks would refuse (their messages), a buffer 0
// with a URI or longer than the chunk, images in a bufferView (tinygltf reads
// them as it loads), EXT_meshopt_compression (its preparation renumbers the
// buffers).
std::optional<Expected<void>> loadKeepingBinInFile(const std::filesystem::path& path, std::string_view source,
                                                   ModelFolder& folder, const GltfModelUse& use) {
  OpenFile file(path);
  struct stat info {};
  if (file.fd < 0 || ::fstat(file.fd, &info) != 0) return std::nullopt;
  const std::uint64_t size = std::uint64_t(info.st_size);
  std::array<std::uint8_t, 20> head{};
  if (size < 28 || !readFileRange(file.fd, 0, head)) return std::nullopt;
  if (readU32(head, 0) != kGlbMagic || readU32(head, 4) != 2 || readU32(head, 8) != size ||
      readU32(head, 16) != kJsonChunk)
    return std::nullopt;
  const std::uint64_t jsonLength = readU32(head, 12);
  // The chunk after the JSON must be BIN, and every chunk must fit.
  std::uint64_t binOffset = 0, binLength = 0;
  for (std::uint64_t at = 20 + jsonLength; at < size;) {
    std::array<std::uint8_t, 8> chunk{};
    if (at + 8 > size || !readFileRange(file.fd, at, chunk)) return std::nullopt;
    const std::uint64_t length = readU32(chunk, 0);
    if (at + 8 + length > size) return std::nullopt;
    if (at == 20 + jsonLength) {
      if (readU32(chunk, 4) != kBinChunk) return std::nullopt;
      binOffset = at + 8;
      binLength = length;
    }
    at += 8 + length;
  }
  if (binOffset == 0 || 20 + jsonLength > size) return std::nullopt;
  std::string jsonText(jsonLength, '\0');
  if (!readFileRange(file.fd, 20, {reinterpret_cast<std::uint8_t*>(jsonText.data()), jsonText.size()}))
    return std::nullopt;
  auto doc = parseJson(jsonText, source);
  if (!doc || !doc->is_object() || usesMeshopt(*doc)) return std::nullopt;
  const auto meshes = doc->find("meshes");
  if (meshes == doc->end() || !meshes->is_array() || meshes->empty()) return std::nullopt;
  const auto buffers = doc->find("buffers");
  if (buffers == doc->end() || !buffers->is_array() || buffers->empty() || !(*buffers)[0].is_object() ||
      (*buffers)[0].contains("uri") || !(*buffers)[0].contains("byteLength") ||
      !(*buffers)[0]["byteLength"].is_number_unsigned() || (*buffers)[0]["byteLength"].get<std::uint64_t>() > binLength)
    return std::nullopt;
  if (const auto images = doc->find("images"); images != doc->end() && images->is_array())
    for (const auto& image : *images)
      if (image.is_object() && image.contains("bufferView")) return std::nullopt;
  const std::uint64_t declared = (*buffers)[0]["byteLength"].get<std::uint64_t>();
  refuseWhatTinygltfMishandles(*doc);
  std::vector<MeshoptView> none;
  prepareCompressed(*doc, none);
  (*buffers)[0]["byteLength"] = 4;
  const std::array<std::uint8_t, 4> placeholder{};
  const std::vector<std::uint8_t> small = assembleGlb(doc->dump(), placeholder);

  tinygltf::Model model;
  if (auto ok = loadWithTinygltf(small, true, source, folder, model); !ok) return ok;
  GltfBuffers inFile(model);
  inFile.keepInFile(0, file.fd, binOffset, declared);
  return useModel(model, inFile, none, source, std::size_t(size), use);
}

}  // namespace

Expected<void> decodeGltfModel(std::span<const std::uint8_t> bytes, std::string_view sourceName,
                               const GltfModelUse& use) {
  return guardRead(sourceName, [&] { return loadModelIn(bytes, sourceName, {}, use); });
}

Expected<DecodedGltf> decodeGlb(std::span<const std::uint8_t> bytes, std::string_view sourceName) {
  Expected<DecodedGltf> out = DecodedGltf{};
  auto loaded = decodeGltfModel(bytes, sourceName,
                                [&](const tinygltf::Model& model, const GltfBuffers& buffers, std::size_t fileBytes) {
                                  out = assemble(model, buffers, sourceName, fileBytes);
                                  return Expected<void>{};
                                });
  if (!loaded) return loaded.error();
  return out;
}

Expected<void> readGltfModel(const std::filesystem::path& path, const GltfModelUse& use) {
  const std::string source = path.string();
  std::error_code ec;
  ModelFolder folder{std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec).parent_path(), ec)};
  if (ec) folder.canonical.clear();
  const bool assimp = convertsThroughAssimp(path);
  if (!assimp) {  // a .glb whose BIN chunk can stay in the file
    std::optional<Expected<void>> kept;
    auto tried = guardRead(source, [&]() -> Expected<void> {
      kept = loadKeepingBinInFile(path, source, folder, use);
      return {};
    });
    if (!tried) return tried;
    if (kept) return *kept;
  }
  // Other formats: Assimp's GLB of the model, read as any GLB (its images
  // embedded; nothing else beside it is read).
  auto bytes = assimp ? convertWithAssimp(path) : readFileBytes(path);
  if (!bytes) return bytes.error();
  return guardRead(source, [&]() -> Expected<void> {
    if (bytes->size() >= 4 && readU32(*bytes, 0) == kGlbMagic) return loadModelIn(*bytes, source, folder, use, &*bytes);
    if (path.extension() == ".glb") return loadModelIn(*bytes, source, folder, use);  // gives the bad-magic message
    if (bytes->size() > std::numeric_limits<unsigned>::max()) return refuse(source, "too large for a .gltf text file");
    const std::string text(bytes->begin(), bytes->end());
    auto doc = parseJson(text, source);
    if (!doc) return doc.error();
    refuseWhatTinygltfMishandles(*doc);
    std::vector<MeshoptView> meshopt;
    std::string prepared;
    if (prepareCompressed(*doc, meshopt)) prepared = doc->dump();
    const std::string& document = prepared.empty() ? text : prepared;
    tinygltf::Model model;
    const std::span<const std::uint8_t> documentBytes{reinterpret_cast<const std::uint8_t*>(document.data()),
                                                      document.size()};
    if (auto ok = loadWithTinygltf(documentBytes, false, source, folder, model); !ok) return ok;
    return useModel(model, meshopt, source, bytes->size(), use);
  });
}

Expected<DecodedGltf> readGltfFile(const std::filesystem::path& path) {
  Expected<DecodedGltf> out = DecodedGltf{};
  auto loaded =
      readGltfModel(path, [&](const tinygltf::Model& model, const GltfBuffers& buffers, std::size_t fileBytes) {
        out = assemble(model, buffers, path.string(), fileBytes);
        return Expected<void>{};
      });
  if (!loaded) return loaded.error();
  return out;
}

}  // namespace riglens::core
