// Loading runs: every input form (folder, rig.json, run record, mesh.glb,
// legacy auto clips), the malformed-input list for rig.json (each refusal
// names the file and the JSON pointer), and the warnings that still load.
#include <QtTest/QTest>
#include <fstream>

#include "gltf_builder.h"
#include "reference_math.h"
#include "rig_fixtures.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/gltf/glb_writer.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/pose.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/core/rig/skinning.h"
#include "test_checks.h"

using namespace riglens::core;
namespace fs = std::filesystem;

namespace {

PartMesh triangleMesh(float x) {
  PartMesh m;
  m.positions = {x, 0, 0, x + 1, 0, 0, x, 1, 0};
  m.normals = {0, 0, 1, 0, 0, 1, 0, 0, 1};
  m.colors = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  m.indices = {0, 1, 2};
  return m;
}

void writeText(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

void writeMesh(const PartMesh& mesh, const fs::path& path) {
  fs::create_directories(path.parent_path());
  if (auto ok = writePartGlb(mesh, path); !ok) qFatal("%s", ok.error().message.c_str());
}

const char* kTankRig = R"({
  "parts": [{"name": "hull", "pivot": [16, 0, 16]}, {"name": "turret", "parent": "hull", "pivot": [16, 10, 16]},
            {"name": "muzzle", "parent": "turret", "pivot": [16, 13, 34]}],
  "joints": [{"name": "turret_yaw", "part": "turret", "kind": "rotation", "axis": "y", "pivot": [16, 10, 16],
              "min": -3.14159, "max": 3.14159, "rest": 0, "drive": "caller"}],
  "animations": [{"name": "spin", "periodMs": 1000, "looping": true, "autoPlay": true, "joints": ["turret_yaw"],
                  "tracks": [{"joint": "turret_yaw", "keyframes": [{"tMs": 0, "value": 0, "interp": "linear"},
                                                                  {"tMs": 1000, "value": 3, "interp": "linear"}]}]}]
})";

}  // namespace

class TestRigLoading : public QObject {
  Q_OBJECT
  QTemporaryDir m_tmp;
  fs::path root() const { return m_tmp.path().toStdString(); }

  fs::path makeTankRun(const std::string& name) {
    const fs::path run = root() / name;
    writeText(run / "rig.json", kTankRig);
    writeMesh(triangleMesh(0), run / "meshes" / "hull.glb");
    writeMesh(triangleMesh(5), run / "meshes" / "turret.glb");
    writeMesh(PartMesh{}, run / "meshes" / "muzzle.glb");
    return run;
  }

 private slots:
  void loadsFolderAndRigJsonAlike() {
    const fs::path run = makeTankRun("tank");
    for (const fs::path& input : {run, run / "rig.json"}) {
      auto loaded = loadRun(input);
      QVERIFY_OK(loaded);
      QCOMPARE(loaded->kind, RunKind::Rig);
      QCOMPARE(loaded->rig.parts().size(), std::size_t(3));
      QCOMPARE(loaded->meshes.size(), std::size_t(3));
      QCOMPARE(loaded->meshes[1].vertexCount(), std::size_t(3));
      QCOMPARE(loaded->meshes[1].positions[0], 5.0f);
      QVERIFY(loaded->meshes[2].empty());  // the socket
      QVERIFY(loaded->warnings.empty());
      QCOMPARE(loaded->rig.jointNames(Drive::Caller), (std::vector<std::string>{"turret_yaw"}));
      QCOMPARE(loaded->rig.animations()[0].tracks[0].joint, 0);
    }
  }

  void loadsRunRecordWithItsMeshPaths() {
    const fs::path run = makeTankRun("record");
    fs::rename(run / "meshes" / "turret.glb", run / "meshes" / "turret-v2.glb");
    fs::remove(run / "rig.json");
    const std::string record = std::string(R"({"id": "run-42", "voxel": {"rig": )") + kTankRig +
                               R"(, "model": {"parts": [{"name": "hull"}], "joints": []},
        "parts": [{"name": "turret", "mesh": "meshes/turret-v2.glb", "voxels": 123}]}})";
    writeText(run / "run.json", record);
    auto loaded = loadRun(run);
    QVERIFY_OK(loaded);
    QCOMPARE(loaded->kind, RunKind::RunRecord);
    QCOMPARE(loaded->meshes[1].vertexCount(), std::size_t(3));
    QCOMPARE(loaded->meshes[1].positions[0], 5.0f);
    QVERIFY(loaded->requiredModel.has_value());
    QCOMPARE(loaded->requiredModel->parts().size(), std::size_t(1));
    QVERIFY(loaded->warnings.empty());
  }

  void loadsStaticMeshGlb() {
    const fs::path glb = root() / "static" / "mesh.glb";
    fs::create_directories(glb.parent_path());
    QVERIFY(writePartGlb(triangleMesh(2), glb));
    for (const fs::path& input : {glb, glb.parent_path()}) {
      auto loaded = loadRun(input);
      QVERIFY_OK(loaded);
      QCOMPARE(loaded->kind, RunKind::StaticMesh);
      QCOMPARE(loaded->rig.parts().size(), std::size_t(1));
      QCOMPARE(loaded->meshes[0].vertexCount(), std::size_t(3));
    }
  }

  void loadsSkinnedMeshBesideARig() {
    // rig.json + one skinned mesh.glb (no meshes/): bones named after parts.
    const fs::path run = root() / "skinned";
    writeText(run / "rig.json", kTankRig);
    riglens::test::GltfBuilder b;
    const std::vector<float> positions{16, 0, 20, 16, 12, 20, 17, 12, 20};
    b.primitive({{"POSITION", b.data(positions, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)},
                 {"JOINTS_0", b.data(std::vector<std::uint16_t>{0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0},
                                     TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_VEC4)},
                 {"WEIGHTS_0", b.data(std::vector<float>{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0},
                                      TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4)}});
    for (const char* bone : {"hull", "turret", "antenna"}) {
      tinygltf::Node node;
      node.name = bone;
      b.model.nodes.push_back(node);
    }
    tinygltf::Skin skin;
    skin.joints = {1, 2, 3};
    b.model.skins.push_back(skin);
    b.model.nodes[0].skin = 0;
    const auto bytes = b.glb();
    std::ofstream(run / "mesh.glb", std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));

    auto loaded = loadRun(run);
    QVERIFY_OK(loaded);
    QCOMPARE(loaded->kind, RunKind::SkinnedMesh);
    QCOMPARE(loaded->boneParts, (std::vector<int>{0, 1, kNoIndex}));
    QCOMPARE(loaded->warnings.size(), std::size_t(1));  // the antenna bone is no part
    QVERIFY(QString::fromStdString(loaded->warnings[0].describe()).contains("bone 'antenna' is not a rig part"));
    const auto worlds = poseRig(loaded->rig, std::vector<double>{1.5707963267948966});
    const auto bones = boneMatrices(*loaded->skin, loaded->boneParts, worlds);
    const PartMesh posed = skinMesh(loaded->meshes[0], *loaded->skin, bones);
    // The turret vertex (16,12,20) turns 90 deg about y through (16,10,16): -> (20,12,16).
    QCOMPARE_NEAR(posed.positions[3], 20, riglens::core::tolerance::kPoseMatrix);
    QCOMPARE_NEAR(posed.positions[5], 16, riglens::core::tolerance::kPoseMatrix);
    QCOMPARE(posed.positions[2], 20.0f);  // the hull vertex stays
  }

  void acceptsLegacyAutoClips() {
    auto built = riglens::test::buildRigFromJson(R"({"parts":[{"name":"radar"}],"joints":[
      {"name":"spin","part":"radar","kind":"rotation","axis":"y","min":0,"max":7,"rest":0,
       "drive":{"type":"auto","keyframes":[{"tMs":0,"value":0},{"tMs":1000,"value":6}],"periodMs":1000,"looping":true}},
      {"name":"bob","part":"radar","kind":"translation","axis":"y","min":-1,"max":1,"rest":0,"drive":"auto",
       "auto":{"keyframes":[{"tMs":0,"value":0},{"tMs":500,"value":1}],"periodMs":1000,"looping":true}}]})");
    QVERIFY_OK(built);
    const auto& anims = built->rig.animations();
    QCOMPARE(anims.size(), std::size_t(2));
    QCOMPARE(anims[0].name, std::string("spin"));
    QVERIFY(anims[0].autoPlay && anims[0].looping);
    QCOMPARE(anims[0].tracks[0].keyframes[1].interp, Interp::Linear);
    QCOMPARE(anims[1].name, std::string("bob"));
    QCOMPARE(built->rig.joints()[1].drive, Drive::Auto);
  }

  void refusesMalformedRigJson_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("expected");
    QTest::newRow("truncated") << R"({"parts": [{"name": "a")"
                               << "rig.json: not valid JSON";
    QTest::newRow("not an object") << "[1, 2]"
                                   << "rig.json: /: expected a JSON object";
    QTest::newRow("no parts") << R"({"joints": []})"
                              << "/: neither a rig (no 'parts')";
    QTest::newRow("parts not array") << R"({"parts": {}})"
                                     << "/parts: expected an array";
    QTest::newRow("empty parts") << R"({"parts": []})"
                                 << "/parts: the rig has no parts";
    QTest::newRow("part name not string") << R"({"parts": [{"name": 3}]})"
                                          << "/parts/0/name: expected a string";
    QTest::newRow("duplicate part") << R"({"parts": [{"name": "a"}, {"name": "a"}]})"
                                    << "/parts/1/name: duplicate part name 'a' (also /parts/0)";
    QTest::newRow("pivot length") << R"({"parts": [{"name": "a", "pivot": [1, 2]}]})"
                                  << "/parts/0/pivot: expected an array of 3 numbers";
    const QString j = R"({"parts": [{"name": "a"}], "joints": [%1]})";
    const QString base =
        R"("name": "j", "part": "a", "kind": "rotation", "axis": "y", "min": -1, "max": 1, "rest": 0, "drive": "caller")";
    QTest::newRow("duplicate joint") << j.arg("{" + base + "}, {" + base + "}")
                                     << "/joints/1/name: duplicate joint name 'j'";
    QTest::newRow("min > max")
        << j.arg(
               R"({"name": "j", "part": "a", "kind": "rotation", "axis": "y", "min": 2, "max": 1, "drive": "caller"})")
        << "/joints/0: min 2 is greater than max 1";
    QTest::newRow("bad kind")
        << j.arg(R"({"name": "j", "part": "a", "kind": "twist", "axis": "y", "min": 0, "max": 1, "drive": "caller"})")
        << "/joints/0/kind: 'twist' is not one of rotation, translation";
    QTest::newRow("bad axis")
        << j.arg(
               R"({"name": "j", "part": "a", "kind": "rotation", "axis": "w", "min": 0, "max": 1, "drive": "caller"})")
        << "/joints/0/axis: 'w' is not one of x, y, z";
    QTest::newRow("bad drive")
        << j.arg(R"({"name": "j", "part": "a", "kind": "rotation", "axis": "y", "min": 0, "max": 1, "drive": "game"})")
        << "/joints/0/drive: 'game' is not one of caller, auto";
    QTest::newRow("non-finite")
        << j.arg(
               R"({"name": "j", "part": "a", "kind": "rotation", "axis": "y", "min": -1e999, "max": 1, "drive": "caller"})")
        << "not valid JSON: number overflow parsing '-1e999'";
    QTest::newRow("missing max")
        << j.arg(R"({"name": "j", "part": "a", "kind": "rotation", "axis": "y", "min": 0, "drive": "caller"})")
        << "/joints/0: missing required key 'max'";
    const QString a = R"({"parts": [{"name": "a"}], "joints": [{)" + base + R"(}], "animations": [%1]})";
    QTest::newRow("keys out of order")
        << a.arg(
               R"({"name": "x", "periodMs": 100, "tracks": [{"joint": "j", "keyframes": [{"tMs": 50, "value": 0}, {"tMs": 10, "value": 1}]}]})")
        << "/animations/0/tracks/0/keyframes/1/tMs: keys are not in time order";
    QTest::newRow("bad interp")
        << a.arg(
               R"({"name": "x", "periodMs": 100, "tracks": [{"joint": "j", "keyframes": [{"tMs": 0, "value": 0, "interp": "smooth"}]}]})")
        << "/animations/0/tracks/0/keyframes/0/interp: 'smooth' is not one of constant, linear";
    QTest::newRow("handle length")
        << a.arg(
               R"({"name": "x", "periodMs": 100, "tracks": [{"joint": "j", "keyframes": [{"tMs": 0, "value": 0, "outHandle": [1]}]}]})")
        << "/outHandle: expected an array of 2 numbers";
    QTest::newRow("negative period") << a.arg(R"({"name": "x", "periodMs": -5})")
                                     << "/animations/0/periodMs: period is negative";
    QTest::newRow("duplicate animation") << a.arg(R"({"name": "x", "periodMs": 5}, {"name": "x", "periodMs": 5})")
                                         << "/animations/1/name: duplicate animation name 'x'";
  }

  void refusesMalformedRigJson() {
    QFETCH(QString, json);
    QFETCH(QString, expected);
    const fs::path run = root() / "bad";
    writeText(run / "rig.json", json.toStdString());
    auto loaded = loadRun(run / "rig.json");
    QVERIFY(!loaded);
    const QString message = QString::fromStdString(loaded.error().message);
    QVERIFY2(message.startsWith(QString::fromStdString((run / "rig.json").string())), qPrintable(message));
    QVERIFY2(message.contains(expected), qPrintable(message));
  }

  // A clip period that parses but cannot be meant (1e308 ms) loads with a
  // warning naming the field; a fifty-minute one is plausible and silent.
  void implausibleClipPeriodWarns() {
    const fs::path run = root() / "long-clips";
    writeText(run / "rig.json",
              R"({"parts": [{"name": "a"}],
      "joints": [{"name": "k", "part": "a", "kind": "rotation", "axis": "y", "min": -1, "max": 1, "rest": 0, "drive": "auto"}],
      "animations": [{"name": "forever", "periodMs": 1e308, "tracks": [{"joint": "k", "keyframes": [{"tMs": 0, "value": 0}]}]},
                     {"name": "long", "periodMs": 3000000, "tracks": [{"joint": "k", "keyframes": [{"tMs": 0, "value": 0}]}]}]})");
    writeMesh(triangleMesh(0), run / "meshes" / "a.glb");
    auto loaded = loadRun(run);
    QVERIFY_OK(loaded);
    QStringList odd;
    for (const auto& d : loaded->warnings)
      if (d.message.find("cannot be meant") != std::string::npos) odd << QString::fromStdString(d.pointer);
    QCOMPARE(odd, QStringList{"/animations/0/periodMs"});
  }

  void warnsButLoads() {
    const fs::path run = root() / "warned";
    writeText(run / "rig.json",
              R"({"parts": [{"name": "a", "parent": "ghost"}, {"name": "b", "parent": "a"}],
      "joints": [{"name": "j", "part": "nope", "kind": "rotation", "axis": "y", "min": -1, "max": 1, "rest": 2, "drive": "caller"},
                 {"name": "k", "part": "a", "kind": "rotation", "axis": "y", "min": -1, "max": 1, "rest": 0, "drive": "auto"}],
      "animations": [{"name": "x", "periodMs": 100, "joints": ["k", "zzz"],
                      "tracks": [{"joint": "missing", "keyframes": [{"tMs": 0, "value": 0}]},
                                 {"joint": "k", "keyframes": [{"tMs": 0, "value": 0}, {"tMs": 150, "value": 1, "ease": "in"}]}]}],
      "jionts": []})");
    writeMesh(triangleMesh(0), run / "meshes" / "a.glb");
    // b.glb is missing.
    auto loaded = loadRun(run);
    QVERIFY_OK(loaded);
    QStringList all;
    for (const auto& d : loaded->warnings) all << QString::fromStdString(d.describe());
    const QString text = all.join('\n');
    for (const char* expected : {"/parts/0/parent: parent 'ghost' does not exist",
                                 "/joints/0/part: unknown part 'nope'; the joint moves nothing",
                                 "/joints/0/rest: rest 2 is outside [-1, 1]; posed clamped to 1",
                                 "/animations/0/joints/1: unknown joint 'zzz'",
                                 "/animations/0/tracks/0/joint: unknown joint 'missing'; the track is ignored",
                                 "/animations/0/tracks/1/keyframes/1/tMs: key at 150 ms is outside 0..100 ms",
                                 "/parts/1: part 'b':", "b.glb: no such file", "/jionts: unknown key 'jionts'; ignored",
                                 "/animations/0/tracks/1/keyframes/1/ease: unknown key 'ease'; ignored"})
      QVERIFY2(text.contains(QString::fromUtf8(expected)), qPrintable(expected + QString("\n--- got:\n") + text));
    QVERIFY(loaded->meshes[1].empty());
    QCOMPARE(loaded->meshes[0].vertexCount(), std::size_t(3));
    // Severity and subject, for the Problems panel: the missing mesh is an
    // error of part b, the joint's problems name the joint.
    bool meshError = false, jointNamed = false;
    for (const auto& d : loaded->warnings) {
      meshError |= d.severity == Severity::Error && d.part == "b" && d.pointer == "/parts/1";
      jointNamed |= d.pointer == "/joints/0/part" && d.joint == "j" && d.severity == Severity::Warning;
    }
    QVERIFY(meshError && jointNamed);
  }

  void refusesMeshPathsOutsideTheRun() {
    const fs::path run = makeTankRun("escape");
    fs::remove(run / "rig.json");
    writeMesh(triangleMesh(9), root() / "outside.glb");
    writeText(
        run / "run.json",
        std::string(R"({"voxel": {"rig": )") + kTankRig +
            R"(, "parts": [{"name": "hull", "mesh": "../outside.glb"}, {"name": "turret", "mesh": "/etc/passwd"}]}})");
    auto loaded = loadRun(run / "run.json");
    QVERIFY_OK(loaded);
    QVERIFY(loaded->meshes[0].empty());
    QVERIFY(loaded->meshes[1].empty());
    QCOMPARE(loaded->warnings.size(), std::size_t(2));
    QVERIFY(QString::fromStdString(loaded->warnings[0].describe())
                .contains("/voxel/parts/0/mesh: mesh of part 'hull': '../outside.glb' escapes the "
                          "run folder"));
    QVERIFY(QString::fromStdString(loaded->warnings[1].describe()).contains("'/etc/passwd' is absolute"));
    QVERIFY(!resolveInside("run", "meshes/../../x.glb", "m"));
    QVERIFY(resolveInside("run", "meshes/../meshes/x.glb", "m"));
  }

  void refusesWhatIsNotARun() {
    QVERIFY(!loadRun(root() / "does-not-exist"));
    fs::create_directories(root() / "empty");
    auto empty = loadRun(root() / "empty");
    QVERIFY(!empty);
    QVERIFY(QString::fromStdString(empty.error().message).contains("needs rig.json, run.json or mesh.glb"));
    writeText(root() / "other.json", R"({"hello": 1})");
    auto other = loadRun(root() / "other.json");
    QVERIFY(!other);
    QVERIFY(QString::fromStdString(other.error().message).contains("neither a rig"));
    writeText(root() / "rec.json", R"({"voxel": {"model": {}}})");
    auto rec = loadRun(root() / "rec.json");
    QVERIFY(!rec);
    QVERIFY(QString::fromStdString(rec.error().message).contains("/voxel/rig: the run record holds no produced rig"));
  }
};

QTEST_APPLESS_MAIN(TestRigLoading)
#include "tst_core_rig_loading.moc"
