// A small VRM avatar written by hand with tinygltf, as VRM 0.x (UniVRM's
// `extensions.VRM`) or VRM 1.0 (`extensions.VRMC_vrm`): the same face either
// way, so one set of expectations covers both.
//
// Nodes: 0 "Hips" (root) > 1 "Head" > 2 "Face" (mesh 0), 3 "BrowL" and
// 4 "BrowR" (both mesh 1). Mesh 0, the face: a 3 x 3 grid in the plane
// z = 0.1 (x, y in -0.5 .. 0.5, about y = 1.5 in the head) with three
// morph targets; mesh 1, a brow: a quad with one. kFaceTargets and
// kBrowTarget hold the deltas.
//
// Expressions (bind weights 0..1; VRM 0.x writes them x100 and binds the
// brows' mesh, which both brow nodes draw; 1.0 binds each node):
//   happy      face t0 x 1.0, brows t0 x 0.5       (0.x preset "joy")
//   blink      face t1 x 1.0                       (0.x preset "blink")
//   aa         face t2 x 0.8                       (0.x preset "a")
//   surprised  brows t0 x 1.0; 1.0 only: overrideBlink "blend",
//              overrideMouth "block"               (0.x: custom "Surprised")
//   wink       binary, face t1 x 0.5               (custom in both)
// Humanoid: hips -> node 0, head -> node 1, and the other bones VRM
// requires (spine, legs, feet, arms, hands) -> nodes 5.. under the hips,
// named as kVrmLimbBones spells them with a capital. One material, MToon in
// both.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "gltf_builder.h"

namespace riglens::test {

inline constexpr int kVrmFaceVertices = 9, kVrmBrowVertices = 4;
// The required humanoid bones past hips and head, at nodes 5, 6, ... in this order.
inline constexpr std::array<const char*, 13> kVrmLimbBones = {
    "spine",        "leftUpperLeg", "leftLowerLeg", "leftFoot",      "rightUpperLeg", "rightLowerLeg", "rightFoot",
    "leftUpperArm", "leftLowerArm", "leftHand",     "rightUpperArm", "rightLowerArm", "rightHand"};
inline std::string vrmLimbNodeName(const char* bone) {
  std::string name = bone;
  name[0] = char(name[0] - 'a' + 'A');
  return name;
}

// The face's targets: t0 lifts the four corners by 0.1, t1 lowers the top
// row by 0.2, t2 lowers the bottom row by 0.3 (y only).
inline std::array<std::vector<float>, 3> vrmFaceTargets() {
  std::array<std::vector<float>, 3> targets;
  for (auto& t : targets) t.assign(kVrmFaceVertices * 3, 0.0f);
  for (int v : {0, 2, 6, 8}) targets[0][std::size_t(v) * 3 + 1] = 0.1f;
  for (int v : {6, 7, 8}) targets[1][std::size_t(v) * 3 + 1] = -0.2f;
  for (int v : {0, 1, 2}) targets[2][std::size_t(v) * 3 + 1] = -0.3f;
  return targets;
}
// The brow's one target lifts every vertex by 0.05.
inline std::vector<float> vrmBrowTarget() {
  std::vector<float> t(kVrmBrowVertices * 3, 0.0f);
  for (int v = 0; v < kVrmBrowVertices; ++v) t[std::size_t(v) * 3 + 1] = 0.05f;
  return t;
}

namespace detail {

inline tinygltf::Value vrmObject(std::initializer_list<std::pair<const std::string, tinygltf::Value>> members) {
  return tinygltf::Value(tinygltf::Value::Object(members));
}
inline tinygltf::Value vrmArray(std::vector<tinygltf::Value> items) {
  return tinygltf::Value(tinygltf::Value::Array(std::move(items)));
}

inline int vrmMesh(GltfBuilder& b, const std::vector<float>& positions, const std::vector<std::uint16_t>& indices,
                   const std::vector<std::vector<float>>& targets) {
  tinygltf::Primitive p;
  p.attributes["POSITION"] = b.positionData(positions);
  p.indices = b.data(indices, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_SCALAR);
  p.mode = TINYGLTF_MODE_TRIANGLES;
  p.material = 0;
  for (const auto& t : targets) p.targets.push_back({{"POSITION", b.positionData(t)}});
  tinygltf::Mesh mesh;
  mesh.primitives.push_back(p);
  mesh.weights.assign(targets.size(), 0.0);
  b.model.meshes.push_back(mesh);
  return int(b.model.meshes.size()) - 1;
}

// A 0.x bind: a mesh, a target, a weight 0..100.
inline tinygltf::Value v0Bind(int mesh, int index, double weight) {
  return vrmObject(
      {{"mesh", tinygltf::Value(mesh)}, {"index", tinygltf::Value(index)}, {"weight", tinygltf::Value(weight)}});
}
inline tinygltf::Value v0Group(const char* name, const char* preset, std::vector<tinygltf::Value> binds,
                               bool binary = false) {
  return vrmObject({{"name", tinygltf::Value(std::string(name))},
                    {"presetName", tinygltf::Value(std::string(preset))},
                    {"isBinary", tinygltf::Value(binary)},
                    {"binds", vrmArray(std::move(binds))}});
}

inline tinygltf::Value vrm0() {
  const std::vector<tinygltf::Value> groups = {
      v0Group("Joy", "joy", {v0Bind(0, 0, 100), v0Bind(1, 0, 50)}), v0Group("Blink", "blink", {v0Bind(0, 1, 100)}),
      v0Group("A", "a", {v0Bind(0, 2, 80)}), v0Group("Surprised", "unknown", {v0Bind(1, 0, 100)}),
      v0Group("wink", "unknown", {v0Bind(0, 1, 50)}, true)};
  const auto bone = [](const char* name, int node) {
    return vrmObject({{"bone", tinygltf::Value(std::string(name))}, {"node", tinygltf::Value(node)}});
  };
  std::vector<tinygltf::Value> bones = {bone("hips", 0), bone("head", 1)};
  for (std::size_t b = 0; b < kVrmLimbBones.size(); ++b) bones.push_back(bone(kVrmLimbBones[b], int(5 + b)));
  return vrmObject(
      {{"exporterVersion", tinygltf::Value(std::string("RigLens test fixture"))},
       {"specVersion", tinygltf::Value(std::string("0.0"))},
       {"meta", vrmObject({{"title", tinygltf::Value(std::string("Test face"))}})},
       {"humanoid", vrmObject({{"humanBones", vrmArray(bones)}})},
       {"blendShapeMaster", vrmObject({{"blendShapeGroups", vrmArray(groups)}})},
       {"materialProperties",
        vrmArray({vrmObject(
            {{"name", tinygltf::Value(std::string("skin"))},
             {"shader", tinygltf::Value(std::string("VRM/MToon"))},
             {"vectorProperties", vrmObject({{"_ShadeColor", vrmArray({tinygltf::Value(0.5), tinygltf::Value(0.4),
                                                                       tinygltf::Value(0.3), tinygltf::Value(1.0)})}})},
             {"floatProperties",
              vrmObject({{"_ShadeShift", tinygltf::Value(0.2)}, {"_ShadeToony", tinygltf::Value(0.6)}})}})})}});
}

// A 1.0 bind: a node, a target, a weight 0..1.
inline tinygltf::Value v1Bind(int node, int index, double weight) {
  return vrmObject(
      {{"node", tinygltf::Value(node)}, {"index", tinygltf::Value(index)}, {"weight", tinygltf::Value(weight)}});
}
inline tinygltf::Value v1Expression(std::vector<tinygltf::Value> binds, bool binary = false, const char* blink = "none",
                                    const char* mouth = "none") {
  return vrmObject({{"morphTargetBinds", vrmArray(std::move(binds))},
                    {"isBinary", tinygltf::Value(binary)},
                    {"overrideBlink", tinygltf::Value(std::string(blink))},
                    {"overrideMouth", tinygltf::Value(std::string(mouth))}});
}

inline tinygltf::Value vrm1() {
  const tinygltf::Value preset =
      vrmObject({{"happy", v1Expression({v1Bind(2, 0, 1.0), v1Bind(3, 0, 0.5), v1Bind(4, 0, 0.5)})},
                 {"blink", v1Expression({v1Bind(2, 1, 1.0)})},
                 {"aa", v1Expression({v1Bind(2, 2, 0.8)})},
                 {"surprised", v1Expression({v1Bind(3, 0, 1.0), v1Bind(4, 0, 1.0)}, false, "blend", "block")}});
  const tinygltf::Value custom = vrmObject({{"wink", v1Expression({v1Bind(2, 1, 0.5)}, true)}});
  const auto bone = [](int node) { return vrmObject({{"node", tinygltf::Value(node)}}); };
  tinygltf::Value::Object bones{{"hips", bone(0)}, {"head", bone(1)}};
  for (std::size_t b = 0; b < kVrmLimbBones.size(); ++b) bones[kVrmLimbBones[b]] = bone(int(5 + b));
  return vrmObject(
      {{"specVersion", tinygltf::Value(std::string("1.0"))},
       {"meta", vrmObject({{"name", tinygltf::Value(std::string("Test face"))},
                           {"authors", vrmArray({tinygltf::Value(std::string("RigLens"))})},
                           {"licenseUrl", tinygltf::Value(std::string("https://vrm.dev/licenses/1.0/"))}})},
       {"humanoid", vrmObject({{"humanBones", tinygltf::Value(bones)}})},
       {"expressions", vrmObject({{"preset", preset}, {"custom", custom}})}});
}

}  // namespace detail

// The avatar as VRM `majorVersion` (0 or 1): a GLB's bytes' builder.
inline GltfBuilder makeVrmFace(int majorVersion) {
  using detail::vrmObject;
  GltfBuilder b;
  tinygltf::Material skin;
  skin.name = "skin";
  skin.pbrMetallicRoughness.baseColorFactor = {1.0, 0.8, 0.7, 1.0};
  if (majorVersion == 1)
    skin.extensions["VRMC_materials_mtoon"] = vrmObject(
        {{"specVersion", tinygltf::Value(std::string("1.0"))},
         {"shadeColorFactor", detail::vrmArray({tinygltf::Value(0.6), tinygltf::Value(0.4), tinygltf::Value(0.4)})},
         {"shadingShiftFactor", tinygltf::Value(-0.1)},
         {"shadingToonyFactor", tinygltf::Value(0.7)}});
  b.model.materials.push_back(skin);
  std::vector<float> grid;
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col)
      grid.insert(grid.end(), {-0.5f + 0.5f * float(col), -0.5f + 0.5f * float(row), 0.1f});
  std::vector<std::uint16_t> gridIndices;
  for (int row = 0; row < 2; ++row)
    for (int col = 0; col < 2; ++col) {
      const auto a = std::uint16_t(row * 3 + col);
      gridIndices.insert(gridIndices.end(), {a, std::uint16_t(a + 1), std::uint16_t(a + 4), a, std::uint16_t(a + 4),
                                             std::uint16_t(a + 3)});
    }
  const auto face = vrmFaceTargets();
  detail::vrmMesh(b, grid, gridIndices, {face[0], face[1], face[2]});
  detail::vrmMesh(b, {-0.1f, 0, 0, 0.1f, 0, 0, 0.1f, 0.04f, 0, -0.1f, 0.04f, 0}, {0, 1, 2, 0, 2, 3}, {vrmBrowTarget()});
  const auto node = [&](const char* name, std::vector<double> translation, int mesh, std::vector<int> children) {
    tinygltf::Node n;
    n.name = name;
    n.translation = std::move(translation);
    n.mesh = mesh;
    n.children = std::move(children);
    b.model.nodes.push_back(n);
  };
  std::vector<int> hipsChildren = {1};
  for (std::size_t bone = 0; bone < kVrmLimbBones.size(); ++bone) hipsChildren.push_back(int(5 + bone));
  node("Hips", {0, 1.0, 0}, -1, hipsChildren);
  node("Head", {0, 0.5, 0}, -1, {2, 3, 4});
  node("Face", {0, 0, 0}, 0, {});
  node("BrowL", {-0.25, 0.35, 0.12}, 1, {});
  node("BrowR", {0.25, 0.35, 0.12}, 1, {});
  for (std::size_t bone = 0; bone < kVrmLimbBones.size(); ++bone)  // bones with nothing to draw: placed anywhere
    node(vrmLimbNodeName(kVrmLimbBones[bone]).c_str(), {0.1 * double(bone), -0.5, 0}, -1, {});
  tinygltf::Scene scene;
  scene.nodes = {0};
  b.model.scenes.push_back(scene);
  b.model.defaultScene = 0;
  const std::string extension = majorVersion == 1 ? "VRMC_vrm" : "VRM";
  b.model.extensions[extension] = majorVersion == 1 ? detail::vrm1() : detail::vrm0();
  b.model.extensionsUsed = {extension};
  if (majorVersion == 1) b.model.extensionsUsed.push_back("VRMC_materials_mtoon");
  return b;
}

}  // namespace riglens::test
