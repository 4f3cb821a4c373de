// The viewer facing bad files, on a real window under Xvfb with Qt Quick on
// Vulkan. Every malformed input of the table (a wrong-typed or short field of
// a bundle's scene.json, a broken .aosrig, .ply, rig.json, run record, .glb,
// .gltf, branch mesh) is refused with a message naming the file and the
// place; the window stays up, the open document stays open and drawn, and
// the Problems panel shows the failed load on top. A run with problems lists
// each (severity, file, pointer, message) and clicking one selects the part
// or joint it concerns.
#include <QtQml/QQmlExtensionPlugin>
#include <QtTest/QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "fuzz_target.h"
#include "problem_list_model.h"
#include "riglens/core/base/file_io.h"
#include "riglens/samples/character_sample.h"
#include "riglens/samples/gnm_bake.h"
#include "riglens/samples/sample_runs.h"
#include "test_checks.h"
#include "viewer_harness.h"

Q_IMPORT_QML_PLUGIN(RigLensPlugin)

using namespace riglens;
namespace fs = std::filesystem;
using nlohmann::json;

class TestAppProblems : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  test::ViewerHarness m_ui;
  app::AppController* m_app = nullptr;

  fs::path root() const { return m_dir.path().toStdString(); }
  QString path(const std::string& relative) const { return QString::fromStdString((root() / relative).string()); }
  void write(const std::string& relative, const std::string& text) {
    fs::create_directories((root() / relative).parent_path());
    std::ofstream(root() / relative, std::ios::binary) << text;
  }
  // A bundle folder beside the sample pack whose scene.json is `scene`.
  void bundle(const std::string& name, const std::string& scene) {
    fs::create_directories(root() / name);
    fs::copy_file(root() / "sample-face.aosrig", root() / name / "sample-face.aosrig",
                  fs::copy_options::overwrite_existing);
    write(name + "/scene.json", scene);
  }

 private slots:
  void initTestCase() {
    QVERIFY(samples::writeSampleRun(*samples::makeSampleRun("tank-cubes"), (root() / "tank-cubes").string()));
    auto written = samples::writeSampleCharacter(RIGLENS_DATA_DIR "/ict-face", root());
    QVERIFY_OK(written);
    QString error;
    QVERIFY2(m_ui.start(&error), qPrintable(error));
    m_app = m_ui.controller.get();
  }

  void malformedFilesKeepTheOpenDocument_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    const std::string rig = R"("rig": {"backend": "gnm", "pack": "sample-face.aosrig"})";
    // The four scene.json fields of issue 12 that once aborted the viewer.
    bundle("world-scale", R"({"world_scale": "big", )" + rig + "}");
    QTest::newRow("world_scale string") << path("world-scale")
                                        << "scene.json: /world_scale: expected a number, got a string";
    bundle("world-offset", R"({"world_offset": [1], )" + rig + "}");
    QTest::newRow("world_offset short") << path("world-offset")
                                        << "scene.json: /world_offset: expected an array of 3 numbers, got 1";
    bundle("rig-range", R"({"rig_range": [1], )" + rig + "}");
    QTest::newRow("rig_range short") << path("rig-range")
                                     << "scene.json: /rig_range: expected an array of 2 numbers, got 1";
    bundle("rig-pack", R"({"rig": {"backend": "gnm", "pack": 7}})");
    QTest::newRow("rig.pack number") << path("rig-pack") << "scene.json: /rig/pack: expected a string, got a number";
    bundle("escaping-pack", R"({"rig": {"backend": "gnm", "pack": "../sample-face.aosrig"}})");
    QTest::newRow("pack outside the bundle")
        << path("escaping-pack") << "/rig/pack: file name: '../sample-face.aosrig' escapes the bundle folder";
    bundle("branch-shape",
           R"({"branches": {"head": {"mesh_json": "mesh_head.json", "mesh_bin": "mesh_head.bin"}}, )" + rig + "}");
    write("branch-shape/mesh_head.bin", std::string(48, '\0'));
    write(
        "branch-shape/mesh_head.json",
        R"({"num_vertices": 4, "buffers": [{"name": "neutral_vertices", "dtype": "f32", "shape": [4294967296, 4294967296, 3], "offset": 0, "byte_length": 48}]})");
    QTest::newRow("branch mesh shape") << path("branch-shape") << "mesh_head.json: /buffers/0/shape/0: ";
    // A pack whose header says gazeDim -4 (once read past the heap at rest).
    auto parts = samples::bakeAosRigParts(samples::syntheticGnmHead(64, 6, 1));
    QVERIFY(parts);
    parts->header["headExt"]["gazeDim"] = -4;
    parts->header["headExt"]["dim"] = 2;
    QVERIFY(core::writeFileAtomically(root() / "gaze.aosrig", *core::packAosRig(parts->header, parts->blobs)));
    QTest::newRow("negative gazeDim") << path("gaze.aosrig") << "gaze.aosrig: /headExt/gazeDim: -4 is outside [0, 4]";
    write("text.ply",
          "ply\nformat binary_little_endian 1.0\nelement vertex 1000000\nproperty float "
          "x\nend_header\n");
    QTest::newRow("ply count") << path("text.ply") << "text.ply: missing property y";
    write(
        "rig/rig.json",
        R"({"parts": [{"name": "hull"}], "joints": [{"name": "j", "part": "hull", "kind": "rotation", "axis": "x", "min": "low", "max": 1, "drive": "caller"}]})");
    QTest::newRow("rig.json joint min") << path("rig/rig.json")
                                        << "rig.json: /joints/0/min: expected a number, got a string";
    write("record/run.json",
          R"({"voxel": {"rig": {"parts": [{"name": "hull"}]}, "parts": {"hull": "meshes/hull.glb"}}})");
    QTest::newRow("run record parts") << path("record/run.json")
                                      << "run.json: /voxel/parts: expected an array, got an object";
    write(
        "shape.gltf",
        R"({"asset": {"version": "2.0"}, "buffers": [{"uri": "/etc/passwd", "byteLength": 12}],)"
        R"("bufferViews": [{"buffer": 0, "byteLength": 12}], "accessors": [{"bufferView": 0, "componentType": 5126, "count": 1, "type": "VEC3"}],)"
        R"("meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}], "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}]})");
    QTest::newRow(".gltf naming /etc/passwd") << path("shape.gltf") << "shape.gltf: invalid glTF";
  }

  void malformedFilesKeepTheOpenDocument() {
    QFETCH(QString, file);
    QFETCH(QString, expected);
    QVERIFY2(m_ui.openAndWait(path("tank-cubes")), qPrintable(m_app->lastError()));
    m_app->playback()->setAutoPlayMuted(true);
    const QImage before = m_ui.settledGrab();
    m_app->open(file);
    QTRY_VERIFY_WITH_TIMEOUT(!m_app->loading(), 20000);
    QVERIFY2(m_app->lastError().contains(expected), qPrintable(m_app->lastError()));
    QCOMPARE(m_app->documentTitle(), QString("tank-cubes"));
    QCOMPARE(m_app->mode(), riglens::app::AppController::Mode::Rig);
    // The failed load is the Problems panel's first row, naming the file.
    auto* problems = m_app->problemList();
    QVERIFY(problems->count() >= 1);
    QVERIFY(problems->data(problems->index(0), app::ProblemListModel::FailedLoadRole).toBool());
    QCOMPARE(problems->data(problems->index(0), app::ProblemListModel::SeverityRole).toString(), QString("error"));
    QVERIFY2(
        file.endsWith(
            QFileInfo(problems->data(problems->index(0), app::ProblemListModel::FileRole).toString()).fileName()) ||
            problems->data(problems->index(0), app::ProblemListModel::FileRole).toString().startsWith(file),
        qPrintable(problems->data(problems->index(0), app::ProblemListModel::FileRole).toString()));
    // Still drawn: the tank is on screen as before (the banner covers the top).
    const QImage after = m_ui.settledGrab();
    const QRect below = m_ui.viewportRect().adjusted(0, 120, 0, 0);
    QVERIFY(test::differingPixels(before, after, below) < 50);
    m_app->clearError();
  }

  // Every input the fuzzers found (tests/fuzz_regressions/), staged as a
  // file or folder the way its fuzz target stages it, opened in the viewer:
  // refused with the expected message and the tank kept, or opened.
  void everyFuzzRegressionInTheViewer_data() {
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("loads");
    QTest::addColumn<QString>("expected");
    const fs::path cases = RIGLENS_SOURCE_DIR "/tests/fuzz_regressions";
    const json table = json::parse(std::ifstream(cases / "expected.json"));
    for (const auto& [key, value] : table.items()) {
      const std::string target = key.substr(0, key.find('/'));
      const auto* t = fuzz::findTarget(target);
      if (!t || !t->stage) continue;  // not a document the viewer opens (controls, ORL outputs, ...)
      QTest::newRow(key.c_str()) << QString::fromStdString(target) << QString::fromStdString((cases / key).string())
                                 << value["loads"].get<bool>()
                                 << QString::fromStdString(value.value("message", std::string()));
    }
  }

  void everyFuzzRegressionInTheViewer() {
    QFETCH(QString, target);
    QFETCH(QString, file);
    QFETCH(bool, loads);
    QFETCH(QString, expected);
    QVERIFY2(m_ui.openAndWait(path("tank-cubes")), qPrintable(m_app->lastError()));
    std::ifstream in(file.toStdString(), std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
    const fs::path staged = fuzz::findTarget(target.toStdString())->stage(bytes);
    m_app->open(QString::fromStdString(staged.string()));
    QTRY_VERIFY_WITH_TIMEOUT(!m_app->loading(), 30000);
    if (loads) {
      QVERIFY2(m_app->lastError().isEmpty(), qPrintable(m_app->lastError()));
      QVERIFY(m_app->hasDocument());
      m_ui.waitFrames(2);  // and draws it
    } else {
      QVERIFY2(m_app->lastError().contains(expected), qPrintable(m_app->lastError()));
      QCOMPARE(m_app->documentTitle(), QString("tank-cubes"));
    }
    m_app->clearError();
  }

  void problemsPanelListsAndSelects() {
    // The tank with a truncated turret mesh and a joint on a missing part.
    const fs::path run = root() / "problem-tank";
    QVERIFY(samples::writeSampleRun(*samples::makeSampleRun("tank-cubes"), run.string()));
    fs::resize_file(run / "meshes" / "turret.glb", 100);
    json spec = json::parse(std::ifstream(run / "rig.json"));
    spec["joints"].push_back({{"name", "antenna_yaw"},
                              {"part", "antenna"},
                              {"kind", "rotation"},
                              {"axis", "y"},
                              {"min", -1},
                              {"max", 1},
                              {"drive", "caller"}});
    std::ofstream(run / "rig.json") << spec.dump();
    QVERIFY2(m_ui.openAndWait(QString::fromStdString(run.string())), qPrintable(m_app->lastError()));
    auto* problems = m_app->problemList();
    QCOMPARE(problems->count(), 2);
    QCOMPARE(problems->errorCount(), 1);
    // Errors first: the turret's mesh, then the joint.
    QCOMPARE(problems->data(problems->index(0), app::ProblemListModel::PartRole).toString(), QString("turret"));
    QCOMPARE(problems->data(problems->index(0), app::ProblemListModel::PointerRole).toString(), QString("/parts/1"));
    QVERIFY(problems->data(problems->index(0), app::ProblemListModel::MessageRole).toString().contains("turret.glb"));
    QCOMPARE(problems->data(problems->index(1), app::ProblemListModel::JointRole).toString(), QString("antenna_yaw"));
    QCOMPARE(problems->data(problems->index(1), app::ProblemListModel::PointerRole).toString(),
             QString("/joints/4/part"));
    // The panel shows both rows; clicking the first selects the turret.
    QTRY_VERIFY(m_ui.find("problem_0") && m_ui.find("problem_1"));
    QTRY_VERIFY(m_ui.find("problem_0")->width() > 20);
    m_ui.click(m_ui.find("problem_0"));
    QTRY_COMPARE(m_app->selectedPart(), m_app->document()->rig().findPart("turret"));
    QVERIFY(m_ui.find("part_turret")->property("highlighted").toBool());
    QVERIFY(m_ui.find("problemMark_turret")->isVisible());
    // The second selects the joint, outlined in the Joints panel.
    m_ui.click(m_ui.find("problem_1"));
    QTRY_COMPARE(m_app->selectedJoint(), QString("antenna_yaw"));
    QTRY_VERIFY(m_ui.find("joint_antenna_yaw") && m_ui.find("joint_antenna_yaw")->property("selected").toBool());
    QVERIFY(!m_ui.find("joint_turret_yaw")->property("selected").toBool());
    // The status bar counts them.
    QVERIFY(m_ui.find("statusErrors")->property("text").toString().startsWith("1 "));
    QVERIFY(m_ui.find("statusWarnings")->property("text").toString().startsWith("1 "));
    QImage shot = m_ui.settledGrab();
    shot.save(QStringLiteral(RIGLENS_TEST_OUTPUT_DIR "/app-problems.png"));
    // A clean document clears the list.
    QVERIFY(m_ui.openAndWait(path("tank-cubes")));
    QCOMPARE(problems->count(), 0);
    QVERIFY(m_app->selectedJoint().isEmpty());
  }

  void cleanupTestCase() { m_ui.stop(); }
};

QTEST_MAIN(TestAppProblems)
#include "tst_app_problems.moc"
