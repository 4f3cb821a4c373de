// The glTF scene model (core::readGltfScene, gltfSamplePose,
// gltfPosedVertices) on the animated character fixture: the hierarchy as
// written, each interpolation against values worked out by hand from the glTF
// 2.0 specification's formulas, clamping outside the keys, the rest pose
// through the skin, and refusals naming the file and the problem. (Every
// node and vertex is also compared with three.js in tst_interop_gltf_scene.)
#include <QtCore/QTemporaryDir>
#include <QtTest/QTest>
#include <cstring>
#include <fstream>
#include <glm/gtc/matrix_access.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "gltf_scene_fixture.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/gltf/glb_reader.h"
#include "riglens/core/gltf/gltf_lights.h"
#include "riglens/core/gltf/gltf_scene.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/model_nodes.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/rig_tints.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/core/rig/scene_bounds.h"
#include "riglens/core/rig/skinning.h"
#include "test_checks.h"

namespace {
// KHR_mesh_quantization's normalised int16: a step is 1/32767, and the
// file's value and the expected one may round to steps either side.
constexpr double kInt16Normalised = 2.0 / 32767;
}  // namespace

using namespace riglens;
using riglens::test::GltfBuilder;

class TestCoreGltfScene : public QObject {
  Q_OBJECT
  QTemporaryDir m_tmp;
  int m_files = 0;

  std::filesystem::path write(GltfBuilder& b) {
    const auto bytes = b.glb();
    const std::filesystem::path path = m_tmp.filePath(QString("scene-%1.glb").arg(m_files++)).toStdString();
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    return path;
  }
  core::GltfScene character() {
    auto b = test::makeAnimatedCharacter();
    auto scene = core::readGltfScene(write(b));
    return scene ? std::move(scene).value() : core::GltfScene{};
  }
  static int find(const core::GltfScene& s, const std::string& name) {
    for (std::size_t i = 0; i < s.nodes.size(); ++i)
      if (s.nodes[i].name == name) return int(i);
    return -1;
  }
  // The node's local matrix recovered from the posed worlds.
  static glm::dmat4 local(const core::GltfScene& s, const core::GltfPose& p, const std::string& name) {
    const int i = find(s, name);
    const int parent = s.nodes[std::size_t(i)].parent;
    return (parent < 0 ? glm::dmat4(1.0) : glm::inverse(p.worlds[std::size_t(parent)])) * p.worlds[std::size_t(i)];
  }

 private slots:
  void readsTheSceneAsWritten() {
    auto b = test::makeAnimatedCharacter();
    auto scene = core::readGltfScene(write(b));
    QVERIFY_OK(scene);
    std::vector<std::string> order;
    for (int i : scene->drawOrder) order.push_back(scene->nodes[std::size_t(i)].name);
    QCOMPARE(order, (std::vector<std::string>{"Armature", "hip", "spine", "arm", "hat", "body", "prop"}));
    QCOMPARE(scene->animations.size(), std::size_t(2));
    QCOMPARE(scene->animations[0].name, std::string("wave"));
    QCOMPARE(scene->animations[0].durationSeconds, 1.2000000476837158);  // the last key, as float
    QCOMPARE(scene->findAnimation("bounce"), 1);
    QCOMPARE(scene->skins[0].joints.size(), std::size_t(3));
    QCOMPARE(scene->meshes[0].primitives[0].targets.size(), std::size_t(2));
    QCOMPARE(scene->meshes[0].primitives[0].influences, 4);
    // The outline: the same tree and clips, no geometry.
    auto outline = core::readGltfScene(write(b), core::GltfDecode::Outline);
    QVERIFY_OK(outline);
    QCOMPARE(outline->drawOrder, scene->drawOrder);
    QCOMPARE(outline->animations.size(), std::size_t(2));
    QVERIFY(outline->meshes[0].primitives.empty());
  }

  void theRestPoseSkinsToTheBindPose() {
    // At rest every joint's world times its inverse bind is the identity:
    // the body (after the hat's 3 vertices: scene order) is its positions
    // plus the default morph (0.5 x target 0).
    const auto scene = character();
    const auto posed = core::gltfPosedVertices(scene, core::gltfRestPose(scene));
    QCOMPARE(posed.size(), std::size_t(15 * 3));
    const auto& prim = scene.meshes[0].primitives[0];
    for (std::size_t v = 0; v < 9; ++v)
      for (std::size_t c = 0; c < 3; ++c) {
        const float expected = prim.mesh.positions[v * 3 + c] + 0.5f * prim.targets[0].positions[v * 3 + c];
        const float got = posed[(3 + v) * 3 + c];
        QVERIFY2(std::abs(got - expected) < riglens::core::tolerance::kFloatCoordinate,
                 qPrintable(QString("vertex %1 axis %2: %3, expected %4").arg(v).arg(c).arg(got).arg(expected)));
      }
    // The prop: its matrix (90 degrees about y, then moved to (1.5, 0, 0.5)) on the triangle's (0.4, 0, 0).
    QCOMPARE_NEAR(posed[(9 + 3 + 1) * 3 + 0], 1.5f, riglens::core::tolerance::kFloatUnit);
    QCOMPARE_NEAR(posed[(9 + 3 + 1) * 3 + 2], 0.1f, riglens::core::tolerance::kFloatUnit);
  }

  void eachInterpolationAsTheSpecificationSays() {
    const auto scene = character();
    const int wave = scene.findAnimation("wave");
    // STEP holds the key at or before the time: arm at 0.5 s is key 1 (0.2, 1, 0).
    const auto at05 = core::gltfSamplePose(scene, wave, 0.5);
    const glm::dvec3 arm = glm::column(local(scene, at05, "arm"), 3);
    QVERIFY(glm::length(arm - glm::dvec3(0.2, 1.0, 0.0)) < riglens::core::tolerance::kFloatUnit);
    // LINEAR rotation is a slerp: halfway from 0 to 40 degrees about x is 20.
    const auto at025 = core::gltfSamplePose(scene, wave, 0.25);
    const glm::dmat4 spine = local(scene, at025, "spine");
    QCOMPARE_NEAR(std::atan2(spine[1][2], spine[1][1]), glm::radians(20.0), riglens::core::tolerance::kFloatUnit);
    // CUBICSPLINE at u = 0.5 over keys 0..1 s: 0.5 v0 + 0.125 b0 + 0.5 v1 - 0.125 a1
    // (v0 = 1,1,1; out-tangent b0 = 0.5,0,0.2; v1 = 1.2,0.9,1.1; in-tangent a1 = -0.3,0.1,0).
    const glm::dmat4 hip = local(scene, at05, "hip");
    const glm::dvec3 scale(glm::length(glm::dvec3(hip[0])), glm::length(glm::dvec3(hip[1])),
                           glm::length(glm::dvec3(hip[2])));
    QVERIFY(glm::length(scale - glm::dvec3(1.2, 0.9375, 1.075)) < riglens::core::tolerance::kFloatUnit);
    // LINEAR weights: halfway from (0.5, 0) to (1, 0.3).
    const auto at03 = core::gltfSamplePose(scene, wave, 0.3);
    const auto& weights = at03.weights[std::size_t(find(scene, "body"))];
    QCOMPARE_NEAR(weights[0], 0.75, riglens::core::tolerance::kFloatUnit);
    QCOMPARE_NEAR(weights[1], 0.15, riglens::core::tolerance::kFloatUnit);
  }

  void timesOutsideTheKeysClamp() {
    const auto scene = character();
    const int wave = scene.findAnimation("wave");
    const double end = scene.animations[std::size_t(wave)].durationSeconds;
    const auto late = core::gltfSamplePose(scene, wave, 9.0), last = core::gltfSamplePose(scene, wave, end);
    const auto early = core::gltfSamplePose(scene, wave, -3.0), first = core::gltfSamplePose(scene, wave, 0.0);
    for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
      QVERIFY(late.worlds[i] == last.worlds[i]);
      QVERIFY(early.worlds[i] == first.worlds[i]);
    }
  }

  void aSkinnedFileWithUnskinnedMeshesDecodesFlat() {
    // readGltfFile used to refuse it ("a skinned mesh needs JOINTS_0 and
    // WEIGHTS_0"): the hat and the prop are placed by their nodes.
    auto b = test::makeAnimatedCharacter();
    auto decoded = core::readGltfFile(write(b));
    QVERIFY_OK(decoded);
    QCOMPARE(decoded->mesh.vertexCount(), std::size_t(15));
    QVERIFY(decoded->skin);
    // hip, spine, arm, then one unnamed bone per unskinned mesh's node (hat, prop)
    QCOMPARE(decoded->skin->boneNames.size(), std::size_t(5));
    QCOMPARE(decoded->skin->boneNames[3], std::string());
    QCOMPARE(decoded->skin->boneNodes[3], find(decoded->outline, "hat"));
    // The prop's second vertex, placed by its node's matrix.
    QCOMPARE_NEAR(decoded->mesh.positions[(9 + 3 + 1) * 3], 1.5f, riglens::core::tolerance::kFloatUnit);
    // The same parse keeps the file's outline: its tree and clips.
    QCOMPARE(decoded->outline.drawOrder.size(), std::size_t(7));
    QCOMPARE(decoded->outline.animations.size(), std::size_t(2));
    // A clip it cannot read leaves the mesh drawn and says why.
    b.model.animations[0].channels[0].target_node = 42;
    auto broken = core::readGltfFile(write(b));
    QVERIFY_OK(broken);
    QVERIFY(broken->outline.animations.empty());
    QCOMPARE(broken->warnings.size(), std::size_t(1));
    QVERIFY(broken->warnings[0].message.find("node 42 does not exist") != std::string::npos);
  }

  void anAnimatedFileWithoutASkinMovesItsNodes() {
    // The character with its skin taken away: every mesh placed by its node.
    // Its clips still move the nodes (the hat hangs from spine) and morph
    // the body: the viewer poses it through node bones, like the skinned one.
    auto b = test::withoutSkin(test::makeAnimatedCharacter());
    const auto path = write(b);
    auto run = core::loadRun(path);
    QVERIFY_OK(run);
    QCOMPARE(run->kind, core::RunKind::SkinnedMesh);
    QVERIFY(run->skin->isRigid() && run->skin->joints.empty() && run->skin->weights.empty());
    auto scene = core::readGltfScene(path);
    QVERIFY_OK(scene);
    core::RigController controller(run->rig, &run->gltf);
    for (int a = 0; a < 2; ++a) {
      QVERIFY_OK(controller.play(scene->animations[std::size_t(a)].name));
      controller.update(0.45);
      controller.evaluate();
      const auto expected = core::gltfPosedVertices(*scene, core::gltfSamplePose(*scene, a, 0.45));
      const auto bones = core::runBones(*run, controller.partWorlds(), controller.gltfPose());
      const auto drawn = core::skinMesh(
          core::morphMesh(run->meshes[0], run->morph, core::runMorphWeights(*run, controller.gltfPose())), *run->skin,
          bones);
      QCOMPARE(drawn.positions.size(), expected.size());
      for (std::size_t i = 0; i < expected.size(); ++i)
        QVERIFY2(
            std::abs(drawn.positions[i] - expected[i]) < riglens::core::tolerance::kFloatCoordinate,
            qPrintable(
                QString("clip %1, coordinate %2: %3 vs %4").arg(a).arg(i).arg(drawn.positions[i]).arg(expected[i])));
    }
  }

  void theJointTintOfASkinShowsEachVertexsBones() {
    // The fixture's ring r is weighted 0.75 to bone r and 0.25 to bone 1 (ring
    // 0) or r - 1; the hat and the prop wholly to their nodes' bones (3, 4).
    auto b = test::makeAnimatedCharacter();
    auto decoded = core::readGltfFile(write(b));
    QVERIFY_OK(decoded);
    const auto tints = core::boneWeightTints(*decoded->skin);
    const auto palette = core::distinctColors(5);
    QCOMPARE(tints.size(), decoded->mesh.vertexCount() * 3);
    // Depth-first draw order: the hat (under spine) first, then the body (a
    // later root), then the prop.
    for (std::size_t v = 0; v < 15; ++v) {
      glm::vec3 expected;
      if (v >= 3 && v < 12) {
        const std::size_t ring = (v - 3) / 3, other = ring == 0 ? 1 : ring - 1;
        expected = 0.75f * palette[ring] + 0.25f * palette[other];
      } else {
        expected = palette[v < 3 ? 3 : 4];
      }
      for (int c = 0; c < 3; ++c)
        QVERIFY2(std::abs(tints[v * 3 + std::size_t(c)] - expected[c]) < riglens::core::tolerance::kFloatUnit,
                 qPrintable(QString("vertex %1: %2 vs %3").arg(v).arg(tints[v * 3 + std::size_t(c)]).arg(expected[c])));
    }
  }

  void theViewerPlaysTheFilesOwnClips() {
    // What the viewer does with a glTF file opened by itself: the rig
    // controller lists the file's clips after the rig's (none here), plays
    // one, and the skinned mesh drawn with its bones (core::runBones) is the
    // scene model's posed vertices (gltfPosedVertices, checked by hand and
    // against three.js elsewhere) — the body through its joints, the hat
    // carried by the joint it hangs from, the prop by its node, the body's
    // morph targets at the clip's weights (morphMesh, then skinMesh: the CPU
    // reference of the GPU skinning pass).
    auto b = test::makeAnimatedCharacter();
    const auto path = write(b);
    auto run = core::loadRun(path);
    QVERIFY_OK(run);
    QCOMPARE(run->kind, core::RunKind::SkinnedMesh);
    QVERIFY2(run->warnings.empty(), run->warnings.empty() ? "" : run->warnings[0].message.c_str());
    auto scene = core::readGltfScene(path);
    QVERIFY_OK(scene);
    core::RigController controller(run->rig, &run->gltf);
    const auto clips = controller.clips();
    QCOMPARE(clips.size(), std::size_t(2));
    QCOMPARE(clips[0].name, scene->animations[0].name);
    QCOMPARE(clips[0].periodMs, scene->animations[0].durationSeconds * 1000.0);
    QVERIFY(clips[0].gltf && clips[0].looping);
    QVERIFY(!clips[0].keyTimesMs.empty() && clips[0].keyTimesMs.back() == clips[0].periodMs);
    const auto compare = [&](const core::GltfPose& expectedPose, const char* what) {
      controller.evaluate();
      const std::vector<float> expected = core::gltfPosedVertices(*scene, expectedPose);
      const auto bones = core::runBones(*run, controller.partWorlds(), controller.gltfPose());
      const auto weights = core::runMorphWeights(*run, controller.gltfPose());
      QCOMPARE(weights.size(), std::size_t(2));
      const core::PartMesh drawn =
          core::skinMesh(core::morphMesh(run->meshes[0], run->morph, weights), *run->skin, bones);
      QCOMPARE(drawn.positions.size(), expected.size());
      const core::Bounds bounds = core::posedBounds(*run, controller.partWorlds(), controller.gltfPose());
      for (std::size_t i = 0; i < expected.size(); ++i) {
        QVERIFY2(std::abs(drawn.positions[i] - expected[i]) < riglens::core::tolerance::kFloatCoordinate,
                 qPrintable(
                     QString("%1, coordinate %2: %3 vs %4").arg(what).arg(i).arg(drawn.positions[i]).arg(expected[i])));
        QVERIFY(drawn.positions[i] >= bounds.min[int(i % 3)] - 1e-5f &&
                drawn.positions[i] <= bounds.max[int(i % 3)] + 1e-5f);
      }
    };
    compare(core::gltfRestPose(*scene), "rest");
    for (int a = 0; a < 2; ++a) {
      QVERIFY_OK(controller.play(scene->animations[std::size_t(a)].name));
      QCOMPARE(*controller.playing(), scene->animations[std::size_t(a)].name);
      controller.update(0.7);
      compare(core::gltfSamplePose(*scene, a, 0.7), scene->animations[std::size_t(a)].name.c_str());
      // Looping: a whole period later the pose is the same.
      controller.update(scene->animations[std::size_t(a)].durationSeconds);
      QCOMPARE_NEAR(controller.playableTimeMs(), 700.0, riglens::core::tolerance::kFloatUnit);
    }
    // Not looping: it holds its last frame.
    controller.setLoopOverride(false);
    controller.update(10.0);
    QVERIFY(controller.finished());
    compare(core::gltfSamplePose(*scene, 1, scene->animations[1].durationSeconds), "held");
    QVERIFY(!controller.play("no such clip"));
    QVERIFY_OK(controller.play(std::nullopt));
    compare(core::gltfRestPose(*scene), "stopped");
  }

  void quantizedGeometryDecodesAndUnknownRequiredExtensionsAreRefused() {
    // KHR_mesh_quantization: positions as normalized shorts, scaled back by
    // the node, decode to the float positions (1/32767 apart at most).
    GltfBuilder b;
    const std::vector<std::int16_t> q{0, 0, 0, 32767, 0, 0, 0, 32767, 16384};
    b.primitive({{"POSITION", b.data(q, TINYGLTF_COMPONENT_TYPE_SHORT, TINYGLTF_TYPE_VEC3, true)}});
    b.model.nodes[0].scale = {2, 2, 2};
    b.model.extensionsUsed = {"KHR_mesh_quantization"};
    b.model.extensionsRequired = {"KHR_mesh_quantization"};
    auto scene = core::readGltfScene(write(b));
    QVERIFY_OK(scene);
    const auto posed = core::gltfPosedVertices(*scene, core::gltfRestPose(*scene));
    const std::vector<float> expected{0, 0, 0, 2, 0, 0, 0, 2, 1};
    for (std::size_t i = 0; i < expected.size(); ++i) QCOMPARE_NEAR(posed[i], expected[i], kInt16Normalised);
    // A required extension RigLens cannot decode: both decoders name it.
    b.model.extensionsUsed.push_back("KHR_texture_basisu");
    b.model.extensionsRequired.push_back("KHR_texture_basisu");
    const auto path = write(b);
    const std::string expectedMessage = "requires the extension KHR_texture_basisu";
    auto refused = core::readGltfScene(path);
    QVERIFY(!refused && refused.error().message.find(expectedMessage) != std::string::npos);
    auto flat = core::readGltfFile(path);
    QVERIFY(!flat && flat.error().message.find(expectedMessage) != std::string::npos);
  }

  // Extensions that change how a model looks, never where its vertices are,
  // may be required: the file opens (the lights read, the material
  // extension listed under the warnings as approximated).
  void lookOnlyRequiredExtensionsOpen() {
    GltfBuilder b;
    b.primitive({{"POSITION", b.data(std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0}, TINYGLTF_COMPONENT_TYPE_FLOAT,
                                     TINYGLTF_TYPE_VEC3)}});
    tinygltf::Material material;
    material.extensions["KHR_materials_clearcoat"] = tinygltf::Value(tinygltf::Value::Object{});
    b.model.materials.push_back(material);
    b.model.meshes[0].primitives[0].material = 0;
    tinygltf::Light light;
    light.type = "spot";
    light.intensity = 40;
    light.spot.innerConeAngle = 0.2;
    light.spot.outerConeAngle = 0.5;
    b.model.lights.push_back(light);
    b.model.nodes[0].extensions["KHR_lights_punctual"] =
        tinygltf::Value(tinygltf::Value::Object{{"light", tinygltf::Value(0)}});
    b.model.extensionsUsed = {"KHR_lights_punctual", "KHR_materials_clearcoat", "KHR_texture_transform"};
    b.model.extensionsRequired = b.model.extensionsUsed;
    const auto path = write(b);
    auto decoded = core::readGltfFile(path);
    QVERIFY_OK(decoded);
    QCOMPARE(decoded->outline.lights.size(), std::size_t(1));
    const core::GltfLight& read = decoded->outline.lights[0];
    QCOMPARE(read.type, core::GltfLight::Type::Spot);
    QCOMPARE(read.intensity, 40.0);
    QCOMPARE(read.outerConeAngle, 0.5);
    QCOMPARE(read.node, 0);
    QCOMPARE(decoded->warnings.size(), std::size_t(1));
    QVERIFY2(
        decoded->warnings[0].message.find("KHR_materials_clearcoat is drawn as the base material") != std::string::npos,
        decoded->warnings[0].message.c_str());
    QCOMPARE(decoded->warnings[0].pointer, std::string("/materials/0/extensions/KHR_materials_clearcoat"));
    // A light the file gets wrong is set aside with a warning; the model still opens.
    b.model.lights[0].spot.innerConeAngle = 0.9;
    auto odd = core::readGltfFile(write(b));
    QVERIFY_OK(odd);
    QVERIFY(odd->outline.lights.empty());
    QVERIFY(std::any_of(odd->warnings.begin(), odd->warnings.end(), [](const core::Diagnostic& d) {
      return d.pointer == "/extensions/KHR_lights_punctual/lights/0/spot";
    }));
  }

  // The PBR look's lights: each at its node's world position, pointing down
  // the node's -z, its scale ignored, colour times intensity; posed by the
  // pose it is given (a clip moves them).
  void lightsArePosedByTheirNodes() {
    GltfBuilder b;
    b.primitive({{"POSITION", b.data(std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0}, TINYGLTF_COMPONENT_TYPE_FLOAT,
                                     TINYGLTF_TYPE_VEC3)}});
    tinygltf::Light light;
    light.type = "spot";
    light.color = {1.0, 0.5, 0.25};
    light.intensity = 8;
    light.range = 6;
    light.spot.innerConeAngle = 0.2;
    light.spot.outerConeAngle = 0.5;
    b.model.lights.push_back(light);
    tinygltf::Node lamp;
    lamp.translation = {1, 2, 3};
    lamp.rotation = {std::sin(M_PI / 4), 0, 0, std::cos(M_PI / 4)};  // 90 degrees about +x: -z turns to +y
    lamp.scale = {5, 5, 5};
    lamp.extensions["KHR_lights_punctual"] = tinygltf::Value(tinygltf::Value::Object{{"light", tinygltf::Value(0)}});
    b.model.nodes.push_back(lamp);
    b.model.scenes[0].nodes.push_back(1);
    b.model.extensionsUsed = {"KHR_lights_punctual"};
    auto scene = core::readGltfScene(write(b));
    QVERIFY_OK(scene);
    core::GltfPose pose = core::gltfRestPose(*scene);
    auto lights = core::gltfPosedLights(*scene, pose);
    QCOMPARE(lights.size(), std::size_t(1));
    const core::PunctualLight& spot = lights[0];
    QCOMPARE(spot.type, core::PunctualLight::Type::Spot);
    QCOMPARE_NEAR_ALL(spot.position, glm::vec3(1, 2, 3), core::tolerance::kFloatCoordinate);
    QCOMPARE_NEAR_ALL(spot.direction, glm::vec3(0, 1, 0), core::tolerance::kFloatCoordinate);
    QCOMPARE_NEAR_ALL(spot.color, glm::vec3(8, 4, 2), core::tolerance::kFloatCoordinate);
    QCOMPARE(spot.range, 6.0f);
    QCOMPARE(spot.innerConeAngle, 0.2f);
    QCOMPARE(spot.outerConeAngle, 0.5f);
    // Another pose of the node moves the light with it.
    pose.worlds[1] = glm::translate(glm::dmat4(1.0), glm::dvec3(-4, 0, 0));
    lights = core::gltfPosedLights(*scene, pose);
    QCOMPARE_NEAR_ALL(lights[0].position, glm::vec3(-4, 0, 0), core::tolerance::kFloatCoordinate);
    QCOMPARE_NEAR_ALL(lights[0].direction, glm::vec3(0, 0, -1), core::tolerance::kFloatCoordinate);
  }

  void aModelsNodesAreItsParts() {
    // Opened by itself, the character's parts are its nodes: the tree in the
    // file's order (children in theirs), and each node's triangles those of
    // the primitives it placed (the body's 12, the hat's and prop's 1).
    auto b = test::makeAnimatedCharacter();
    auto run = core::loadRun(write(b));
    QVERIFY_OK(run);
    QVERIFY(core::listsNodesAsParts(*run));
    std::vector<std::pair<std::string, int>> rows;
    for (const core::NodeRow& row : core::nodeTreeOrder(run->gltf))
      rows.emplace_back(core::nodeLabel(run->gltf, row.node), row.depth);
    const std::vector<std::pair<std::string, int>> expected{{"Armature", 0}, {"hip", 1},  {"spine", 2}, {"arm", 3},
                                                            {"hat", 3},      {"body", 0}, {"prop", 0}};
    QCOMPARE(rows, expected);
    const auto triangles = core::trianglesPerNode(*run);
    QCOMPARE(triangles[std::size_t(find(run->gltf, "body"))], std::size_t(12));
    QCOMPARE(triangles[std::size_t(find(run->gltf, "hat"))], std::size_t(1));
    QCOMPARE(triangles[std::size_t(find(run->gltf, "prop"))], std::size_t(1));
    QCOMPARE(triangles[std::size_t(find(run->gltf, "spine"))], std::size_t(0));
    QCOMPARE(core::findNodeLabelled(run->gltf, "hat"), find(run->gltf, "hat"));
    // An unnamed node is listed by its index.
    b.model.nodes[std::size_t(find(run->gltf, "prop"))].name.clear();
    auto unnamed = core::loadRun(write(b));
    QVERIFY_OK(unnamed);
    QCOMPARE(core::nodeLabel(unnamed->gltf, find(run->gltf, "prop")),
             "node " + std::to_string(find(run->gltf, "prop")));
  }

  void aGlbReadByPathEqualsTheSameBytesInMemory() {
    // A .glb opened by path keeps its BIN chunk in the file and reads ranges
    // of it as the decoders ask (gltf_buffers.h); the same bytes decoded in
    // memory go through tinygltf's copy. Both give the same model.
    auto b = test::makeAnimatedCharacter();
    const auto bytes = b.glb();
    auto byPath = core::readGltfFile(write(b));
    auto inMemory = core::decodeGlb(bytes, "character.glb");
    QVERIFY_OK(byPath);
    QVERIFY_OK(inMemory);
    QCOMPARE(byPath->mesh.positions, inMemory->mesh.positions);
    QCOMPARE(byPath->mesh.normals, inMemory->mesh.normals);
    QCOMPARE(byPath->mesh.indices, inMemory->mesh.indices);
    QCOMPARE(byPath->morph.positionDeltas, inMemory->morph.positionDeltas);
    QVERIFY(byPath->skin && inMemory->skin);
    QCOMPARE(byPath->skin->weights, inMemory->skin->weights);
    QCOMPARE(byPath->outline.animations.size(), inMemory->outline.animations.size());
  }

  void sparseAccessorsReadAsTheirValues() {
    // The fixture's two morph targets are sparse: "up" without a base (ring
    // 0 zeros), "wide" over a base whose ring 2 is zeros. Each delta is what
    // the fixture's rings say, worked out here from its formula.
    auto b = test::makeAnimatedCharacter();
    auto decoded = core::readGltfFile(write(b));
    QVERIFY_OK(decoded);
    const core::MorphData& morph = decoded->morph;
    QCOMPARE(morph.slotCount(), std::size_t(2));
    for (int v = 0; v < 9; ++v) {
      const int ring = v / 3;
      const double a = 2.0943951 * (v % 3);
      const glm::dvec3 up(0, 0.1 * ring, 0), wide(0.2 * std::cos(a), 0, 0.2 * std::sin(a));
      for (int c = 0; c < 3; ++c) {
        QCOMPARE_NEAR(morph.positionDeltas[morph.slotOffsets[0] + std::size_t(v * 3 + c)], up[c],
                      riglens::core::tolerance::kFloatUnit);
        QCOMPARE_NEAR(morph.positionDeltas[morph.slotOffsets[1] + std::size_t(v * 3 + c)], wide[c],
                      riglens::core::tolerance::kFloatUnit);
      }
    }
  }

  void sparseAccessorRefusals_data() {
    QTest::addColumn<int>("breakage");
    QTest::addColumn<QString>("expected");
    QTest::newRow("more than the accessor") << 0 << "sparse: count 10 is not within 1..9";
    QTest::newRow("index past the count") << 1 << "sparse indices: index 5 (9) is not above the previous one";
    QTest::newRow("indices not increasing") << 2 << "sparse indices: index 1 (3) is not above the previous one";
    QTest::newRow("indices' type") << 3 << "sparse indices: componentType 5126 is not an unsigned integer type";
    QTest::newRow("values past the view") << 4 << "sparse values: 6 elements from byte 4 run past bufferView";
    QTest::newRow("no such view") << 5 << "sparse indices: bufferView 99 does not exist";
  }
  void sparseAccessorRefusals() {
    QFETCH(int, breakage);
    QFETCH(QString, expected);
    auto b = test::makeAnimatedCharacter();
    auto& m = b.model;
    const int up = m.meshes[0].primitives[0].targets[0].at("POSITION");
    auto& sparse = m.accessors[std::size_t(up)].sparse;
    const auto setIndex = [&](std::size_t i, std::uint16_t value) {
      const auto& view = m.bufferViews[std::size_t(sparse.indices.bufferView)];
      std::memcpy(m.buffers[0].data.data() + view.byteOffset + i * 2, &value, 2);
    };
    switch (breakage) {
      case 0: sparse.count = 10; break;
      case 1: setIndex(5, 9); break;
      case 2: setIndex(1, 3); break;
      case 3: sparse.indices.componentType = TINYGLTF_COMPONENT_TYPE_FLOAT; break;
      case 4: sparse.values.byteOffset = 4; break;
      case 5: sparse.indices.bufferView = 99; break;
    }
    const auto path = write(b);
    auto decoded = core::readGltfFile(path);
    QVERIFY(!decoded);
    QVERIFY2(QString::fromStdString(decoded.error().message).contains(expected), decoded.error().message.c_str());
    QVERIFY2(decoded.error().message.find(path.string()) != std::string::npos, decoded.error().message.c_str());
  }

  void refusesWhatItCannotPose_data() {
    QTest::addColumn<int>("breakage");
    QTest::addColumn<QString>("expected");
    QTest::newRow("channel node") << 0 << "animation 0 channel 0: node 42 does not exist";
    QTest::newRow("keys out of order") << 1 << "animation 0 channel 0 input: key 1 is not after the one before";
    QTest::newRow("sampler") << 2 << "animation 1 channel 0: sampler 9 does not exist";
    QTest::newRow("joint past the skin") << 3 << "mesh 0: vertex 6 names joint 2 but skin 0 has 2";
    QTest::newRow("two parents") << 4 << "node 2 has more than one parent";
    QTest::newRow("output count") << 5 << "animation 0 channel 1 output: expected 3 x 3 components";
  }
  void refusesWhatItCannotPose() {
    QFETCH(int, breakage);
    QFETCH(QString, expected);
    auto b = test::makeAnimatedCharacter();
    auto& m = b.model;
    switch (breakage) {
      case 0: m.animations[0].channels[0].target_node = 42; break;
      case 1: {
        const std::vector<float> backwards{0.0f, 0.0f, 1.2f};
        m.animations[0].samplers[0].input = b.data(backwards, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_SCALAR);
        break;
      }
      case 2: m.animations[1].channels[0].sampler = 9; break;
      case 3:
        m.skins[0].joints.pop_back();
        m.skins[0].inverseBindMatrices = -1;
        break;
      case 4: m.nodes[0].children.push_back(2); break;
      case 5: m.accessors[std::size_t(m.animations[0].samplers[1].output)].count = 2; break;
    }
    const auto path = write(b);
    auto scene = core::readGltfScene(path);
    QVERIFY(!scene);
    QVERIFY2(QString::fromStdString(scene.error().message).contains(expected), scene.error().message.c_str());
    QVERIFY2(scene.error().message.find(path.string()) != std::string::npos, scene.error().message.c_str());
  }
};

QTEST_APPLESS_MAIN(TestCoreGltfScene)
#include "tst_core_gltf_scene.moc"
