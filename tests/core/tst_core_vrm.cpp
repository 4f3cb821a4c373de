// VRM avatars (core/gltf/vrm.h) on a face written by hand as VRM 0.x and as
// VRM 1.0 (tests/support/vrm_fixture.h): a .vrm opens as the glTF it is;
// its expressions (0.x presets under their 1.0 names), humanoid bones and
// MToon materials are read; setting expressions moves exactly the morph
// targets they bind, by weight x bind weight, with VRM's binary snap and
// override rules, to the weights and vertices worked out by hand below
// from the fixture's table (three-vrm's own evaluation is compared in
// tst_interop_gltf_scene). Then what a file gets wrong: set aside with a
// warning that points at it, or refused by the controller.
#include <QtCore/QTemporaryDir>
#include <QtTest/QTest>
#include <cmath>
#include <fstream>
#include <set>

#include "riglens/core/base/tolerances.h"
#include "riglens/core/gltf/gltf_scene.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/run_loader.h"
#include "vrm_fixture.h"

using namespace riglens;

namespace {
constexpr int kFace = 2, kBrowL = 3, kBrowR = 4;  // vrm_fixture.h's nodes
constexpr double kExact = riglens::core::tolerance::kFloatCoordinate;
}  // namespace

class TestCoreVrm : public QObject {
  Q_OBJECT
  QTemporaryDir m_tmp;
  int m_files = 0;

  std::filesystem::path write(test::GltfBuilder b) {
    const auto bytes = b.glb();
    const std::filesystem::path path = m_tmp.filePath(QString("avatar-%1.vrm").arg(m_files++)).toStdString();
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    return path;
  }

 private slots:
  void readsTheAvatar_data() {
    QTest::addColumn<int>("version");
    QTest::newRow("VRM 0.x") << 0;
    QTest::newRow("VRM 1.0") << 1;
  }
  void readsTheAvatar() {
    QFETCH(int, version);
    auto run = core::loadRun(write(test::makeVrmFace(version)));
    QVERIFY2(run, run ? "" : run.error().message.c_str());
    QVERIFY(run->modelFile);
    QVERIFY(run->gltf.vrm.has_value());
    const core::VrmAvatar& vrm = *run->gltf.vrm;
    QCOMPARE(vrm.majorVersion, version);
    QCOMPARE(vrm.title, std::string("Test face"));
    std::set<std::string> names;
    for (const auto& e : vrm.expressions) names.insert(e.name);
    const std::string surprised = version == 0 ? "Surprised" : "surprised";
    QCOMPARE(names, (std::set<std::string>{"happy", "blink", "aa", surprised, "wink"}));
    const core::VrmExpression& happy = vrm.expressions[std::size_t(vrm.findExpression("happy"))];
    QVERIFY(happy.preset);
    // 0.x binds the brow mesh, which both brow nodes draw: a bind each.
    QCOMPARE(happy.binds.size(), std::size_t(3));
    for (const core::VrmMorphBind& bind : happy.binds) QCOMPARE(bind.weight, bind.node == kFace ? 1.0 : 0.5);
    QVERIFY(vrm.expressions[std::size_t(vrm.findExpression("wink"))].binary);
    QVERIFY(!vrm.expressions[std::size_t(vrm.findExpression("wink"))].preset);
    QCOMPARE(vrm.humanoid.size(), 2 + test::kVrmLimbBones.size());
    for (const core::VrmHumanBone& bone : vrm.humanoid)
      QCOMPARE(run->gltf.nodes[std::size_t(bone.node)].name, bone.bone == "hips" ? "Hips"
                                                             : bone.bone == "head"
                                                                 ? "Head"
                                                                 : test::vrmLimbNodeName(bone.bone.c_str()));
    QCOMPARE(vrm.mtoonMaterials, std::vector<int>{0});
    // Its toon factors, as three-vrm reads them: 1.0's as written; 0.x's
    // _ShadeColor raised to 2.2, and _ShadeShift 0.2 / _ShadeToony 0.6
    // converted (toony = lerp(0.6, 1, 0.5 + 0.5 x 0.2) = 0.84, shift =
    // -0.2 - (1 - 0.84) = -0.36; VRMMaterialsV0CompatPlugin).
    QCOMPARE(run->materials.materials.size(), std::size_t(1));
    const core::ToonShading& toon = run->materials.materials[0].toon;
    QVERIFY(toon.enabled && !toon.shadeTimesBaseTexture);
    const double shade[2][3] = {{std::pow(0.5, 2.2), std::pow(0.4, 2.2), std::pow(0.3, 2.2)}, {0.6, 0.4, 0.4}};
    for (int c = 0; c < 3; ++c) QVERIFY(std::abs(toon.shadeColor[c] - shade[version][c]) < core::tolerance::kFloatUnit);
    QVERIFY(std::abs(toon.shadingShift - (version == 0 ? -0.36 : -0.1)) < core::tolerance::kFloatUnit);
    QVERIFY(std::abs(toon.shadingToony - (version == 0 ? 0.84 : 0.7)) < core::tolerance::kFloatUnit);
    // The MToon approximation is said, as information.
    QVERIFY(std::any_of(run->warnings.begin(), run->warnings.end(), [](const core::Diagnostic& d) {
      return d.severity == core::Severity::Info && d.message.find("MToon") != std::string::npos;
    }));
  }

  // Weights by the fixture's table: happy 0.6 puts 0.6 on face t0 and
  // 0.3 on each brow; blink 1 puts 1 on face t1; aa 0.5 puts 0.4 on face t2.
  // In 1.0, surprised 0.5 (blend on blink: x (1 - 0.5); block on the mouth:
  // aa x 0) adds 0.5 to the brows; 0.x has no overrides.
  void expressionsDriveTheirTargets_data() {
    QTest::addColumn<int>("version");
    QTest::newRow("VRM 0.x") << 0;
    QTest::newRow("VRM 1.0") << 1;
  }
  void expressionsDriveTheirTargets() {
    QFETCH(int, version);
    auto run = core::loadRun(write(test::makeVrmFace(version)));
    QVERIFY(run);
    core::RigController controller(run->rig, &run->gltf);
    const std::string surprised = version == 0 ? "Surprised" : "surprised";
    for (const auto& [name, weight] :
         std::vector<std::pair<std::string, double>>{{"happy", 0.6}, {"blink", 1.0}, {"aa", 0.5}, {surprised, 0.5}})
      QVERIFY(controller.setExpression(name, weight));
    controller.evaluate();
    const core::GltfPose* pose = controller.gltfPose();
    QVERIFY(pose);
    const auto& w = pose->weights;
    const double blink = version == 1 ? 0.5 : 1.0, aa = version == 1 ? 0.0 : 0.4;
    QCOMPARE(w[kFace], (std::vector<double>{0.6, blink, aa}));
    for (int brow : {kBrowL, kBrowR}) QCOMPARE(w[std::size_t(brow)][0], 0.6 * 0.5 + 0.5);

    // The posed vertices: rest + sum of weight x delta, in world space.
    const auto faceTargets = test::vrmFaceTargets();
    const auto browTarget = test::vrmBrowTarget();
    auto scene = core::readGltfScene(run->source);
    QVERIFY(scene);
    const std::vector<float> posed = core::gltfPosedVertices(*scene, *pose);
    QCOMPARE(posed.size(), std::size_t(test::kVrmFaceVertices + 2 * test::kVrmBrowVertices) * 3);
    for (int v = 0; v < test::kVrmFaceVertices; ++v) {
      const double restY = 1.5 - 0.5 + 0.5 * (v / 3);
      double y = restY;
      const double weights[3] = {0.6, blink, aa};
      for (int t = 0; t < 3; ++t) y += weights[t] * faceTargets[std::size_t(t)][std::size_t(v) * 3 + 1];
      QVERIFY2(std::abs(posed[std::size_t(v) * 3 + 1] - y) < kExact, qPrintable(QString::number(v)));
    }
    for (int b = 0; b < 2 * test::kVrmBrowVertices; ++b) {
      const int v = b % test::kVrmBrowVertices;
      const double y = 1.85 + (v >= 2 ? 0.04 : 0.0) + 0.8 * browTarget[std::size_t(v) * 3 + 1];
      QVERIFY(std::abs(posed[std::size_t(test::kVrmFaceVertices + b) * 3 + 1] - y) < kExact);
    }
  }

  // A binary expression shows nothing up to 0.5 and all of itself above;
  // weights past 0..1 are clamped; reset returns every target to 0.
  void binaryExpressionsSnapAndValuesClamp() {
    auto run = core::loadRun(write(test::makeVrmFace(1)));
    QVERIFY(run);
    core::RigController controller(run->rig, &run->gltf);
    const core::GltfPose* pose = controller.gltfPose();  // a model file: always posed by its own tree
    QVERIFY(pose);
    const auto face = [&] { return pose->weights.at(kFace); };
    QVERIFY(controller.setExpression("wink", 0.4));
    controller.evaluate();
    QCOMPARE(face().at(1), 0.0);
    QVERIFY(controller.setExpression("wink", 0.6));
    controller.evaluate();
    QCOMPARE(face().at(1), 0.5);
    QVERIFY(controller.setExpression("aa", 3.0));
    controller.evaluate();
    QCOMPARE(face().at(2), 0.8);
    controller.resetExpressions();
    controller.evaluate();
    QCOMPARE(face(), (std::vector<double>{0, 0, 0}));
    // Refused: a name the avatar lacks, a weight that is no number.
    QVERIFY(!controller.setExpression("joy", 1.0));  // 0.x's name; the 1.0 file says happy
    QVERIFY(!controller.setExpression("happy", std::nan("")));
    QCOMPARE(controller.expressionNames().size(), std::size_t(5));
  }

  // What a file gets wrong is set aside with a warning at its JSON pointer;
  // the avatar and the rest of its expressions still load.
  void badBindsAreSetAside() {
    test::GltfBuilder b = test::makeVrmFace(1);
    tinygltf::Value::Object vrm = b.model.extensions["VRMC_vrm"].Get<tinygltf::Value::Object>();
    tinygltf::Value::Object expressions = vrm["expressions"].Get<tinygltf::Value::Object>();
    tinygltf::Value::Object preset = expressions["preset"].Get<tinygltf::Value::Object>();
    preset["angry"] = test::detail::v1Expression({test::detail::v1Bind(0, 0, 1.0),    // Hips draws nothing
                                                  test::detail::v1Bind(2, 7, 1.0),    // the face has 3 targets
                                                  test::detail::v1Bind(2, 0, 1.0)});  // fine
    preset["grin"] = test::detail::v1Expression({test::detail::v1Bind(2, 0, 1.0)});   // no 1.0 preset
    expressions["preset"] = tinygltf::Value(preset);
    vrm["expressions"] = tinygltf::Value(expressions);
    b.model.extensions["VRMC_vrm"] = tinygltf::Value(vrm);
    auto run = core::loadRun(write(b));
    QVERIFY2(run, run ? "" : run.error().message.c_str());
    const core::VrmAvatar& avatar = *run->gltf.vrm;
    QVERIFY(avatar.findExpression("grin") < 0);
    const int angry = avatar.findExpression("angry");
    QVERIFY(angry >= 0);
    QCOMPARE(avatar.expressions[std::size_t(angry)].binds.size(), std::size_t(1));
    std::set<std::string> pointers;
    for (const core::Diagnostic& d : run->warnings) pointers.insert(d.pointer);
    for (const char* pointer : {"/extensions/VRMC_vrm/expressions/preset/angry/morphTargetBinds/0",
                                "/extensions/VRMC_vrm/expressions/preset/angry/morphTargetBinds/1",
                                "/extensions/VRMC_vrm/expressions/preset/grin"})
      QVERIFY2(pointers.count(pointer), pointer);
  }

  // A glTF without VRM data has no avatar, and no expressions to set.
  void plainGltfHasNoAvatar() {
    test::GltfBuilder b = test::makeVrmFace(1);
    b.model.extensions.clear();
    b.model.extensionsUsed.clear();
    b.model.materials[0].extensions.clear();
    auto run = core::loadRun(write(b));
    QVERIFY(run);
    QVERIFY(!run->gltf.vrm.has_value());
    core::RigController controller(run->rig, &run->gltf);
    QVERIFY(controller.expressionNames().empty());
    QVERIFY(!controller.setExpression("happy", 1.0));
  }
};

QTEST_MAIN(TestCoreVrm)
#include "tst_core_vrm.moc"
