// The viewer as a user works it, on a real window under Xvfb with Qt Quick
// on Vulkan: drag a joint slider and the part moves as the engine poses it;
// click a clip, scrub it, and the pose matches `riglens-cli pose --play`
// (a rig's clip, and a glTF file's own);
// switch tints by shortcut; export through the menu's controller and the
// Khronos validator accepts the file; a malformed run shows the core's
// message and the previous model stays on screen.
#include <QtCore/QProcess>
#include <QtGui/QImage>
#include <QtQml/QQmlApplicationEngine>
#include <QtQml/QQmlExtensionPlugin>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>
#include <QtTest/QSignalSpy>
#include <QtTest/QTest>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app_controller.h"
#include "gltf_scene_fixture.h"
#include "interop_clients.h"
#include "main_window.h"
#include "reference_math.h"
#include "rig_models.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/samples/sample_runs.h"
#include "test_checks.h"
#include "test_paths.h"
#include "viewer_harness.h"

namespace {
// Where a drag to 80% of a slider ends depends on the style's handle
// geometry: 0.3 rad is under 5% of the turret's 2 pi range.
constexpr double kSliderDragRadians = 0.3;
// A glTF key time is float32 seconds: 1.2f is 1200.0000477 ms.
constexpr double kFloatSecondsAsMs = 1e-3;
}  // namespace

Q_IMPORT_QML_PLUGIN(RigLensPlugin)

using namespace riglens;

class TestAppViewer : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  test::ViewerHarness m_ui;
  app::AppController* m_controller = nullptr;
  QQuickWindow* m_window = nullptr;
  QQuickItem* m_viewport = nullptr;

  void openAndWait(const QString& path) { QVERIFY2(m_ui.openAndWait(path), qPrintable(m_controller->lastError())); }
  QImage settledGrab() { return m_ui.settledGrab(); }
  QRect viewportRect() const { return m_ui.viewportRect(); }
  QQuickItem* find(const QString& name) { return m_ui.find(name); }

 private slots:
  void initTestCase() {
    for (const char* name : {"tank-cubes", "walker-cubes"})
      QVERIFY(samples::writeSampleRun(*samples::makeSampleRun(name), m_dir.filePath(name).toStdString()));
    QString error;
    QVERIFY2(m_ui.start(&error), qPrintable(error));
    m_controller = m_ui.controller.get();
    m_window = m_ui.window;
    m_viewport = m_ui.viewport;
  }

  void draggingASliderPosesThePart() {
    openAndWait(m_dir.filePath("tank-cubes"));
    m_controller->playback()->setAutoPlayMuted(true);  // only the slider moves anything
    const QImage before = settledGrab();
    auto* slider = find("slider_turret_yaw");
    QVERIFY(slider);
    QTRY_VERIFY(slider->isVisible() && slider->width() > 50);
    // Drag the handle from its current position (0 rad, the middle) to 80% of the range.
    m_ui.dragSlider(slider, 0.8);
    // The drag ends near 80% of [-pi, pi] (0.6 pi; where exactly depends on the
    // style's handle geometry); the controller holds what the slider shows.
    QTRY_VERIFY(std::abs(m_controller->jointValue("turret_yaw") - slider->property("value").toDouble()) <
                riglens::core::tolerance::kDouble);
    QVERIFY2(std::abs(m_controller->jointValue("turret_yaw") - 0.6 * M_PI) < kSliderDragRadians,
             qPrintable(QString::number(m_controller->jointValue("turret_yaw"))));
    const double yaw = m_controller->jointValue("turret_yaw");
    // The engine posed the turret about its pivot by exactly that value.
    const auto& worlds = m_controller->document()->controller().partWorlds();
    QVERIFY(test::maxAbsDiff(worlds[1], test::aboutPivot(test::rotY(yaw), 16, 9, 19)) <
            riglens::core::tolerance::kPoseMatrix);
    const QImage after = settledGrab();
    after.save(test::outputPath("viewer_slider.png"));
    QVERIFY2(test::differingPixels(before, after, viewportRect()) > 500, "the viewport did not change");
    // Reset all puts it back.
    QTest::mouseClick(m_window, Qt::LeftButton, {}, test::centreOf(find("resetAllJoints")).toPoint());
    QTRY_COMPARE(m_controller->jointValue("turret_yaw"), 0.0);
  }

  void tintShortcutsSwitchTheRenderer() {
    m_viewport->forceActiveFocus();
    const QImage color = settledGrab();
    QTest::keyClick(m_window, Qt::Key_2);
    QTRY_COMPARE(m_viewport->property("tint").toString(), QString("part"));
    const QImage part = settledGrab();
    QVERIFY(test::differingPixels(color, part, viewportRect()) > 500);
    QTest::keyClick(m_window, Qt::Key_1);
    QTRY_COMPARE(m_viewport->property("tint").toString(), QString("color"));
  }

  void playingAClipFollowsTheCliPose() {
    openAndWait(m_dir.filePath("walker-cubes"));
    auto* clip = find("clip_walk");
    QVERIFY(clip);
    QTest::mouseClick(m_window, Qt::LeftButton, {}, test::centreOf(clip).toPoint());
    QTRY_COMPARE(m_controller->playback()->playingAnimation(), QString("walk"));
    QTRY_VERIFY(m_controller->playback()->playTimeMs() > 0);  // the clock runs
    // Scrub to a fixed time (paused) with the idle clock at the same time:
    // the CLI's --play NAME --time-ms T poses exactly that.
    const double t = 333;
    m_controller->playback()->setPaused(true);
    m_controller->playback()->seek(t);
    m_controller->document()->controller().setClockMs(t);
    m_controller->document()->controller().evaluate();
    QCOMPARE(m_controller->playback()->playTimeMs(), t);
    QProcess cli;
    cli.start(QStringLiteral(RIGLENS_CLI_EXE),
              {"pose", m_dir.filePath("walker-cubes"), "--play", "walk", "--time-ms", "333", "--json"});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    const auto doc = nlohmann::json::parse(cli.readAllStandardOutput().toStdString());
    const auto& worlds = m_controller->document()->controller().partWorlds();
    QCOMPARE(doc["parts"].size(), worlds.size());
    for (std::size_t p = 0; p < worlds.size(); ++p)
      for (int k = 0; k < 16; ++k)
        QCOMPARE_NEAR(doc["parts"][p]["world"][k].get<double>(), worlds[p][k / 4][k % 4],
                      riglens::core::tolerance::kPoseMatrix);
    // The timeline shows the time.
    QTRY_VERIFY(find("timelineTime")->property("text").toString().startsWith("333 / 1000"));
    // Step a frame and stop.
    m_controller->playback()->stepFrame(1);
    QCOMPARE_NEAR(m_controller->playback()->playTimeMs(), (t + 1000.0 / 30.0), riglens::core::tolerance::kFloatUnit);
    m_controller->playback()->stop();
    QVERIFY(m_controller->playback()->playingAnimation().isEmpty());
  }

  void exportingThroughTheControllerValidates() {
    const QString out = m_dir.filePath("walker.glb");
    QSignalSpy finished(m_controller->exporter(), &app::ExportController::exportFinished);
    m_controller->exporter()->exportGlb(out, false, 1e-4);
    QVERIFY(m_controller->exporter()->exporting());
    m_controller->exporter()->waitForExport();
    QCOMPARE(finished.count(), 1);
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
    QVERIFY(m_controller->statusMessage().contains(out));
    QVERIFY(QFileInfo::exists(m_dir.filePath("walker.interface.json")));
    const auto report = test::validateGltf(out.toStdString());
    QVERIFY2(report.errors == 0, report.messages.c_str());
    // An unwritable path: a clear error, nothing written.
    m_controller->exporter()->exportGlb(m_dir.filePath("missing/dir/x.glb"), false, 1e-4);
    m_controller->exporter()->waitForExport();
    QVERIFY(m_controller->lastError().contains("x.glb"));
    m_controller->clearError();
  }

  void aMalformedRunShowsTheErrorAndKeepsTheModel() {
    std::ofstream(m_dir.filePath("broken.json").toStdString()) << R"({"parts": [{"name": "a"}, {"name": "a"}]})";
    m_controller->playback()->setAutoPlayMuted(true);  // a still model, so two grabs compare
    const QImage before = settledGrab();
    m_controller->open(m_dir.filePath("broken.json"));
    QTRY_VERIFY_WITH_TIMEOUT(!m_controller->loading(), 20000);
    auto* banner = find("errorBanner");
    QTRY_VERIFY(banner->isVisible());
    const QString text = find("errorText")->property("text").toString();
    QVERIFY2(text.contains("broken.json: /parts/1/name: duplicate part name 'a'"), qPrintable(text));
    QCOMPARE(m_controller->documentTitle(), QString("walker-cubes"));
    const QImage after = settledGrab();
    // The walker is still drawn (below the banner, which covers the top).
    const QRect below = viewportRect().adjusted(0, int(banner->height() + 40), 0, 0);
    QVERIFY(test::differingPixels(before, after, below) < 50);
    m_controller->clearError();
    QTRY_VERIFY(!banner->isVisible());
  }

  void aModelsNodesAreItsSceneParts() {
    // A glTF model opened by itself lists its node tree in the Scene panel;
    // the hat's row hides the hat (its checkbox) and highlights it (a click).
    const std::vector<std::uint8_t> bytes = test::makeAnimatedCharacter().glb();
    const QString path = m_dir.filePath("nodes.glb");
    QVERIFY_OK(core::writeFileAtomically(path.toStdString(), bytes));
    openAndWait(path);
    QVERIFY(m_controller->partsAreNodes());
    const app::PartListModel* parts = m_controller->parts();
    QStringList names;
    QList<int> depths;
    for (int r = 0; r < parts->rowCount(); ++r) {
      names << parts->data(parts->index(r), app::PartListModel::NameRole).toString();
      depths << parts->data(parts->index(r), app::PartListModel::DepthRole).toInt();
    }
    QCOMPARE(names, (QStringList{"Armature", "hip", "spine", "arm", "hat", "body", "prop"}));
    QCOMPARE(depths, (QList<int>{0, 1, 2, 3, 3, 0, 0}));
    QTRY_VERIFY(find("part_hat") && find("visible_hat"));
    const QImage shown = settledGrab();
    QTest::mouseClick(m_window, Qt::LeftButton, {}, test::centreOf(find("visible_hat")).toPoint());
    QTRY_VERIFY(!m_controller->isPartVisible(m_controller->partNames().indexOf("hat")));
    const QImage hidden = settledGrab();
    hidden.save(test::outputPath("viewer_node_hidden.png"));
    QVERIFY2(test::differingPixels(shown, hidden, viewportRect()) > 30, "hiding the hat changed nothing");
    QTest::mouseClick(m_window, Qt::LeftButton, {}, test::centreOf(find("visible_hat")).toPoint());
    QTRY_VERIFY(m_controller->isPartVisible(m_controller->partNames().indexOf("hat")));
    QTest::mouseClick(m_window, Qt::LeftButton, {}, test::centreOf(find("part_hat")).toPoint());
    QTRY_COMPARE(m_controller->selectedPart(), m_controller->partNames().indexOf("hat"));
    const QImage lit = settledGrab();
    lit.save(test::outputPath("viewer_node_highlight.png"));
    QVERIFY2(test::differingPixels(shown, lit, viewportRect()) > 30, "highlighting the hat changed nothing");
    m_controller->selectPart(-1);
  }

  void aGltfFilesOwnClipsPlay() {
    // An animated glTF character opened by itself: its clips are listed,
    // clicking one plays it, and scrubbed to a time every node is where
    // `riglens-cli pose FILE --play CLIP --time-ms T --json` puts it; the
    // body, skinned by those nodes, moves on screen, and in `riglens-cli
    // render --play`.
    const std::vector<std::uint8_t> bytes = test::makeAnimatedCharacter().glb();
    const QString path = m_dir.filePath("character.glb");
    QVERIFY_OK(core::writeFileAtomically(path.toStdString(), bytes));
    openAndWait(path);
    QTRY_VERIFY(find("clip_wave") && find("clip_bounce"));
    const QImage rest = settledGrab();
    rest.save(test::outputPath("viewer_gltf_rest.png"));
    QTest::mouseClick(m_window, Qt::LeftButton, {}, test::centreOf(find("clip_wave")).toPoint());
    QTRY_COMPARE(m_controller->playback()->playingAnimation(), QString("wave"));
    QCOMPARE_NEAR(m_controller->playback()->playPeriodMs(), 1200.0, kFloatSecondsAsMs);  // its last key, 1.2f s
    m_controller->playback()->setPaused(true);
    m_controller->playback()->seek(700);
    QProcess cli;
    cli.start(QStringLiteral(RIGLENS_CLI_EXE), {"pose", path, "--play", "wave", "--time-ms", "700", "--json"});
    QVERIFY(cli.waitForFinished(60000));
    QCOMPARE(cli.exitCode(), 0);
    const auto doc = nlohmann::json::parse(cli.readAllStandardOutput().toStdString());
    const core::GltfPose* pose = m_controller->document()->controller().gltfPose();
    QVERIFY(pose);
    const core::GltfScene& scene = m_controller->document()->run()->gltf;
    QCOMPARE(doc["nodes"].size(), scene.drawOrder.size());
    for (std::size_t k = 0; k < scene.drawOrder.size(); ++k) {
      const auto node = std::size_t(scene.drawOrder[k]);
      QCOMPARE(doc["nodes"][k]["name"].get<std::string>(), scene.nodes[node].name);
      for (int e = 0; e < 16; ++e)
        QCOMPARE_NEAR(doc["nodes"][k]["world"][e].get<double>(), pose->worlds[node][e / 4][e % 4],
                      riglens::core::tolerance::kFloatCoordinate);
    }
    QTRY_VERIFY(find("timelineTime")->property("text").toString().startsWith("700 / 1200"));
    const QImage posed = settledGrab();
    posed.save(test::outputPath("viewer_gltf_wave.png"));
    QVERIFY2(test::differingPixels(rest, posed, viewportRect()) > 300, "the skinned body did not move");
    m_controller->playback()->stop();
    // riglens-cli render plays the same clip.
    QProcess render;
    auto windowless = QProcessEnvironment::systemEnvironment();
    windowless.remove("QT_QPA_PLATFORM");  // the CLI picks vkkhrdisplay by itself
    render.setProcessEnvironment(windowless);
    QImage shots[2];
    for (int k = 0; k < 2; ++k) {
      const QString png = m_dir.filePath(QString("character-%1.png").arg(k));
      QStringList args{"render", path, "--out", png, "--size", "160x120"};
      if (k == 1)
        args << "--play"
             << "wave"
             << "--time-ms"
             << "700";
      render.start(QStringLiteral(RIGLENS_CLI_EXE), args);
      QVERIFY(render.waitForFinished(60000));
      QVERIFY2(render.exitCode() == 0, render.readAllStandardError().constData());
      shots[k] = QImage(png);
      QVERIFY(!shots[k].isNull());
    }
    QVERIFY(test::differingPixels(shots[0], shots[1], shots[0].rect()) > 100);
  }

  void cleanupTestCase() { m_ui.stop(); }
};

QTEST_MAIN(TestAppViewer)
#include "tst_app_viewer.moc"
