// Compare: two generated runs that differ in one part's geometry (the hull
// moved 2 units up in its own space), one joint's range and one clip's
// duration. riglens-cli compare: `--json` lists exactly those, each part's
// vertex distances equal the ones this test computes from the two meshes,
// and the exit code gates (0 same, 1 different, 2 usage). The viewer (File
// > Compare With..., riglens --compare): the differences panel lists the
// same, B follows A's pose, side by side draws both halves, and the
// overlay's distance at chosen vertices equals the distance this test
// computes, its colour the scale's at that distance.
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "riglens/core/gltf/glb_writer.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/distance_tint.h"
#include "run_program.h"
#include "test_paths.h"
#include "viewer_harness.h"

using riglens::test::ProgramRun;
using riglens::test::runProgram;
namespace fs = std::filesystem;

namespace {

const QString kCli = QStringLiteral(RIGLENS_CLI_EXE);
const QString kGui = QStringLiteral(RIGLENS_GUI_EXE);
// The overlay's colours are linear RGB floats computed from float distances:
// the scale's sRGB slope is at most 4 per scale length between stops and
// linearising multiplies it by at most 2.4, so a distance within
// kFloatDistance of the test's (scale ~2) moves a colour by under 1e-4.
constexpr double kColorTolerance = 1e-3;
// Pixels of a colour the overlay must show for it to count as drawn: the
// hull (every vertex 2 units away: the scale's red) and the other parts
// (unmoved: blue) each cover far more of a 1280x800 window than this.
constexpr int kMinColoredPixels = 400;

// The hull's vertices are float32 up to ~40 units from the origin: moving
// them by 2 and back rounds each coordinate by at most half an ulp at 64
// (4e-6); the distances agree to a few of those.
constexpr double kFloatDistance = 2e-5;
constexpr double kHullShift = 2.0;

QJsonObject compareJson(const QStringList& args, int* exitCode) {
  const ProgramRun run = runProgram(kCli, QStringList{"compare"} + args + QStringList{"--json"});
  *exitCode = run.exitCode;
  return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

QStringList strings(const QJsonValue& value) {
  QStringList out;
  for (const auto& v : value.toArray()) out << v.toString();
  return out;
}

}  // namespace

class TestAppCompare : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  QString m_a, m_b;
  double m_hullMax = 0, m_hullMean = 0;  // computed here from the two meshes
  std::vector<double> m_hullMoved;       // each hull vertex's move along its part's y, in float
  riglens::test::ViewerHarness m_ui;

 private slots:
  void initTestCase() {
    QVERIFY(runProgram(kCli, {"samples", "--out", m_dir.filePath("a"), "--name", "tank-cubes"}).exitCode == 0);
    m_a = m_dir.filePath("a/tank-cubes");
    m_b = m_dir.filePath("b");
    fs::copy(m_a.toStdString(), m_b.toStdString(), fs::copy_options::recursive);
    // B: the hull moved up in its own space, turret_yaw's max narrowed, fire lengthened.
    auto run = riglens::core::loadRun(m_a.toStdString());
    QVERIFY(run);
    riglens::core::PartMesh hull = run->meshes[0];
    double sum = 0;
    for (std::size_t v = 1; v < hull.positions.size(); v += 3) {
      const float before = hull.positions[v];
      hull.positions[v] = float(before + kHullShift);
      const double moved = double(hull.positions[v]) - double(before);
      m_hullMoved.push_back(moved);
      m_hullMax = std::max(m_hullMax, moved);
      sum += moved;
    }
    m_hullMean = sum / double(hull.positions.size() / 3);
    QVERIFY(riglens::core::writePartGlb(hull, (fs::path(m_b.toStdString()) / "meshes/hull.glb")));
    const fs::path rigPath = fs::path(m_b.toStdString()) / "rig.json";
    auto rig = nlohmann::json::parse(std::ifstream(rigPath));
    for (auto& joint : rig["joints"])
      if (joint["name"] == "turret_yaw") joint["max"] = 1.0;
    for (auto& clip : rig["animations"])
      if (clip["name"] == "fire") clip["periodMs"] = 900;
    std::ofstream(rigPath) << rig.dump(1);
  }

  void listsExactlyWhatDiffers() {
    int code = 0;
    const QJsonObject facts = compareJson({m_a, m_b}, &code);
    QCOMPARE(code, 1);
    QCOMPARE(strings(facts["parts"]["added"]), QStringList{});
    QCOMPARE(strings(facts["parts"]["removed"]), QStringList{});
    QCOMPARE(facts["parts"]["triangles"].toArray().size(), 0);
    const QJsonArray joints = facts["joints"]["changed"].toArray();
    QCOMPARE(joints.size(), 1);
    QCOMPARE(joints[0]["joint"].toString(), QString("turret_yaw"));
    QCOMPARE(joints[0]["field"].toString(), QString("max"));
    QCOMPARE(joints[0]["b"].toDouble(), 1.0);
    const QJsonArray clips = facts["clips"]["changed"].toArray();
    QCOMPARE(clips.size(), 1);
    QCOMPARE(clips[0]["clip"].toString(), QString("fire"));
    QCOMPARE(clips[0]["field"].toString(), QString("periodMs"));
    QCOMPARE(clips[0]["a"].toDouble(), 600.0);
    QCOMPARE(clips[0]["b"].toDouble(), 900.0);
    for (const auto& value : facts["distances"].toArray()) {
      const QJsonObject part = value.toObject();
      const bool hull = part["part"].toString() == "hull";
      QVERIFY2(std::abs(part["max"].toDouble() - (hull ? m_hullMax : 0.0)) < kFloatDistance,
               qPrintable(part["part"].toString()));
      QVERIFY2(std::abs(part["mean"].toDouble() - (hull ? m_hullMean : 0.0)) < kFloatDistance,
               qPrintable(part["part"].toString()));
    }
    // No corner of the box can move further than the furthest vertex did.
    const double corner = facts["bounds"]["cornerDistance"].toDouble();
    QVERIFY2(corner <= m_hullMax + kFloatDistance, qPrintable(QString::number(corner)));
    const QStringList differences = strings(facts["differences"]);
    // The joint, the clip, the hull's vertices (and the box, if it moved).
    QCOMPARE(differences.size(), corner > 0 ? 4 : 3);
    QVERIFY(differences.filter("turret_yaw").size() == 1 && differences.filter("fire").size() == 1 &&
            differences.filter("hull").size() == 1 && differences.filter("bounds").size() == (corner > 0 ? 1 : 0));
  }

  void theSameRunIsTheSame() {
    int code = -1;
    const QJsonObject facts = compareJson({m_a, m_a, "--play", "fire", "--time-ms", "300"}, &code);
    QCOMPARE(code, 0);
    QCOMPARE(strings(facts["differences"]), QStringList{});
    QVERIFY(!facts["differs"].toBool());
  }

  // Distances at or under --tolerance do not count; structure always does.
  void theToleranceGatesDistancesOnly() {
    int code = 0;
    const QJsonObject facts = compareJson({m_a, m_b, "--tolerance", "3"}, &code);
    QCOMPARE(code, 1);
    QCOMPARE(strings(facts["differences"]).filter("hull").size(), 0);
    QCOMPARE(strings(facts["differences"]).size(), 2 + (facts["bounds"]["cornerDistance"].toDouble() > 3 ? 1 : 0));
  }

  void aRemovedPartIsNamed() {
    const fs::path c = fs::path(m_dir.filePath("c").toStdString());
    fs::copy(m_a.toStdString(), c, fs::copy_options::recursive);
    auto rig = nlohmann::json::parse(std::ifstream(c / "rig.json"));
    auto& parts = rig["parts"];
    parts.erase(std::remove_if(parts.begin(), parts.end(), [](const auto& p) { return p["name"] == "radar"; }),
                parts.end());
    auto& joints = rig["joints"];
    joints.erase(std::remove_if(joints.begin(), joints.end(), [](const auto& j) { return j["part"] == "radar"; }),
                 joints.end());
    std::ofstream(c / "rig.json") << rig.dump(1);
    int code = 0;
    const QJsonObject facts = compareJson({m_a, QString::fromStdString(c.string())}, &code);
    QCOMPARE(code, 1);
    QCOMPARE(strings(facts["parts"]["removed"]), QStringList{"radar"});
    QCOMPARE(strings(facts["joints"]["removed"]), QStringList{"radar_spin"});
  }

  // The viewer: File > Compare With... (the controller's open, as the menu
  // calls it), the differences panel, B following A's pose, side by side,
  // the overlay's distances and colours, then closed.
  void viewerShowsTheDifferences() {
    QString error;
    QVERIFY2(m_ui.start(&error), qPrintable(error));
    QVERIFY(m_ui.openAndWait(m_a));
    riglens::app::CompareController* compare = m_ui.controller->compare();
    compare->open(m_b);
    QTRY_VERIFY_WITH_TIMEOUT(compare->active(), 20000);
    QTRY_VERIFY_WITH_TIMEOUT(m_ui.viewport->property("shown").toBool(), 20000);
    QTRY_VERIFY(!compare->differences().isEmpty());
    // Exactly the CLI's: the joint, the clip, the hull (and the box, if it
    // moved); the radar spins on the idle clock in both, so it never differs.
    const QStringList differences = compare->differences();
    QVERIFY2(differences.filter("turret_yaw").size() == 1 && differences.filter("fire").size() == 1 &&
                 differences.filter("hull").size() == 1 &&
                 differences.size() == 3 + differences.filter("bounds").size(),
             qPrintable(differences.join("; ")));
    QCOMPARE(m_ui.visibleItem("compareDifferences")->property("count").toInt(), differences.size());
    for (int i = 0; i < 4; ++i) {  // (the idle clip plays on: the panel is measured again as it does)
      QTest::qWait(300);
      QVERIFY2(compare->differences().filter("radar").isEmpty(), qPrintable(compare->differences().join("; ")));
    }
    for (const QVariant& value : compare->parts()) {
      const QVariantMap part = value.toMap();
      const bool hull = part["name"].toString() == "hull";
      QVERIFY(part["paired"].toBool());
      QVERIFY2(std::abs(part["max"].toDouble() - (hull ? m_hullMax : 0.0)) < kFloatDistance,
               qPrintable(part["name"].toString()));
    }
    sideBySideDrawsBoth();
    overlayColoursByDistance();
    resizedWhilePlaying();
    overlayWithNothingPairedSaysSo();
    compare->close();
    QVERIFY(!compare->active());
    QTRY_VERIFY(!m_ui.find("comparePanel"));  // the panel goes with the comparison (LazyPanel.qml)
    m_ui.stop();
  }

  // riglens A --compare B as a user runs it; refusals exit 1 or 2.
  void viewerCommandLine() {
    const QString png = m_dir.filePath("overlay.png");
    const ProgramRun shot = runProgram(
        kGui, {m_a, "--compare", m_b, "--compare-mode", "overlay", "--screenshot", png, "--size", "900x600"});
    QVERIFY2(shot.exitCode == 0, qPrintable(shot.err));
    QVERIFY(QImage(png).size() == QSize(900, 600));
    const ProgramRun missing = runProgram(kGui, {m_a, "--compare", m_dir.filePath("nowhere"), "--screenshot", png});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.err.contains("nowhere"), qPrintable(missing.err));
    QCOMPARE(runProgram(kGui, {m_a, "--compare", m_b, "--compare-mode", "sideways"}).exitCode, 2);
  }

 private:
  // Side by side: A in the left half, B (its hull 2 units higher) in the
  // right, under one camera: the halves differ.
  void sideBySideDrawsBoth() {
    const QImage grab = m_ui.settledGrab();
    grab.save(riglens::test::outputPath("compare-side.png"));
    const QRect view = m_ui.viewportRect();
    const int half = view.width() / 2;
    const QImage left = grab.copy(view.left(), view.top(), half, view.height());
    const QImage right = grab.copy(view.left() + half, view.top(), half, view.height());
    QVERIFY(riglens::test::differingPixels(left, right, left.rect()) > kMinColoredPixels);
  }

  // The smooth mesher's tank against the cube one: the same parts, no part
  // with A's vertices, so nothing is measured and the legend says so rather
  // than showing a scale from 0 to 0.
  void overlayWithNothingPairedSaysSo() {
    riglens::app::CompareController* compare = m_ui.controller->compare();
    QVERIFY(runProgram(kCli, {"samples", "--out", m_dir.filePath("c"), "--name", "tank-smooth"}).exitCode == 0);
    compare->setMode("overlay");
    compare->open(m_dir.filePath("c/tank-smooth"));
    QTRY_VERIFY_WITH_TIMEOUT(compare->path().endsWith("tank-smooth") && !compare->loading(), 20000);
    QTRY_VERIFY(!compare->parts().isEmpty());
    for (const QVariant& value : compare->parts()) {  // (the muzzle, a part with no voxels, pairs trivially)
      const QVariantMap part = value.toMap();
      QVERIFY2(!part["paired"].toBool() || part["vertices"].toLongLong() == 0, qPrintable(part["name"].toString()));
    }
    QCOMPARE(compare->pairedVertices(), qint64(0));
    QTRY_VERIFY(m_ui.find("compareNothingPaired")->isVisible());
    QVERIFY(!m_ui.find("compareLegendBar")->isVisible() && !m_ui.find("compareLockScale")->isVisible());
    m_ui.settledGrab().save(riglens::test::outputPath("compare-unpaired.png"));
  }

  // Used as people do: a clip playing while the window takes sizes no other
  // test tried and the view switches between side by side and overlay; the
  // view is shown whole after each, with B posed as A.
  void resizedWhilePlaying() {
    riglens::app::CompareController* compare = m_ui.controller->compare();
    QVERIFY(m_ui.controller->playback()->play("fire"));
    m_ui.controller->playback()->setLoop(true);
    for (const QSize size : {QSize(640, 480), QSize(1501, 899), QSize(700, 1000), QSize(1280, 800)}) {
      m_ui.window->resize(size);
      compare->setMode(compare->mode() == "side" ? "overlay" : "side");
      m_ui.waitFrames(3);
      QTRY_VERIFY_WITH_TIMEOUT(m_ui.viewport->property("shown").toBool(), 20000);
      QVERIFY(compare->vertexDistance("turret", 0) >= 0 && compare->vertexDistance("turret", 0) < kFloatDistance);
    }
    m_ui.controller->playback()->stop();
  }

  // The overlay after A's turret is turned: B turned with it (its turret's
  // vertices stay where A's are, blue), and each chosen hull vertex's
  // distance is its move along the hull's y as A's hull world carries it.
  void overlayColoursByDistance() {
    riglens::app::CompareController* compare = m_ui.controller->compare();
    compare->setMode("overlay");
    QVERIFY(m_ui.controller->setJointValue("turret_yaw", 0.2));
    QTRY_VERIFY(compare->vertexDistance("turret", 0) >= 0 && compare->vertexDistance("turret", 0) < kFloatDistance);
    const glm::vec3 blue = riglens::core::distanceColor(0.0f, float(compare->scaleMax()));
    for (int v = 0; compare->vertexDistance("turret", v) >= 0; v += 7) {
      QVERIFY2(compare->vertexDistance("turret", v) < kFloatDistance, qPrintable(QString::number(v)));
      const QVariantList tint = compare->vertexTint("turret", v);
      QVERIFY(std::abs(tint[0].toDouble() - blue.x) + std::abs(tint[2].toDouble() - blue.z) < kColorTolerance);
    }
    const auto& document = *m_ui.controller->document();
    const int hullPart = document.rig().findPart("hull");
    const glm::mat3 hullWorld(document.controller().partWorlds()[std::size_t(hullPart)]);
    const std::size_t n = m_hullMoved.size();
    for (std::size_t v : {std::size_t(0), n / 3, n / 2, n - 1}) {
      const double expected = glm::length(hullWorld * glm::vec3(0.0f, float(m_hullMoved[v]), 0.0f));
      QVERIFY2(std::abs(compare->vertexDistance("hull", int(v)) - expected) < kFloatDistance,
               qPrintable(QString::number(v)));
      const glm::vec3 colour = riglens::core::distanceColor(float(expected), float(compare->scaleMax()));
      const QVariantList tint = compare->vertexTint("hull", int(v));
      for (int c = 0; c < 3; ++c) QVERIFY(std::abs(tint[c].toDouble() - colour[c]) < kColorTolerance);
    }
    const QImage grab = m_ui.settledGrab();
    grab.save(riglens::test::outputPath("compare-overlay.png"));
    QVERIFY(m_ui.find("compareLegend")->isVisible());
    QVERIFY(m_ui.find("compareLegendBar")->isVisible() && !m_ui.find("compareNothingPaired")->isVisible());
    const auto b = riglens::core::loadRun(m_b.toStdString());
    QVERIFY(b);
    qint64 vertices = 0;  // every part of B keeps A's topology: all are paired
    for (const riglens::core::PartMesh& mesh : b->meshes) vertices += qint64(mesh.vertexCount());
    QCOMPARE(compare->pairedVertices(), vertices);
    int red = 0, blueish = 0;
    const QRect view = m_ui.viewportRect();
    for (int y = view.top(); y <= view.bottom(); y += 2)
      for (int x = view.left(); x <= view.right(); x += 2) {
        const QColor c = grab.pixelColor(x, y);
        red += c.red() > 150 && c.green() < 90 && c.blue() < 90;
        blueish += c.blue() > 150 && c.red() < 60 && c.green() < 90;
      }
    QVERIFY2(red > kMinColoredPixels / 4 && blueish > kMinColoredPixels / 4,
             qPrintable(QString("red %1, blue %2").arg(red).arg(blueish)));
  }

 private slots:
  // Two versions of a model exported under different file names: each is
  // one rig part named after its file, and the two are still paired.
  void modelsPairWhateverTheirFileNames() {
    const QString a = m_dir.filePath("tank.glb"), b = m_dir.filePath("tank-v2.glb");
    QVERIFY(runProgram(kCli, {"export", m_a, "--out", a}).exitCode == 0);
    QVERIFY(runProgram(kCli, {"export", m_b, "--out", b}).exitCode == 0);
    int code = 0;
    const QJsonObject facts = compareJson({a, b}, &code);
    QCOMPARE(code, 1);
    QCOMPARE(strings(facts["parts"]["added"]), QStringList{});
    QCOMPARE(strings(facts["parts"]["removed"]), QStringList{});
    const QJsonArray distances = facts["distances"].toArray();
    QCOMPARE(distances.size(), 1);
    QVERIFY2(std::abs(distances[0]["max"].toDouble() - m_hullMax) < kFloatDistance,
             qPrintable(QJsonDocument(distances[0].toObject()).toJson()));
  }

  void usageErrors() {
    QCOMPARE(runProgram(kCli, {"compare", m_a}).exitCode, 2);
    QCOMPARE(runProgram(kCli, {"compare", m_a, m_b, "--tolerance", "-1"}).exitCode, 2);
    const ProgramRun missing = runProgram(kCli, {"compare", m_a, m_dir.filePath("nowhere")});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY(missing.err.contains("nowhere"));
  }
};

QTEST_MAIN(TestAppCompare)
#include "tst_app_compare.moc"
