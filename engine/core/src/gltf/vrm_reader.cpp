#include "vrm_reader.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "gltf/gltf_value_member.h"

namespace riglens::core {
namespace {

using tinygltf::Value;

using gltf_json::member;
std::string text(const Value& object, const char* key) {
  const Value* v = member(object, key);
  return v && v->IsString() ? v->Get<std::string>() : std::string();
}
bool flag(const Value& object, const char* key) {
  const Value* v = member(object, key);
  return v && v->IsBool() && v->Get<bool>();
}
// A number member, or `fallback` when absent; nullopt when present but no number.
std::optional<double> number(const Value& object, const char* key, double fallback) {
  const Value* v = member(object, key);
  if (!v) return fallback;
  if (!v->IsNumber()) return std::nullopt;
  return v->GetNumberAsDouble();
}
std::optional<int> index(const Value& object, const char* key) {
  const Value* v = member(object, key);
  if (!v || !v->IsNumber()) return std::nullopt;
  const double d = v->GetNumberAsDouble();
  if (!(d >= 0 && d < 2147483647.0) || d != std::floor(d)) return std::nullopt;
  return int(d);
}

// VRM 0.x preset names as three-vrm gives them in 1.0's words.
std::string v1PresetName(const std::string& v0) {
  static const std::pair<const char*, const char*> kNames[] = {{"a", "aa"},
                                                               {"e", "ee"},
                                                               {"i", "ih"},
                                                               {"o", "oh"},
                                                               {"u", "ou"},
                                                               {"blink", "blink"},
                                                               {"joy", "happy"},
                                                               {"angry", "angry"},
                                                               {"sorrow", "sad"},
                                                               {"fun", "relaxed"},
                                                               {"lookup", "lookUp"},
                                                               {"lookdown", "lookDown"},
                                                               {"lookleft", "lookLeft"},
                                                               {"lookright", "lookRight"},
                                                               {"blink_l", "blinkLeft"},
                                                               {"blink_r", "blinkRight"},
                                                               {"neutral", "neutral"}};
  for (const auto& [from, to] : kNames)
    if (v0 == from) return to;
  return {};
}

bool isV1Preset(const std::string& name) {
  static const char* const kPresets[] = {"aa",       "ih",       "ou",        "ee",        "oh",         "blink",
                                         "happy",    "angry",    "sad",       "relaxed",   "lookUp",     "surprised",
                                         "lookDown", "lookLeft", "lookRight", "blinkLeft", "blinkRight", "neutral"};
  return std::find(std::begin(kPresets), std::end(kPresets), name) != std::end(kPresets);
}

VrmOverride overrideOf(const Value& expression, const char* key) {
  const std::string mode = text(expression, key);
  return mode == "block" ? VrmOverride::Block : mode == "blend" ? VrmOverride::Blend : VrmOverride::None;
}

class VrmReader {
 public:
  VrmReader(const tinygltf::Model& model, const GltfScene& scene, std::string_view source, Diagnostics& warnings)
      : m_model(model), m_scene(scene), m_source(source), m_warnings(warnings) {}

  std::optional<VrmAvatar> run() {
    for (std::size_t n = 0; n < m_scene.nodes.size(); ++n)
      if (m_scene.nodes[n].mesh >= 0) m_nodesOfMesh[m_scene.nodes[n].mesh].push_back(int(n));
    if (const auto it = m_model.extensions.find("VRMC_vrm"); it != m_model.extensions.end()) {
      m_avatar.majorVersion = 1;
      readV1(it->second);
    } else if (const auto old = m_model.extensions.find("VRM"); old != m_model.extensions.end()) {
      m_avatar.majorVersion = 0;
      readV0(old->second);
    } else {
      return std::nullopt;
    }
    if (!m_avatar.mtoonMaterials.empty())
      m_warnings.push_back(
          {std::string(m_source), "",
           std::to_string(m_avatar.mtoonMaterials.size()) +
               " material(s) use MToon, VRM's toon shading: the PBR look draws its base and shade colours "
               "(approximated: no rim light, matcap, outline or UV animation); the review look "
               "draws the glTF material each falls back to",
           Severity::Info});
    return std::move(m_avatar);
  }

 private:
  void setAside(const std::string& pointer, const std::string& problem) {
    m_warnings.push_back({std::string(m_source), pointer, problem});
  }

  // A bind to `node`'s morph target `target`, set aside when the node
  // draws no mesh with that many targets or the weight is no number.
  void addBind(VrmExpression& expression, int node, const std::optional<int>& target, std::optional<double> weight,
               const std::string& pointer) {
    const bool nodeOk =
        node >= 0 && std::size_t(node) < m_scene.nodes.size() && m_scene.nodes[std::size_t(node)].mesh >= 0;
    const std::size_t targets =
        nodeOk ? m_scene.meshes[std::size_t(m_scene.nodes[std::size_t(node)].mesh)].morphTargets : 0;
    if (!nodeOk || !target || std::size_t(*target) >= targets) {
      return setAside(pointer, "the bind names no morph target of a drawn mesh: left out");
    }
    if (!weight || !std::isfinite(*weight)) {
      return setAside(pointer + "/weight", "the bind's weight is not a finite number: left out");
    }
    expression.binds.push_back({node, *target, *weight});
  }

  // VRM 0.x: blendShapeGroups binding meshes (every node drawing one), weights 0..100.
  void readV0(const Value& vrm) {
    m_avatar.title = text(*orEmpty(member(vrm, "meta")), "title");
    const std::string base = "/extensions/VRM";
    if (const Value* groups = member(*orEmpty(member(vrm, "blendShapeMaster")), "blendShapeGroups");
        groups && groups->IsArray())
      for (std::size_t g = 0; g < groups->ArrayLen(); ++g) {
        const Value& group = groups->Get(int(g));
        const std::string pointer = base + "/blendShapeMaster/blendShapeGroups/" + std::to_string(g);
        VrmExpression expression;
        const std::string preset = v1PresetName(text(group, "presetName"));
        expression.preset = !preset.empty();
        expression.name = expression.preset ? preset : text(group, "name");
        expression.binary = flag(group, "isBinary");
        const Value* binds = member(group, "binds");
        for (std::size_t b = 0; binds && binds->IsArray() && b < binds->ArrayLen(); ++b) {
          const Value& bind = binds->Get(int(b));
          const std::string at = pointer + "/binds/" + std::to_string(b);
          const std::optional<int> mesh = index(bind, "mesh");
          std::optional<double> weight = number(bind, "weight", 100.0);
          if (weight) *weight *= 0.01;
          const auto drawing = mesh ? m_nodesOfMesh.find(*mesh) : m_nodesOfMesh.end();
          if (drawing == m_nodesOfMesh.end()) {
            setAside(at + "/mesh", "no node draws the bind's mesh: left out");
            continue;
          }
          for (int n : drawing->second) addBind(expression, n, index(bind, "index"), weight, at);
        }
        addExpression(std::move(expression), pointer);
      }
    if (const Value* bones = member(*orEmpty(member(vrm, "humanoid")), "humanBones"); bones && bones->IsArray())
      for (std::size_t b = 0; b < bones->ArrayLen(); ++b)
        addHumanBone(text(bones->Get(int(b)), "bone"), index(bones->Get(int(b)), "node"),
                     base + "/humanoid/humanBones/" + std::to_string(b));
    if (const Value* properties = member(vrm, "materialProperties"); properties && properties->IsArray())
      for (std::size_t m = 0; m < properties->ArrayLen() && m < m_model.materials.size(); ++m)
        if (text(properties->Get(int(m)), "shader") == "VRM/MToon") m_avatar.mtoonMaterials.push_back(int(m));
  }

  // VRM 1.0: expressions.preset and .custom maps binding nodes, weights 0..1.
  void readV1(const Value& vrm) {
    m_avatar.title = text(*orEmpty(member(vrm, "meta")), "name");
    const std::string base = "/extensions/VRMC_vrm";
    const Value* expressions = member(vrm, "expressions");
    for (const char* kind : {"preset", "custom"}) {
      const Value* map = expressions ? member(*expressions, kind) : nullptr;
      if (!map || !map->IsObject()) continue;
      for (const std::string& name : map->Keys()) {
        const Value& source = map->Get(name);
        const std::string pointer = base + "/expressions/" + kind + "/" + name;
        // VRM 1.0 fixes the preset names; a custom one may not take them.
        if (isV1Preset(name) != (std::string(kind) == "preset")) {
          setAside(pointer, isV1Preset(name) ? "a custom expression may not take a preset's name: left out"
                                             : "'" + name + "' is no VRM 1.0 preset: left out");
          continue;
        }
        VrmExpression expression;
        expression.name = name;
        expression.preset = std::string(kind) == "preset";
        expression.binary = flag(source, "isBinary");
        expression.overrideBlink = overrideOf(source, "overrideBlink");
        expression.overrideLookAt = overrideOf(source, "overrideLookAt");
        expression.overrideMouth = overrideOf(source, "overrideMouth");
        const Value* binds = member(source, "morphTargetBinds");
        for (std::size_t b = 0; binds && binds->IsArray() && b < binds->ArrayLen(); ++b) {
          const Value& bind = binds->Get(int(b));
          addBind(expression, index(bind, "node").value_or(-1), index(bind, "index"), number(bind, "weight", 1.0),
                  pointer + "/morphTargetBinds/" + std::to_string(b));
        }
        addExpression(std::move(expression), pointer);
      }
    }
    if (const Value* bones = member(*orEmpty(member(vrm, "humanoid")), "humanBones"); bones && bones->IsObject())
      for (const std::string& bone : bones->Keys())
        addHumanBone(bone, index(bones->Get(bone), "node"), base + "/humanoid/humanBones/" + bone);
    for (std::size_t m = 0; m < m_model.materials.size(); ++m)
      if (m_model.materials[m].extensions.count("VRMC_materials_mtoon")) m_avatar.mtoonMaterials.push_back(int(m));
  }

  void addExpression(VrmExpression expression, const std::string& pointer) {
    if (expression.name.empty()) return setAside(pointer, "an expression without a name: left out");
    if (!m_names.insert(expression.name).second)
      return setAside(pointer, "a second expression named '" + expression.name + "': left out");
    m_avatar.expressions.push_back(std::move(expression));
  }

  void addHumanBone(const std::string& bone, std::optional<int> node, const std::string& pointer) {
    if (bone.empty() || !node || std::size_t(*node) >= m_scene.nodes.size())
      return setAside(pointer, "a humanoid bone without a name or a node of the file: left out");
    m_avatar.humanoid.push_back({bone, *node});
  }

  static const Value* orEmpty(const Value* v) {
    static const Value kNoValue;
    return v ? v : &kNoValue;
  }

  const tinygltf::Model& m_model;
  const GltfScene& m_scene;
  std::string_view m_source;
  Diagnostics& m_warnings;
  VrmAvatar m_avatar;
  // Looked up once per bind and per expression: a file with many of either
  // must cost in proportion to its size, not its square.
  std::map<int, std::vector<int>> m_nodesOfMesh;
  std::set<std::string> m_names;
};

}  // namespace

std::optional<VrmAvatar> readVrmAvatar(const tinygltf::Model& model, const GltfScene& scene, std::string_view source,
                                       Diagnostics& warnings) {
  return VrmReader(model, scene, source, warnings).run();
}

}  // namespace riglens::core
