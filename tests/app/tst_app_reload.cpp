// Live reload in the real window (Xvfb, Qt Quick): a generator rewrites the
// open run's files - atomically (temp + rename), in place, and in pieces with
// pauses - and the viewer ends in the new state with what the user had set
// kept: camera, tint, joint values, clip and time, hidden and selected parts.
// A half-written file is never shown: its reload fails, says why and keeps
// what was on screen, and the finished write is then loaded. Every state the
// viewer showed along the way is either the old or the new document, whole.
#include <QtGui/QWheelEvent>
#include <QtQml/QQmlExtensionPlugin>
#include <QtTest/QTest>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "character_controller.h"
#include "playback_controller.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/samples/character_sample.h"
#include "riglens/samples/sample_runs.h"
#include "riglens/watch/document_watcher.h"
#include "test_paths.h"
#include "viewer_harness.h"

Q_IMPORT_QML_PLUGIN(RigLensPlugin)

using namespace riglens;
namespace fs = std::filesystem;

namespace {

// How long a rewrite may take to show: the watcher's settle time twice (it
// waits for one quiet interval after noticing), the load and a frame, on a
// loaded CI machine.
constexpr int kReloadTimeoutMs = 20000;
// With watching off nothing may happen for this long after a rewrite: ten
// times the settle time.
constexpr int kQuietMs = 10 * watch::DocumentWatcher::kSettleMs;
// A writer's pause between the two halves of one file: long enough for the
// watcher to settle on the half and reload it (it must fail, not show).
constexpr int kWriterPauseMs = 4 * watch::DocumentWatcher::kSettleMs;

std::size_t trianglesOf(const fs::path& run) {
  auto loaded = core::loadRun(run);
  if (!loaded) qFatal("%s", loaded.error().message.c_str());
  std::size_t n = 0;
  for (const auto& mesh : loaded->meshes) n += mesh.triangleCount();
  return n;
}

std::string fileText(const fs::path& path) {
  auto text = core::readFileText(path);
  if (!text) qFatal("%s", text.error().message.c_str());
  return *text;
}

void writeInPlace(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

void writeByRename(const fs::path& path, std::string_view bytes) {
  const auto span = std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  if (!core::writeFileAtomically(path, span)) qFatal("cannot write %s", path.c_str());
}

}  // namespace

class TestAppReload : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  test::ViewerHarness m_ui;
  app::AppController* m_controller = nullptr;
  fs::path m_run, m_other;            // the open run, and a run whose meshes replace its parts'
  int m_shown = 0;                    // documentChanged emissions
  std::vector<std::size_t> m_states;  // the triangle count at each
  std::set<std::size_t> m_whole;      // the triangle counts of the runs the files made when whole

  QImage grab() { return m_ui.settledGrab(); }
  QRect viewport() const { return m_ui.viewportRect(); }

  // Waits for the next documentChanged after `shown` emissions.
  bool waitForShow(int shown) {
    QDeadlineTimer deadline(kReloadTimeoutMs);
    while (m_shown <= shown && !deadline.hasExpired()) QTest::qWait(20);
    m_ui.waitFrames(2);
    return m_shown > shown;
  }

  // The viewport has drawn the whole document (a character: decoded).
  bool waitDrawn() {
    QDeadlineTimer deadline(kReloadTimeoutMs);
    while (!m_ui.viewport->property("shown").toBool() && !deadline.hasExpired()) QTest::qWait(20);
    m_ui.waitFrames(2);
    return m_ui.viewport->property("shown").toBool();
  }

  bool waitForStatus(const QString& start) {
    QDeadlineTimer deadline(kReloadTimeoutMs);
    while (!m_controller->statusMessage().startsWith(start) && !deadline.hasExpired()) QTest::qWait(20);
    return m_controller->statusMessage().startsWith(start);
  }

  // What a user sets and expects to survive a reload.
  void setTheView() {
    QVERIFY(m_controller->setJointValue("turret_yaw", 0.5));
    const QStringList parts = m_controller->partNames();
    m_controller->setPartVisible(int(parts.indexOf("radar")), false);  // the radar spins on the clock
    m_controller->selectPart(int(parts.indexOf("barrel")));
    QVERIFY(m_controller->playback()->play("fire"));
    m_controller->playback()->setPaused(true);
    m_controller->playback()->seek(150);
    m_ui.viewport->setProperty("tint", "part");
    m_ui.viewport->setProperty("yaw", 35.0);
    m_ui.viewport->setProperty("pitch", -20.0);
    const QPointF centre = m_ui.viewport->mapToScene(QPointF(m_ui.viewport->width() / 2, m_ui.viewport->height() / 2));
    QWheelEvent wheel(centre, m_ui.window->mapToGlobal(centre), {}, {0, 240}, Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(m_ui.viewport, &wheel);  // zoomed in: not where framing would put the camera
  }

  void verifyTheViewKept(double turretYaw) {
    const QStringList parts = m_controller->partNames();
    QCOMPARE(m_controller->jointValue("turret_yaw"), turretYaw);
    QVERIFY(!m_controller->isPartVisible(int(parts.indexOf("radar"))));
    QVERIFY(m_controller->isPartVisible(int(parts.indexOf("hull"))));
    QCOMPARE(m_controller->selectedPart(), int(parts.indexOf("barrel")));
    QCOMPARE(m_controller->playback()->playingAnimation(), QString("fire"));
    QVERIFY(m_controller->playback()->paused());
    QCOMPARE(m_controller->playback()->playTimeMs(), 150.0);
    QCOMPARE(m_ui.viewport->property("tint").toString(), QString("part"));
    QCOMPARE(m_ui.viewport->property("yaw").toDouble(), 35.0);
    QCOMPARE(m_ui.viewport->property("pitch").toDouble(), -20.0);
  }

 private slots:
  void initTestCase() {
    m_run = fs::path(m_dir.filePath("run").toStdString());
    m_other = fs::path(m_dir.filePath("walker").toStdString());
    QVERIFY(samples::writeSampleRun(*samples::makeSampleRun("tank-cubes"), m_run));
    QVERIFY(samples::writeSampleRun(*samples::makeSampleRun("walker-cubes"), m_other));
    QString error;
    QVERIFY2(m_ui.start(&error), qPrintable(error));
    m_controller = m_ui.controller.get();
    m_controller->setWatching(true);
    connect(m_controller, &app::AppController::documentChanged, this, [this] {
      ++m_shown;
      m_states.push_back(std::size_t(m_controller->triangleCount()));
    });
    m_whole.insert(trianglesOf(m_run));
    QVERIFY2(m_ui.openAndWait(QString::fromStdString(m_run.string())), qPrintable(m_controller->lastError()));
  }

  void cleanupTestCase() { m_ui.stop(); }

  // rig.json replaced by rename with the same bytes: reloaded, and the
  // picture is the one before, pixel for pixel (nothing reset, nothing reframed).
  void aRewriteOfTheSameBytesChangesNothingOnScreen() {
    setTheView();
    const QImage before = grab();
    const int shown = m_shown;
    writeByRename(m_run / "rig.json", fileText(m_run / "rig.json"));
    QVERIFY2(waitForShow(shown), "the rewrite was not reloaded");
    QVERIFY(m_controller->statusMessage().startsWith("Reloaded"));
    verifyTheViewKept(0.5);
    const QImage after = grab();
    before.save(test::outputPath("reload_before.png"));
    after.save(test::outputPath("reload_same.png"));
    QCOMPARE(test::differingPixels(before, after, viewport()), 0);
    // The camera was kept, not framed again: framing now moves it.
    QMetaObject::invokeMethod(m_ui.viewport, "frameAll");
    QVERIFY(test::differingPixels(after, grab(), viewport()) > 500);
  }

  // A part's mesh replaced by rename: the new geometry, the view kept.
  void aPartReplacedByRenameIsShown() {
    setTheView();
    const std::size_t before = trianglesOf(m_run);
    const int shown = m_shown;
    writeByRename(m_run / "meshes/hull.glb", fileText(m_other / "meshes/body.glb"));
    const std::size_t after = trianglesOf(m_run);
    m_whole.insert(after);
    QVERIFY(after != before);
    QVERIFY2(waitForShow(shown), "the new hull was not reloaded");
    QCOMPARE(std::size_t(m_controller->triangleCount()), after);
    verifyTheViewKept(0.5);
    grab().save(test::outputPath("reload_new_hull.png"));
  }

  // Written in place in two halves with a pause: the half is refused with
  // the file named and the shown run kept; the whole is then shown.
  void aHalfWrittenFileIsNeverShown() {
    for (const char* file : {"meshes/turret.glb", "rig.json"}) {
      setTheView();
      std::string next = fileText(file == std::string("rig.json") ? m_run / file : m_other / "meshes/head.glb");
      if (file == std::string("rig.json")) {  // the turret's range narrowed: its value now clamps
        auto rig = nlohmann::json::parse(next);
        for (auto& joint : rig["joints"])
          if (joint["name"] == "turret_yaw") joint["max"] = 0.25;
        next = rig.dump(1);
      }
      const std::size_t triangles = std::size_t(m_controller->triangleCount());
      const int shown = m_shown;
      writeInPlace(m_run / file, std::string_view(next).substr(0, next.size() / 2));
      QVERIFY2(waitForStatus("Could not reload"), qPrintable(file + (": " + m_controller->statusMessage())));
      QVERIFY2(m_controller->lastError().contains(QString(file).section('/', -1)),
               qPrintable(m_controller->lastError()));
      QVERIFY(m_controller->problemList()->count() > 0);  // the Problems panel says why too
      QCOMPARE(m_shown, shown);                           // nothing new was shown
      QCOMPARE(std::size_t(m_controller->triangleCount()), triangles);
      QVERIFY(m_controller->hasDocument());
      QTest::qWait(kWriterPauseMs);
      writeInPlace(m_run / file, next);
      m_whole.insert(trianglesOf(m_run));
      QVERIFY2(waitForShow(shown), file);
      QVERIFY(m_controller->lastError().isEmpty());
      QCOMPARE(std::size_t(m_controller->triangleCount()), trianglesOf(m_run));
      verifyTheViewKept(file == std::string("rig.json") ? 0.25 : 0.5);
    }
    grab().save(test::outputPath("reload_after_halves.png"));
    // Every state shown was a whole document: one of the runs the files made.
    QVERIFY(m_states.size() >= 4);
    for (std::size_t triangles : m_states) QVERIFY2(m_whole.count(triangles), qPrintable(QString::number(triangles)));
  }

  // Watching off: a rewrite is left alone until File > Reload.
  void withWatchingOffOnlyReloadReads() {
    m_controller->setWatching(false);
    const int shown = m_shown;
    writeByRename(m_run / "meshes/hull.glb", fileText(m_run / "meshes/hull.glb"));
    QTest::qWait(kQuietMs);
    QCOMPARE(m_shown, shown);
    m_controller->reload();
    QVERIFY(waitForShow(shown));
    m_controller->setWatching(true);
  }

  // A decoded character whose scene.json is rewritten (the same bytes, by
  // rename): reloaded with its expression and the camera kept, decoded again
  // and drawn as before, pixel for pixel.
  void aCharacterReloadedKeepsItsExpressionAndCamera() {
    const fs::path out(m_dir.filePath("face").toStdString());
    samples::SampleBundleOptions small;
    small.uvRes = 32;  // small decoders: a decode takes well under a second
    small.decoders = fs::path(RIGLENS_TEST_DECODERS_DIR) / "visible";
    QVERIFY(samples::writeSampleCharacter(RIGLENS_DATA_DIR "/ict-face", out, small));
    const fs::path bundle = out / "sample-bundle";
    QVERIFY2(m_ui.openAndWait(QString::fromStdString(bundle.string())), qPrintable(m_controller->lastError()));
    app::CharacterController* character = m_controller->characterController();
    const int jaw = character->findChannel("jawOpen");
    QVERIFY(jaw >= 0);
    character->setChannel(jaw, 0.6);
    m_ui.viewport->setProperty("yaw", 35.0);
    m_ui.viewport->setProperty("pitch", -20.0);
    QVERIFY(waitDrawn());
    const QImage before = grab();
    const int shown = m_shown;
    writeByRename(bundle / "scene.json", fileText(bundle / "scene.json"));
    QVERIFY2(waitForShow(shown), "the rewritten scene.json was not reloaded");
    QVERIFY(m_controller->statusMessage().startsWith("Reloaded"));
    QCOMPARE(character->channelValue(jaw), double(0.6f));
    QCOMPARE(m_ui.viewport->property("yaw").toDouble(), 35.0);
    QCOMPARE(m_ui.viewport->property("pitch").toDouble(), -20.0);
    QVERIFY2(waitDrawn(), "the reloaded character was not decoded again");
    const QImage after = grab();
    before.save(test::outputPath("reload_character_before.png"));
    after.save(test::outputPath("reload_character_after.png"));
    QCOMPARE(test::differingPixels(before, after, viewport()), 0);
  }
};

QTEST_MAIN(TestAppReload)
#include "tst_app_reload.moc"
