#include "riglens/core/gltf/gltf_scene.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <glm/vector_relational.hpp>

#include "gltf_accessor_reader.h"
#include "gltf_model_file.h"
#include "riglens/core/gltf/glb_reader.h"
#include "vrm_reader.h"

namespace riglens::core {

namespace {

std::string at(const char* kind, std::size_t index) {
  return std::string(kind) + " " + std::to_string(index);
}

// Builds the scene from tinygltf's model; every index the file names is checked.
class SceneBuilder {
 public:
  SceneBuilder(const tinygltf::Model& model, const GltfBuffers& buffers, std::string_view source, std::size_t fileBytes,
               GltfDecode decode)
      : m_model(model),
        m_source(source),
        m_fileBytes(fileBytes),
        m_decode(decode),
        m_reader(model, buffers, source, fileBytes) {}

  // Posing writes every drawn instance of a mesh: a small file naming one big
  // mesh from many nodes may not grow past this many times what it holds.
  static constexpr std::size_t kInstancingBudget = 64;

  Expected<GltfScene> run() {
    if (auto ok = readNodes(); !ok) return ok.error();
    for (std::size_t m = 0; m < m_model.meshes.size(); ++m)
      if (auto ok = readMesh(m); !ok) return ok.error();
    std::size_t drawn = 0;
    const std::size_t budget = std::max<std::size_t>(m_fileBytes, 1 << 16) / 12 * kInstancingBudget;
    for (int i : m_scene.drawOrder) {
      const GltfNode& node = m_scene.nodes[std::size_t(i)];
      if (node.mesh == kGltfNone) continue;
      for (const GltfPrimitive& p : m_scene.meshes[std::size_t(node.mesh)].primitives) drawn += p.mesh.vertexCount();
      if (drawn > budget)
        return refuse("the scene draws more than " + std::to_string(budget) + " vertices (" +
                      std::to_string(kInstancingBudget) + " times what the file holds): too many mesh instances");
    }
    for (std::size_t s = 0; s < m_model.skins.size(); ++s)
      if (auto ok = readSkin(s); !ok) return ok.error();
    for (std::size_t a = 0; a < m_model.animations.size(); ++a)
      if (auto ok = readAnimation(a); !ok) return ok.error();
    readViewpoints();
    m_scene.vrm = readVrmAvatar(m_model, m_scene, m_source, m_scene.warnings);
    return std::move(m_scene);
  }

 private:
  Error refuse(const std::string& problem, ErrorCode code = ErrorCode::Parse) const {
    return gltfRefusal(m_source, problem, code);
  }
  bool validNode(int i) const { return i >= 0 && std::size_t(i) < m_model.nodes.size(); }

  Expected<void> readNodes() {
    const std::size_t n = m_model.nodes.size();
    m_scene.nodes.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const tinygltf::Node& src = m_model.nodes[i];
      GltfNode& node = m_scene.nodes[i];
      node.name = src.name;
      if (src.matrix.size() == 16) node.matrix = glm::make_mat4(src.matrix.data());
      if (src.translation.size() == 3) node.translation = {src.translation[0], src.translation[1], src.translation[2]};
      if (src.rotation.size() == 4)
        node.rotation = glm::dquat(src.rotation[3], src.rotation[0], src.rotation[1], src.rotation[2]);
      if (src.scale.size() == 3) node.scale = {src.scale[0], src.scale[1], src.scale[2]};
      node.weights = src.weights;
      if (src.mesh >= 0 && std::size_t(src.mesh) >= m_model.meshes.size())
        return refuse(at("node", i) + ": mesh " + std::to_string(src.mesh) + " does not exist");
      if (src.skin >= 0 && std::size_t(src.skin) >= m_model.skins.size())
        return refuse(at("node", i) + ": skin " + std::to_string(src.skin) + " does not exist");
      node.mesh = src.mesh;
      node.skin = src.skin;
      for (int c : src.children) {
        if (!validNode(c)) return refuse(at("node", i) + ": child " + std::to_string(c) + " does not exist");
        if (m_scene.nodes[std::size_t(c)].parent != kGltfNone || std::size_t(c) == i)
          return refuse(at("node", std::size_t(c)) + " has more than one parent");
        m_scene.nodes[std::size_t(c)].parent = int(i);
        node.children.push_back(c);
      }
    }
    const int sceneIndex = m_model.defaultScene >= 0 ? m_model.defaultScene : 0;
    if (std::size_t(sceneIndex) < m_model.scenes.size()) {
      for (int r : m_model.scenes[std::size_t(sceneIndex)].nodes) {
        if (!validNode(r))
          return refuse(at("scene", std::size_t(sceneIndex)) + ": node " + std::to_string(r) + " does not exist");
        m_scene.roots.push_back(r);
      }
    } else {
      for (std::size_t i = 0; i < n; ++i)
        if (m_scene.nodes[i].parent == kGltfNone) m_scene.roots.push_back(int(i));
    }
    // Depth-first, parents first, with an explicit stack (a file may nest as
    // deep as it likes); a node reached twice is a cycle or a shared subtree.
    std::vector<char> seen(n, 0);
    std::vector<int> stack(m_scene.roots.rbegin(), m_scene.roots.rend());
    while (!stack.empty()) {
      const int i = stack.back();
      stack.pop_back();
      if (seen[std::size_t(i)]++) return refuse(at("node", std::size_t(i)) + " appears twice in the scene graph");
      m_scene.drawOrder.push_back(i);
      const auto& children = m_scene.nodes[std::size_t(i)].children;
      stack.insert(stack.end(), children.rbegin(), children.rend());
    }
    return {};
  }

  void setAside(const std::string& pointer, const std::string& problem) {
    m_scene.warnings.push_back({std::string(m_source), pointer, problem});
  }

  // The cameras and lights the nodes place. A camera or light the file gets
  // wrong is set aside with a warning: the geometry does not depend on it.
  void readViewpoints() {
    for (std::size_t i = 0; i < m_model.nodes.size(); ++i) {
      const tinygltf::Node& node = m_model.nodes[i];
      if (node.camera >= 0) readCamera(i, node.camera);
      const auto ext = node.extensions.find("KHR_lights_punctual");
      if (ext != node.extensions.end() && ext->second.Has("light") && ext->second.Get("light").IsInt())
        readLight(i, ext->second.Get("light").GetNumberAsInt());
    }
  }

  // What a node places (a camera, a light) by its index, or null (set aside:
  // the index names nothing).
  template <class T>
  const T* placed(const std::vector<T>& list, int index, std::size_t node, const char* key, const char* what) {
    if (index >= 0 && std::size_t(index) < list.size()) return &list[std::size_t(index)];
    setAside("/nodes/" + std::to_string(node) + key,
             std::string(what) + " " + std::to_string(index) + " does not exist");
    return nullptr;
  }
  // Its own name, else the node's that places it.
  std::string placedName(const std::string& own, std::size_t node) const {
    return !own.empty() ? own : m_model.nodes[node].name;
  }

  void readCamera(std::size_t node, int index) {
    const std::string pointer = "/cameras/" + std::to_string(index);
    const tinygltf::Camera* found = placed(m_model.cameras, index, node, "/camera", "camera");
    if (!found) return;
    const tinygltf::Camera& src = *found;
    GltfCamera camera;
    camera.name = placedName(src.name, node);
    camera.node = int(node);
    camera.perspective = src.type != "orthographic";
    const auto positive = [](double v) { return std::isfinite(v) && v > 0; };
    if (camera.perspective) {
      const tinygltf::PerspectiveCamera& p = src.perspective;
      camera.yfov = p.yfov, camera.aspectRatio = p.aspectRatio, camera.znear = p.znear, camera.zfar = p.zfar;
      if (!positive(p.yfov) || p.yfov >= 3.14159 || !positive(p.znear) ||
          !(p.aspectRatio == 0 || positive(p.aspectRatio)) ||
          !(p.zfar == 0 || (std::isfinite(p.zfar) && p.zfar > p.znear)))
        return setAside(pointer + "/perspective",
                        "the camera needs 0 < yfov < pi, znear > 0 and zfar > znear: not listed");
    } else {
      const tinygltf::OrthographicCamera& o = src.orthographic;
      camera.xmag = o.xmag, camera.ymag = o.ymag, camera.znear = o.znear, camera.zfar = o.zfar;
      if (!std::isfinite(o.xmag) || o.xmag == 0 || !std::isfinite(o.ymag) || o.ymag == 0 || !std::isfinite(o.znear) ||
          o.znear < 0 || !std::isfinite(o.zfar) || o.zfar <= o.znear)
        return setAside(pointer + "/orthographic",
                        "the camera needs non-zero xmag and ymag, znear >= 0 and zfar > znear: not listed");
    }
    m_scene.cameras.push_back(std::move(camera));
  }

  void readLight(std::size_t node, int index) {
    const std::string pointer = "/extensions/KHR_lights_punctual/lights/" + std::to_string(index);
    const tinygltf::Light* found = placed(m_model.lights, index, node, "/extensions/KHR_lights_punctual", "light");
    if (!found) return;
    const tinygltf::Light& src = *found;
    GltfLight light;
    light.name = placedName(src.name, node);
    light.node = int(node);
    if (src.type == "directional")
      light.type = GltfLight::Type::Directional;
    else if (src.type == "spot")
      light.type = GltfLight::Type::Spot;
    else if (src.type != "point")
      return setAside(pointer + "/type", "light type '" + src.type + "' is none of directional, point, spot");
    if (src.color.size() == 3) light.color = {src.color[0], src.color[1], src.color[2]};
    light.intensity = src.intensity;
    light.range = src.range;
    light.innerConeAngle = src.spot.innerConeAngle;
    light.outerConeAngle = src.spot.outerConeAngle;
    const bool colorOk = std::isfinite(light.color.r) && std::isfinite(light.color.g) && std::isfinite(light.color.b) &&
                         glm::all(glm::greaterThanEqual(light.color, glm::dvec3(0.0)));
    if (!colorOk || !std::isfinite(light.intensity) || light.intensity < 0 || !std::isfinite(light.range) ||
        light.range < 0)
      return setAside(pointer, "the light's colour, intensity and range must be finite and not negative");
    if (light.type == GltfLight::Type::Spot &&
        !(light.innerConeAngle >= 0 && light.innerConeAngle < light.outerConeAngle &&
          light.outerConeAngle <= 1.5707964))
      return setAside(pointer + "/spot", "a spot needs 0 <= innerConeAngle < outerConeAngle <= pi/2");
    m_scene.lights.push_back(std::move(light));
  }

  Expected<std::vector<float>> floats(int accessor, const std::string& what, int components, std::size_t count) {
    int comps = 0;
    auto values = m_reader.read<float>(accessor, what, &comps);
    if (!values) return values.error();
    if (comps != components || (count != SIZE_MAX && values->size() != count * std::size_t(components)))
      return refuse(what + ": expected " + (count != SIZE_MAX ? std::to_string(count) + " x " : "") +
                    std::to_string(components) + " components");
    return values;
  }

  Expected<void> readMesh(std::size_t m) {
    const tinygltf::Mesh& src = m_model.meshes[m];
    GltfMesh mesh;
    mesh.name = src.name;
    mesh.weights = src.weights;
    // Counted from the file even for an outline, so its poses carry the morph weights.
    for (const tinygltf::Primitive& prim : src.primitives)
      mesh.morphTargets = std::max(mesh.morphTargets, prim.targets.size());
    for (std::size_t p = 0; p < src.primitives.size() && m_decode == GltfDecode::Everything; ++p) {
      const tinygltf::Primitive& prim = src.primitives[p];
      const int mode = drawnPrimitiveMode(prim.mode);  // glb_reader warns of one out of range
      if (!isTriangleMode(mode)) continue;             // points and lines are not drawn (nor posed)
      auto out = readPrimitive(prim, at("mesh", m) + " primitive " + std::to_string(p), mode);
      if (!out) return out.error();
      mesh.primitives.push_back(std::move(out).value());
    }
    m_scene.meshes.push_back(std::move(mesh));
    return {};
  }

  static int attributeOf(const tinygltf::Primitive& prim, const std::string& name) {
    const auto it = prim.attributes.find(name);
    return it == prim.attributes.end() ? kGltfNone : it->second;
  }

  // One triangle primitive: positions, indices (checked, unrolled), normals
  // (made from the faces when absent), colours, morph targets, influences.
  Expected<GltfPrimitive> readPrimitive(const tinygltf::Primitive& prim, const std::string& where, int mode) {
    GltfPrimitive out;
    if (attributeOf(prim, "POSITION") == kGltfNone) return refuse(where + ": no POSITION");
    auto positions = floats(attributeOf(prim, "POSITION"), where + " POSITION", 3, SIZE_MAX);
    if (!positions) return positions.error();
    const std::size_t count = positions->size() / 3;
    out.mesh.positions = std::move(positions).value();
    auto indices = readIndices(prim, where, count);
    if (!indices) return indices.error();
    out.mesh.indices = gltfTriangles(*indices, mode);
    if (attributeOf(prim, "NORMAL") != kGltfNone) {
      auto normals = floats(attributeOf(prim, "NORMAL"), where + " NORMAL", 3, count);
      if (!normals) return normals.error();
      out.mesh.normals = std::move(normals).value();
    } else {
      out.mesh.normals = computeVertexNormals(out.mesh);
    }
    out.mesh.colors.assign(count * 3, 1.0f);
    if (attributeOf(prim, "COLOR_0") != kGltfNone) {
      int comps = 0;
      auto colors = m_reader.read<float>(attributeOf(prim, "COLOR_0"), where + " COLOR_0", &comps);
      if (!colors) return colors.error();
      if ((comps != 3 && comps != 4) || colors->size() != count * std::size_t(comps))
        return refuse(where + " COLOR_0: expected one VEC3 or VEC4 per vertex");
      for (std::size_t v = 0; v < count; ++v)
        for (std::size_t c = 0; c < 3; ++c) out.mesh.colors[v * 3 + c] = (*colors)[v * std::size_t(comps) + c];
    }
    for (std::size_t t = 0; t < prim.targets.size(); ++t) {
      GltfMorphTarget target;
      for (const auto& [name, accessor] : prim.targets[t]) {
        if (name != "POSITION" && name != "NORMAL") continue;
        auto deltas = floats(accessor, where + " target " + std::to_string(t) + " " + name, 3, count);
        if (!deltas) return deltas.error();
        (name == "POSITION" ? target.positions : target.normals) = std::move(deltas).value();
      }
      out.targets.push_back(std::move(target));
    }
    if (auto read = readInfluences(prim, where, count, out); !read) return read.error();
    return out;
  }

  // The primitive's indices (0..count-1 without any), each checked against its `count` vertices.
  Expected<std::vector<std::uint32_t>> readIndices(const tinygltf::Primitive& prim, const std::string& where,
                                                   std::size_t count) {
    std::vector<std::uint32_t> indices;
    if (prim.indices >= 0) {
      int comps = 0;
      auto read = m_reader.read<std::uint32_t>(prim.indices, where + " indices", &comps);
      if (!read) return read.error();
      if (comps != 1) return refuse(where + " indices: expected scalars");
      indices = std::move(read).value();
    } else {
      indices.resize(count);
      for (std::size_t i = 0; i < count; ++i) indices[i] = std::uint32_t(i);
    }
    for (std::size_t i = 0; i < indices.size(); ++i)
      if (indices[i] >= count)
        return refuse(where + " indices: index " + std::to_string(i) + " is " + std::to_string(indices[i]) +
                      ", past the " + std::to_string(count) + " vertices");
    return indices;
  }

  // JOINTS_0/WEIGHTS_0 and, when present, JOINTS_1/WEIGHTS_1: 4 or 8
  // influences, kept together per vertex.
  Expected<void> readInfluences(const tinygltf::Primitive& prim, const std::string& where, std::size_t count,
                                GltfPrimitive& out) {
    std::vector<std::vector<std::uint32_t>> jointSets;
    std::vector<std::vector<float>> weightSets;
    for (int set = 0; set < 2; ++set) {
      const std::string j = "JOINTS_" + std::to_string(set), w = "WEIGHTS_" + std::to_string(set);
      const int ja = attributeOf(prim, j), wa = attributeOf(prim, w);
      if (ja == kGltfNone && wa == kGltfNone) break;
      if (ja == kGltfNone || wa == kGltfNone) return refuse(where + ": " + j + " and " + w + " come in pairs");
      int comps = 0;
      auto joints = m_reader.read<std::uint32_t>(ja, where + " " + j, &comps);
      if (!joints) return joints.error();
      if (comps != 4 || joints->size() != count * 4) return refuse(where + " " + j + ": expected one VEC4 per vertex");
      auto weights = floats(wa, where + " " + w, 4, count);
      if (!weights) return weights.error();
      jointSets.push_back(std::move(joints).value());
      weightSets.push_back(std::move(weights).value());
    }
    out.influences = int(jointSets.size() * 4);
    for (std::size_t v = 0; v < count && out.influences > 0; ++v)
      for (std::size_t set = 0; set < jointSets.size(); ++set) {
        out.joints.insert(out.joints.end(), jointSets[set].begin() + std::ptrdiff_t(v * 4),
                          jointSets[set].begin() + std::ptrdiff_t(v * 4 + 4));
        out.jointWeights.insert(out.jointWeights.end(), weightSets[set].begin() + std::ptrdiff_t(v * 4),
                                weightSets[set].begin() + std::ptrdiff_t(v * 4 + 4));
      }
    return {};
  }

  Expected<void> readSkin(std::size_t s) {
    const tinygltf::Skin& src = m_model.skins[s];
    GltfSkin skin;
    skin.name = src.name;
    for (int j : src.joints) {
      if (!validNode(j)) return refuse(at("skin", s) + ": joint node " + std::to_string(j) + " does not exist");
      skin.joints.push_back(j);
    }
    skin.inverseBinds.assign(skin.joints.size(), glm::dmat4(1.0));
    if (src.inverseBindMatrices >= 0) {
      auto ibm = floats(src.inverseBindMatrices, at("skin", s) + " inverseBindMatrices", 16, skin.joints.size());
      if (!ibm) return ibm.error();
      for (std::size_t b = 0; b < skin.joints.size(); ++b) skin.inverseBinds[b] = glm::make_mat4(ibm->data() + b * 16);
    }
    // Every primitive drawn with this skin must name joints it has.
    for (const GltfNode& node : m_scene.nodes) {
      if (node.skin != int(s) || node.mesh == kGltfNone) continue;
      for (const GltfPrimitive& prim : m_scene.meshes[std::size_t(node.mesh)].primitives)
        for (std::size_t i = 0; i < prim.joints.size(); ++i)
          if (prim.joints[i] >= skin.joints.size() && prim.jointWeights[i] != 0.0f)
            return refuse(at("mesh", std::size_t(node.mesh)) + ": vertex " +
                          std::to_string(i / std::size_t(prim.influences)) + " names joint " +
                          std::to_string(prim.joints[i]) + " but " + at("skin", s) + " has " +
                          std::to_string(skin.joints.size()));
    }
    m_scene.skins.push_back(std::move(skin));
    return {};
  }

  Expected<void> readAnimation(std::size_t a) {
    const tinygltf::Animation& src = m_model.animations[a];
    GltfAnimation animation;
    animation.name = src.name.empty() ? "animation " + std::to_string(a) : src.name;
    for (std::size_t c = 0; c < src.channels.size(); ++c) {
      const tinygltf::AnimationChannel& ch = src.channels[c];
      const std::string where = at("animation", a) + " channel " + std::to_string(c);
      if (ch.target_node < 0) continue;  // no target: the channel animates nothing (an extension's)
      if (!validNode(ch.target_node))
        return refuse(where + ": node " + std::to_string(ch.target_node) + " does not exist");
      if (ch.sampler < 0 || std::size_t(ch.sampler) >= src.samplers.size())
        return refuse(where + ": sampler " + std::to_string(ch.sampler) + " does not exist");
      const tinygltf::AnimationSampler& sampler = src.samplers[std::size_t(ch.sampler)];
      GltfChannel out;
      out.node = ch.target_node;
      if (ch.target_path == "translation")
        out.path = GltfPath::Translation;
      else if (ch.target_path == "rotation")
        out.path = GltfPath::Rotation;
      else if (ch.target_path == "scale")
        out.path = GltfPath::Scale;
      else if (ch.target_path == "weights")
        out.path = GltfPath::Weights;
      else
        return refuse(where + ": unknown target path '" + ch.target_path + "'");
      if (sampler.interpolation == "STEP")
        out.interpolation = GltfInterpolation::Step;
      else if (sampler.interpolation == "CUBICSPLINE")
        out.interpolation = GltfInterpolation::CubicSpline;
      else if (sampler.interpolation.empty() || sampler.interpolation == "LINEAR")
        out.interpolation = GltfInterpolation::Linear;
      else
        return refuse(where + ": unknown interpolation '" + sampler.interpolation + "'");
      auto times = floats(sampler.input, where + " input", 1, SIZE_MAX);
      if (!times) return times.error();
      if (times->empty()) return refuse(where + ": no keys");
      for (std::size_t k = 0; k < times->size(); ++k) {
        if (!std::isfinite((*times)[k]) || (k > 0 && (*times)[k] <= (*times)[k - 1]))
          return refuse(where + " input: key " + std::to_string(k) + " is not after the one before");
        out.times.push_back((*times)[k]);
      }
      const std::size_t keys = out.times.size();
      const std::size_t perKey = out.interpolation == GltfInterpolation::CubicSpline ? 3 : 1;
      int comps = 0;
      auto values = m_reader.read<float>(sampler.output, where + " output", &comps);
      if (!values) return values.error();
      if (out.path == GltfPath::Weights) {
        if (comps != 1 || values->size() % (keys * perKey) != 0)
          return refuse(where + " output: weights need one scalar per morph target and key");
        out.components = int(values->size() / (keys * perKey));
      } else {
        out.components = out.path == GltfPath::Rotation ? 4 : 3;
        if (comps != out.components || values->size() != keys * perKey * std::size_t(comps))
          return refuse(where + " output: expected " + std::to_string(keys * perKey) + " x " +
                        std::to_string(out.components) + " components");
      }
      out.values.assign(values->begin(), values->end());
      if (std::any_of(out.values.begin(), out.values.end(), [](double v) { return !std::isfinite(v); }))
        return refuse(where + " output: a value is not finite");
      animation.durationSeconds = std::max(animation.durationSeconds, out.times.back());
      animation.channels.push_back(std::move(out));
    }
    m_scene.animations.push_back(std::move(animation));
    return {};
  }

  const tinygltf::Model& m_model;
  std::string_view m_source;
  std::size_t m_fileBytes;
  GltfDecode m_decode;
  AccessorReader m_reader;
  GltfScene m_scene;
};

// The node's local state while posing.
struct Local {
  glm::dvec3 t{0.0};
  glm::dquat r{1.0, 0.0, 0.0, 0.0};
  glm::dvec3 s{1.0};
  std::optional<glm::dmat4> matrix;
  std::vector<double> weights;
};

std::size_t morphTargetCount(const GltfScene& scene, const GltfNode& node) {
  return node.mesh == kGltfNone ? 0 : scene.meshes[std::size_t(node.mesh)].morphTargets;
}

std::vector<Local> restLocals(const GltfScene& scene) {
  std::vector<Local> locals(scene.nodes.size());
  for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
    const GltfNode& node = scene.nodes[i];
    Local& l = locals[i];
    l.t = node.translation;
    l.r = node.rotation;
    l.s = node.scale;
    l.matrix = node.matrix;
    const std::size_t targets = morphTargetCount(scene, node);
    const std::vector<double>& defaults =
        !node.weights.empty() ? node.weights
                              : (node.mesh != kGltfNone ? scene.meshes[std::size_t(node.mesh)].weights : node.weights);
    l.weights.assign(targets, 0.0);
    for (std::size_t k = 0; k < std::min(targets, defaults.size()); ++k) l.weights[k] = defaults[k];
  }
  return locals;
}

// One channel's value at `seconds` (clamped to its keys), `components` numbers.
std::vector<double> sampleChannel(const GltfChannel& ch, double seconds) {
  const std::size_t n = std::size_t(ch.components), keys = ch.times.size();
  const bool cubic = ch.interpolation == GltfInterpolation::CubicSpline;
  // The value of key k (the middle of a cubic triplet).
  const auto value = [&](std::size_t k, std::size_t c) { return ch.values[(cubic ? k * 3 + 1 : k) * n + c]; };
  std::vector<double> out(n);
  const auto upper = std::upper_bound(ch.times.begin(), ch.times.end(), seconds);
  if (upper == ch.times.begin() || upper == ch.times.end() || ch.interpolation == GltfInterpolation::Step) {
    const std::size_t k = upper == ch.times.begin() ? 0 : std::size_t(upper - ch.times.begin()) - 1;
    for (std::size_t c = 0; c < n; ++c) out[c] = value(std::min(k, keys - 1), c);
    return out;
  }
  const std::size_t k1 = std::size_t(upper - ch.times.begin()), k0 = k1 - 1;
  const double dt = ch.times[k1] - ch.times[k0], u = (seconds - ch.times[k0]) / dt;
  if (cubic) {
    const double u2 = u * u, u3 = u2 * u;
    for (std::size_t c = 0; c < n; ++c) {
      const double outTangent = ch.values[(k0 * 3 + 2) * n + c], inTangent = ch.values[(k1 * 3) * n + c];
      out[c] = (2 * u3 - 3 * u2 + 1) * value(k0, c) + dt * (u3 - 2 * u2 + u) * outTangent +
               (-2 * u3 + 3 * u2) * value(k1, c) + dt * (u3 - u2) * inTangent;
    }
  } else if (ch.path == GltfPath::Rotation) {
    const glm::dquat a(value(k0, 3), value(k0, 0), value(k0, 1), value(k0, 2));
    const glm::dquat b(value(k1, 3), value(k1, 0), value(k1, 1), value(k1, 2));
    const glm::dquat q = glm::slerp(a, b, u);  // the shortest arc
    out = {q.x, q.y, q.z, q.w};
  } else {
    for (std::size_t c = 0; c < n; ++c) out[c] = value(k0, c) + (value(k1, c) - value(k0, c)) * u;
  }
  return out;
}

GltfPose pose(const GltfScene& scene, const std::vector<Local>& locals) {
  GltfPose out;
  out.worlds.assign(scene.nodes.size(), glm::dmat4(1.0));
  out.weights.resize(scene.nodes.size());
  const auto localMatrix = [](const Local& l) {
    if (l.matrix) return *l.matrix;
    return glm::translate(glm::dmat4(1.0), l.t) * glm::mat4_cast(l.r) * glm::scale(glm::dmat4(1.0), l.s);
  };
  std::vector<char> done(scene.nodes.size(), 0);
  for (int i : scene.drawOrder) {  // parents first
    const GltfNode& node = scene.nodes[std::size_t(i)];
    const glm::dmat4 parent = node.parent == kGltfNone ? glm::dmat4(1.0) : out.worlds[std::size_t(node.parent)];
    out.worlds[std::size_t(i)] = parent * localMatrix(locals[std::size_t(i)]);
    done[std::size_t(i)] = 1;
  }
  for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
    if (!done[i]) out.worlds[i] = localMatrix(locals[i]);  // outside the scene: not drawn
    out.weights[i] = locals[i].weights;
  }
  return out;
}

}  // namespace

int GltfScene::findAnimation(std::string_view name) const {
  for (std::size_t i = 0; i < animations.size(); ++i)
    if (animations[i].name == name) return int(i);
  return kGltfNone;
}

Expected<GltfScene> buildGltfScene(const tinygltf::Model& model, const GltfBuffers& buffers, std::string_view source,
                                   std::size_t fileBytes, GltfDecode decode) {
  return SceneBuilder(model, buffers, source, fileBytes, decode).run();
}

Expected<GltfScene> readGltfScene(const std::filesystem::path& path, GltfDecode decode) {
  Expected<GltfScene> out = GltfScene{};
  const std::string source = path.string();
  auto loaded =
      readGltfModel(path, [&](const tinygltf::Model& model, const GltfBuffers& buffers, std::size_t fileBytes) {
        out = buildGltfScene(model, buffers, source, fileBytes, decode);
        return Expected<void>{};
      });
  if (!loaded) return loaded.error();
  return out;
}

Expected<GltfScene> decodeGltfScene(std::span<const std::uint8_t> bytes, std::string_view sourceName) {
  Expected<GltfScene> out = GltfScene{};
  auto loaded = decodeGltfModel(bytes, sourceName,
                                [&](const tinygltf::Model& model, const GltfBuffers& buffers, std::size_t fileBytes) {
                                  out = buildGltfScene(model, buffers, sourceName, fileBytes, GltfDecode::Everything);
                                  return Expected<void>{};
                                });
  if (!loaded) return loaded.error();
  return out;
}

GltfPose gltfRestPose(const GltfScene& scene) {
  return pose(scene, restLocals(scene));
}

GltfPose gltfSamplePose(const GltfScene& scene, int animation, double seconds) {
  std::vector<Local> locals = restLocals(scene);
  if (animation >= 0 && std::size_t(animation) < scene.animations.size()) {
    for (const GltfChannel& ch : scene.animations[std::size_t(animation)].channels) {
      const std::vector<double> v = sampleChannel(ch, seconds);
      Local& l = locals[std::size_t(ch.node)];
      switch (ch.path) {
        case GltfPath::Translation: l.t = {v[0], v[1], v[2]}; break;
        case GltfPath::Scale: l.s = {v[0], v[1], v[2]}; break;
        case GltfPath::Rotation: {
          const glm::dquat q(v[3], v[0], v[1], v[2]);
          const double len = glm::length(q);
          if (len > 0) l.r = q / len;  // cubic rotations are not unit: normalised, as the spec says
          break;
        }
        case GltfPath::Weights:
          for (std::size_t k = 0; k < std::min(v.size(), l.weights.size()); ++k) l.weights[k] = v[k];
          break;
      }
    }
  }
  return pose(scene, locals);
}

std::vector<float> gltfPosedVertices(const GltfScene& scene, const GltfPose& pose) {
  std::vector<float> out;
  for (int i : scene.drawOrder) {
    const GltfNode& node = scene.nodes[std::size_t(i)];
    if (node.mesh == kGltfNone) continue;
    const std::vector<double>& weights = pose.weights[std::size_t(i)];
    std::vector<glm::dmat4> jointMatrices;
    if (node.skin != kGltfNone) {
      const GltfSkin& skin = scene.skins[std::size_t(node.skin)];
      for (std::size_t j = 0; j < skin.joints.size(); ++j)
        jointMatrices.push_back(pose.worlds[std::size_t(skin.joints[j])] * skin.inverseBinds[j]);
    }
    for (const GltfPrimitive& prim : scene.meshes[std::size_t(node.mesh)].primitives) {
      const std::size_t count = prim.mesh.vertexCount();
      const bool skinned = !jointMatrices.empty() && prim.influences > 0;
      for (std::size_t v = 0; v < count; ++v) {
        glm::dvec3 p(prim.mesh.positions[v * 3], prim.mesh.positions[v * 3 + 1], prim.mesh.positions[v * 3 + 2]);
        for (std::size_t t = 0; t < std::min(weights.size(), prim.targets.size()); ++t) {
          const auto& d = prim.targets[t].positions;
          if (!d.empty() && weights[t] != 0.0) p += weights[t] * glm::dvec3(d[v * 3], d[v * 3 + 1], d[v * 3 + 2]);
        }
        glm::dvec4 placed;
        if (skinned) {
          // Weights normalised to sum 1 (as three.js does on load; a valid file already sums to 1).
          glm::dmat4 m(0.0);
          double sum = 0;
          const std::size_t k0 = v * std::size_t(prim.influences);
          for (std::size_t k = k0; k < k0 + std::size_t(prim.influences); ++k) {
            const double w = prim.jointWeights[k];
            if (w == 0.0 || prim.joints[k] >= jointMatrices.size()) continue;
            m += w * jointMatrices[prim.joints[k]];
            sum += w;
          }
          placed = sum > 0 ? (m / sum) * glm::dvec4(p, 1.0) : pose.worlds[std::size_t(i)] * glm::dvec4(p, 1.0);
        } else {
          placed = pose.worlds[std::size_t(i)] * glm::dvec4(p, 1.0);
        }
        out.insert(out.end(), {float(placed.x), float(placed.y), float(placed.z)});
      }
    }
  }
  return out;
}

}  // namespace riglens::core
