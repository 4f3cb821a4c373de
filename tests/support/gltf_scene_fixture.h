// An animated glTF character for the scene tests, the kind an artist exports
// (and RigLens used to refuse): a node hierarchy with TRS and matrix nodes, a
// skinned body with two morph targets (sparse accessors), an unskinned hat parented to a joint,
// an unskinned prop beside it in the same file, and two clips that between
// them use every path (translation, rotation, scale, weights) and every
// interpolation (LINEAR, STEP, CUBICSPLINE).
//
//   Armature (T, R)         prop (matrix)
//     hip (joint)
//       spine (joint)
//         arm (joint)
//         hat (mesh, unskinned)
//   body (mesh, skin 0: hip, spine, arm; at the root, identity)
#pragma once

#include <cmath>
#include <glm/gtc/matrix_inverse.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "gltf_builder.h"

namespace riglens::test {

inline GltfBuilder makeAnimatedCharacter() {
  GltfBuilder b;
  const auto f32 = [&](const std::vector<float>& v, int type) {
    return b.data(v, TINYGLTF_COMPONENT_TYPE_FLOAT, type);
  };
  // The body: a column of 3 rings of 3 vertices from y 0 to 2, bound to hip,
  // spine and arm with blended weights.
  std::vector<float> pos, morphUp, morphWide;
  std::vector<std::uint16_t> joints;
  std::vector<float> weights;
  std::vector<std::uint16_t> indices;
  for (int ring = 0; ring < 3; ++ring)
    for (int k = 0; k < 3; ++k) {
      const float a = 2.0943951f * float(k);
      pos.insert(pos.end(), {0.3f * std::cos(a), float(ring), 0.3f * std::sin(a)});
      morphUp.insert(morphUp.end(), {0.0f, 0.1f * float(ring), 0.0f});
      morphWide.insert(morphWide.end(), {0.2f * std::cos(a), 0.0f, 0.2f * std::sin(a)});
      joints.insert(joints.end(), {std::uint16_t(ring), std::uint16_t(ring == 0 ? 1 : ring - 1), 0, 0});
      weights.insert(weights.end(), {0.75f, 0.25f, 0.0f, 0.0f});
    }
  for (int ring = 0; ring < 2; ++ring)
    for (int k = 0; k < 3; ++k) {
      const auto a = std::uint16_t(ring * 3 + k), c = std::uint16_t(ring * 3 + (k + 1) % 3);
      indices.insert(indices.end(), {a, c, std::uint16_t(a + 3), c, std::uint16_t(c + 3), std::uint16_t(a + 3)});
    }
  tinygltf::Mesh body;
  body.name = "body";
  tinygltf::Primitive bodyPrim;
  bodyPrim.attributes = {{"POSITION", f32(pos, TINYGLTF_TYPE_VEC3)},
                         {"JOINTS_0", b.data(joints, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_VEC4)},
                         {"WEIGHTS_0", f32(weights, TINYGLTF_TYPE_VEC4)}};
  // Both targets sparse, as exporters write targets that move few vertices:
  // "up" has no base (rings 1 and 2 moved, ring 0 zeros); "wide" has a base
  // that is wrong on ring 2 (zeros) and the sparse values correct it.
  std::vector<float> wideBase = morphWide, upMoved(morphUp.begin() + 9, morphUp.end()),
                     wideRing2(morphWide.begin() + 18, morphWide.end());
  std::fill(wideBase.begin() + 18, wideBase.end(), 0.0f);
  const int up = b.sparse(-1, 9, TINYGLTF_TYPE_VEC3, {3, 4, 5, 6, 7, 8}, upMoved);
  const int wide = b.sparse(f32(wideBase, TINYGLTF_TYPE_VEC3), 9, TINYGLTF_TYPE_VEC3, {6, 7, 8}, wideRing2);
  b.bounds(up, morphUp);
  b.bounds(wide, morphWide);
  b.bounds(bodyPrim.attributes["POSITION"], pos);
  bodyPrim.targets = {{{"POSITION", up}}, {{"POSITION", wide}}};
  bodyPrim.indices = b.data(indices, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_SCALAR);
  bodyPrim.mode = TINYGLTF_MODE_TRIANGLES;
  body.primitives.push_back(bodyPrim);
  body.weights = {0.5, 0.0};
  // A triangle for the hat and the prop (no skin: placed by their nodes).
  tinygltf::Mesh tri;
  tri.name = "triangle";
  tinygltf::Primitive triPrim;
  const std::vector<float> triangle = {0, 0, 0, 0.4f, 0, 0, 0, 0.4f, 0.1f};
  triPrim.attributes = {{"POSITION", f32(triangle, TINYGLTF_TYPE_VEC3)}};
  b.bounds(triPrim.attributes["POSITION"], triangle);
  triPrim.mode = TINYGLTF_MODE_TRIANGLES;
  tri.primitives.push_back(triPrim);
  b.model.meshes = {body, tri};

  const auto node = [&](const char* name, std::vector<double> t, std::vector<double> r = {},
                        std::vector<double> s = {}) {
    tinygltf::Node n;
    n.name = name;
    n.translation = std::move(t);
    n.rotation = std::move(r);
    n.scale = std::move(s);
    b.model.nodes.push_back(n);
    return int(b.model.nodes.size() - 1);
  };
  const int armature = node("Armature", {0.2, 0.1, -0.3}, {0, 0.38268343, 0, 0.92387953});  // 45 deg about y
  const int hip = node("hip", {0, 0, 0});
  const int spine = node("spine", {0, 1, 0});
  const int arm = node("arm", {0, 1, 0}, {0, 0, 0.25881905, 0.96592583});  // 30 deg about z
  const int hat = node("hat", {0, 0.6, 0}, {}, {1.5, 1.5, 1.5});
  const int bodyNode = node("body", {});
  const int prop = node("prop", {});
  b.model.nodes[std::size_t(bodyNode)].mesh = 0;
  b.model.nodes[std::size_t(bodyNode)].skin = 0;
  b.model.nodes[std::size_t(hat)].mesh = 1;
  b.model.nodes[std::size_t(prop)].mesh = 1;
  b.model.nodes[std::size_t(prop)].matrix = {0, 0, -1, 0, 0,   1, 0,   0,
                                             1, 0, 0,  0, 1.5, 0, 0.5, 1};  // 90 deg about y, moved
  b.model.nodes[std::size_t(armature)].children = {hip};
  b.model.nodes[std::size_t(hip)].children = {spine};
  b.model.nodes[std::size_t(spine)].children = {arm, hat};
  tinygltf::Scene scene;
  scene.nodes = {armature, bodyNode, prop};
  b.model.scenes = {scene};
  b.model.defaultScene = 0;

  // The skin: inverse binds are the inverse rest worlds of the joints.
  const auto local = [&](int i) {
    const auto& n = b.model.nodes[std::size_t(i)];
    glm::dmat4 m(1.0);
    if (n.translation.size() == 3)
      m = glm::translate(m, glm::dvec3(n.translation[0], n.translation[1], n.translation[2]));
    if (n.rotation.size() == 4)
      m *= glm::mat4_cast(glm::dquat(n.rotation[3], n.rotation[0], n.rotation[1], n.rotation[2]));
    return m;
  };
  const glm::dmat4 hipWorld = local(armature) * local(hip), spineWorld = hipWorld * local(spine),
                   armWorld = spineWorld * local(arm);
  std::vector<float> ibm;
  for (const glm::dmat4& w : {hipWorld, spineWorld, armWorld}) {
    const glm::mat4 inv(glm::inverse(w));
    ibm.insert(ibm.end(), glm::value_ptr(inv), glm::value_ptr(inv) + 16);
  }
  tinygltf::Skin skin;
  skin.name = "rig";
  skin.joints = {hip, spine, arm};
  skin.inverseBindMatrices = f32(ibm, TINYGLTF_TYPE_MAT4);
  b.model.skins = {skin};

  // Clips.
  const auto channel = [&](tinygltf::Animation& anim, int target, const char* path, const std::vector<float>& times,
                           const std::vector<float>& values, int type, const char* interpolation) {
    tinygltf::AnimationSampler s;
    s.input = f32(times, TINYGLTF_TYPE_SCALAR);
    b.model.accessors[std::size_t(s.input)].minValues = {times.front()};
    b.model.accessors[std::size_t(s.input)].maxValues = {times.back()};
    s.output = f32(values, type);
    s.interpolation = interpolation;
    anim.samplers.push_back(s);
    tinygltf::AnimationChannel c;
    c.sampler = int(anim.samplers.size() - 1);
    c.target_node = target;
    c.target_path = path;
    anim.channels.push_back(c);
  };
  tinygltf::Animation wave;
  wave.name = "wave";
  // spine: LINEAR rotation about x, 0 -> 40 -> -20 degrees
  channel(wave, spine, "rotation", {0.0f, 0.5f, 1.2f},
          {0, 0, 0, 1, 0.34202014f, 0, 0, 0.93969262f, -0.17364818f, 0, 0, 0.98480775f}, TINYGLTF_TYPE_VEC4, "LINEAR");
  // arm: STEP translation
  channel(wave, arm, "translation", {0.0f, 0.4f, 0.8f}, {0, 1, 0, 0.2f, 1, 0, 0.2f, 1.3f, 0.1f}, TINYGLTF_TYPE_VEC3,
          "STEP");
  // hip: CUBICSPLINE scale (in-tangent, value, out-tangent per key)
  channel(wave, hip, "scale", {0.0f, 1.0f},
          {0, 0, 0, 1, 1, 1, 0.5f, 0, 0.2f, -0.3f, 0.1f, 0, 1.2f, 0.9f, 1.1f, 0, 0, 0}, TINYGLTF_TYPE_VEC3,
          "CUBICSPLINE");
  // body: LINEAR morph weights
  channel(wave, bodyNode, "weights", {0.0f, 0.6f, 1.2f}, {0.5f, 0.0f, 1.0f, 0.3f, 0.2f, 1.0f}, TINYGLTF_TYPE_SCALAR,
          "LINEAR");
  tinygltf::Animation bounce;
  bounce.name = "bounce";
  // Armature: CUBICSPLINE translation; arm: CUBICSPLINE rotation (normalised after)
  channel(bounce, armature, "translation", {0.0f, 0.5f, 1.0f}, {0, 0,  0, 0.2f, 0.1f, -0.3f, 0, 2, 0,  //
                                                                0, -1, 0, 0.2f, 0.6f, -0.3f, 0, 1, 0,  //
                                                                0, 1,  0, 0.2f, 0.1f, -0.3f, 0, 0, 0},
          TINYGLTF_TYPE_VEC3, "CUBICSPLINE");
  channel(bounce, arm, "rotation", {0.0f, 1.0f}, {0, 0, 0,    0, 0,    0, 0.25881905f, 0.96592583f, 0, 0, 0.8f, 0,  //
                                                  0, 0, 0.3f, 0, 0.5f, 0, 0,           0.8660254f,  0, 0, 0,    0},
          TINYGLTF_TYPE_VEC4, "CUBICSPLINE");
  b.model.animations = {wave, bounce};
  return b;
}

// The same file with its skin taken away: every mesh placed by its node,
// its clips still moving the nodes and morphing the body.
inline GltfBuilder withoutSkin(GltfBuilder b) {
  b.model.skins.clear();
  for (auto& node : b.model.nodes) node.skin = -1;
  for (auto& mesh : b.model.meshes)
    for (auto& prim : mesh.primitives) {
      prim.attributes.erase("JOINTS_0");
      prim.attributes.erase("WEIGHTS_0");
    }
  return b;
}

}  // namespace riglens::test
