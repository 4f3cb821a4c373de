// The viewer's character mode as a user works it, on a real window under
// Xvfb with Qt Quick on Vulkan: open the sample bundle (the ICT face), drag
// an expression slider and the rendered face changes (and Reset puts it
// back exactly); filter the channels; ask for ARKit on a space without a map
// and read the refusal; gaze, look-at and a head joint move the face; tints
// by shortcut; the memory panel lists the GPU buffers and slots; an ARKit
// bundle takes ARKit sliders; a .ply scene opens; a broken pack shows the
// error and keeps what was open; a voxel run replaces the character; a
// bundle with decoders opens decoded, and channels and the view re-run only
// the decoders they feed.
// Run again on OpenGL 3.3 (no compute shaders): the character features are
// disabled with the reason and voxel runs still draw.
#include <QtCore/QProcess>
#include <QtQml/QQmlExtensionPlugin>
#include <QtTest/QTest>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "character_controller.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/samples/character_sample.h"
#include "riglens/samples/gaussian_samples.h"
#include "riglens/samples/sample_runs.h"
#include "splat_fixtures.h"
#include "test_checks.h"
#include "test_paths.h"
#include "viewer_harness.h"

namespace {
// A pixel is the character's, not the clear colour's (0x20, 0x26, 0x2e), when
// its RGB differs from it by more than 30 in sum: MSAA edges and dithering
// move the background by a few steps, any splat's colour by far more.
constexpr int kDrawnColourDifference = 30;
}  // namespace

Q_IMPORT_QML_PLUGIN(RigLensPlugin)

using namespace riglens;
namespace fs = std::filesystem;

class TestAppCharacter : public test::CharacterViewerCase {
  Q_OBJECT
  // OpenGL without compute (the second ctest run) expects the character refused.
  const bool m_expectNoCompute = qEnvironmentVariableIsSet("RIGLENS_TEST_EXPECT_NO_COMPUTE");

  QQuickItem* find(const QString& name) const { return m_ui.find(name); }
  int changedPixels(const QImage& before, const QImage& after) const {
    return test::differingPixels(before, after, m_ui.viewportRect());
  }

  // Pixels of the viewport that are not its background (#20262e).
  int facePixels(const QImage& image) const {
    const QRect r = m_ui.viewportRect();
    int n = 0;
    for (int y = r.top(); y <= r.bottom(); y += 2)
      for (int x = r.left(); x <= r.right(); x += 2) {
        const QColor c(image.pixel(x, y));
        n += std::abs(c.red() - 0x20) + std::abs(c.green() - 0x26) + std::abs(c.blue() - 0x2e) > kDrawnColourDifference;
      }
    return n;
  }

 private slots:
  void initTestCase() {
    const fs::path root = m_dir.path().toStdString();
    auto written = samples::writeSampleCharacter(RIGLENS_DATA_DIR "/ict-face", root);
    QVERIFY_OK(written);
    // The same bundle, declaring the default ARKit -> GNM map.
    fs::create_directories(root / "arkit-bundle");
    fs::copy_file(root / "sample-bundle" / "sample-face.aosrig", root / "arkit-bundle" / "sample-face.aosrig");
    nlohmann::json scene = nlohmann::json::parse(std::ifstream(root / "sample-bundle" / "scene.json"));
    scene["expression_space"] = {{"kind", "gnm"}, {"arkit_map", true}};
    std::ofstream(root / "arkit-bundle" / "scene.json") << scene.dump(2);
    QVERIFY(core::writeFileAtomically(root / "torus.ply", core::encodeGaussianPly(samples::makeGaussianTorus(5000))));
    auto bytes = core::readFileBytes(root / "sample-face.aosrig");
    QVERIFY(bytes);
    bytes->resize(bytes->size() / 3);
    QVERIFY(core::writeFileAtomically(root / "half.aosrig", *bytes));
    QVERIFY(samples::writeSampleRun(*samples::makeSampleRun("tank-cubes"), (root / "tank-cubes").string()));
    // The sample with closed-form test decoders whose gaussians cover the face: a decoded bundle.
    samples::SampleBundleOptions decoded;
    decoded.uvRes = 32;
    decoded.decoders = fs::path(RIGLENS_TEST_DECODERS_DIR) / "visible";
    QVERIFY_OK(samples::writeSampleCharacter(RIGLENS_DATA_DIR "/ict-face", root / "decoded", decoded));
    QString error;
    QVERIFY2(startViewer(&error), qPrintable(error));
  }

  void computeLessGpuDisablesCharacters() {
    if (!m_expectNoCompute) return;  // the Vulkan run checks the working path below
    QVERIFY2(m_ui.openAndWait(path("sample-bundle")), qPrintable(m_app->lastError()));
    QTRY_VERIFY_WITH_TIMEOUT(!m_character->renderError().isEmpty(), 10000);
    QVERIFY2(m_character->renderError().contains("no compute shaders"), qPrintable(m_character->renderError()));
    QTRY_VERIFY(find("characterRenderError")->isVisible());
    QVERIFY(!find("expressionPanel")->isEnabled());
    // Voxel viewing still works on this GPU.
    QVERIFY2(m_ui.openAndWait(path("tank-cubes")), qPrintable(m_app->lastError()));
    QCOMPARE(m_app->mode(), riglens::app::AppController::Mode::Rig);
    QTRY_VERIFY(facePixels(m_ui.settledGrab()) > 2000);
    QVERIFY(!find("characterRenderError")->isVisible());
  }

  void movingAnExpressionSliderChangesTheFace() {
    if (m_expectNoCompute) return;
    QVERIFY2(m_ui.openAndWait(path("sample-bundle")), qPrintable(m_app->lastError()));
    QCOMPARE(m_app->mode(), riglens::app::AppController::Mode::Character);
    QCOMPARE(m_app->documentTitle(), QString("sample-face"));
    QVERIFY(visibleItem("expressionPanel"));
    QVERIFY(!find("leftPanel")->isVisible());
    const QImage before = m_ui.settledGrab();
    QVERIFY2(m_character->renderError().isEmpty(), qPrintable(m_character->renderError()));
    QVERIFY2(facePixels(before) > 2000, "no face in the viewport");
    auto* slider = visibleItem("channel_jawOpen");
    QVERIFY(slider);
    m_ui.dragSlider(slider, 0.95);  // the jaw, most of the way to +3
    const int channel = m_character->findChannel("jawOpen");
    QTRY_VERIFY(m_character->channelValue(channel) > 2.0);
    QCOMPARE_NEAR(m_character->channelValue(channel), slider->property("value").toDouble(),
                  riglens::core::tolerance::kFloatUnit);  // held as a float
    QCOMPARE(double(m_character->frame().controls[std::size_t(channel)]),
             m_character->channelValue(channel));  // a GNM space: channel i is head_ext[i]
    const QImage after = m_ui.settledGrab();
    after.save(test::outputPath("character_slider.png"));
    QVERIFY2(changedPixels(before, after) > 500,
             qPrintable(QString("only %1 pixels changed").arg(changedPixels(before, after))));
    // Reset: the neutral face again, pixel for pixel.
    m_ui.click(find("resetChannels"));
    QTRY_COMPARE(m_character->channelValue(channel), 0.0);
    QVERIFY(changedPixels(before, m_ui.settledGrab()) == 0);
  }

  void controlsSaveLoadAndRenderFromTheShell() {
    // Save the face as {name: value}, reset, load it back: the same head_ext.
    // A broken file is refused naming it and keeps the sliders. The CLI
    // renders the saved file (the same controls reach the same path).
    if (m_expectNoCompute) return;
    m_character->setChannel(m_character->findChannel("jawOpen"), 2.0);
    m_character->setGaze(1, 0.3);
    const std::vector<float> face = m_character->headExt();
    QVERIFY(m_app->characterController()->saveControls(path("face.json")));
    m_character->resetChannels();
    m_character->resetGaze();
    QVERIFY(m_character->headExt() != face);
    QVERIFY2(m_app->characterController()->loadControls(path("face.json")), qPrintable(m_app->lastError()));
    QCOMPARE(m_character->headExt(), face);
    std::ofstream(path("bad.json").toStdString()) << R"({"lower_face_000": 1, "no_such_control": 2})";
    QVERIFY(!m_app->characterController()->loadControls(path("bad.json")));
    QVERIFY2(m_app->lastError().contains("bad.json") && m_app->lastError().contains("no_such_control"),
             qPrintable(m_app->lastError()));
    QCOMPARE(m_character->headExt(), face);
    m_app->clearError();
    QProcess cli;
    cli.start(RIGLENS_CLI_EXE, {"render", path("sample-bundle"), "--controls", path("face.json"), "--size", "64x64",
                                "--out", path("face.png")});
    QVERIFY(cli.waitForFinished(60000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    QVERIFY(QImage(path("face.png")).size() == QSize(64, 64));
    m_character->resetChannels();
    m_character->resetGaze();
  }

  void filterNarrowsTheChannels() {
    if (m_expectNoCompute) return;
    auto* channels = m_character->channels();
    const int all = channels->property("count").toInt();
    QCOMPARE(all, 53);  // the sample's coefficients; gaze lives in its own section
    m_ui.click(find("channelFilter"));
    for (const char c : std::string("right_eye")) QTest::keyClick(m_ui.window, c);
    QTRY_COMPARE(m_character->filter(), QString("right_eye"));
    QCOMPARE(channels->property("count").toInt(), 10);
    m_character->setFilter({});
    QCOMPARE(channels->property("count").toInt(), all);
  }

  void arkitWithoutAMapIsRefusedInTheUi() {
    if (m_expectNoCompute) return;
    QVERIFY(!m_character->arkitAvailable());
    m_ui.click(find("modeArkit"));
    QTRY_VERIFY(find("arkitRefusal")->isVisible());
    const QString text = find("arkitRefusal")->property("text").toString();
    QVERIFY2(text.contains("refused") && text.contains("no arkit map"), qPrintable(text));
    QCOMPARE(m_character->channelMode(), QString("gnm"));
    QVERIFY(!find("modeArkit")->property("checked").toBool());
    m_character->clearRefusal();
  }

  void gazeLookAtAndJointsMoveTheFace() {
    if (m_expectNoCompute) return;
    const QImage neutral = m_ui.settledGrab();
    find("lookX")->setProperty("value", 60);  // 60 cm to the character's left, 60 cm ahead
    m_ui.click(find("lookAt"));
    QTRY_VERIFY(m_character->gaze()[1].toDouble() > 0.5);  // left eye yaw: towards +x
    QVERIFY(m_character->gaze()[3].toDouble() > 0.5);
    const QImage looking = m_ui.settledGrab();
    QVERIFY2(changedPixels(neutral, looking) > 50, qPrintable(QString::number(changedPixels(neutral, looking))));
    m_character->resetGaze();
    auto* headYaw = visibleItem("joint_head_1");
    QVERIFY(headYaw);
    m_ui.dragSlider(headYaw, 0.9);
    QTRY_VERIFY(m_character->jointRotation("head")[1].toDouble() > 20);
    const QImage turned = m_ui.settledGrab();
    QVERIFY2(changedPixels(neutral, turned) > 500, qPrintable(QString::number(changedPixels(neutral, turned))));
    QCOMPARE(m_character->frame().jointOverrides.size(), std::size_t(1));
    m_character->resetJoints();
    QVERIFY(m_character->frame().jointOverrides.empty());
  }

  void tintShortcutsAndSigmaChangeTheLook() {
    if (m_expectNoCompute) return;
    m_ui.viewport->forceActiveFocus();
    const QImage joint = m_ui.settledGrab();
    QTest::keyClick(m_ui.window, Qt::Key_3);
    QTRY_COMPARE(m_character->tint(), QString("height"));
    QVERIFY(changedPixels(joint, m_ui.settledGrab()) > 500);
    m_ui.click(find("tint_uv"));  // the tool bar lists the character's tints
    QTRY_COMPARE(m_character->tint(), QString("uv"));
    const QImage uv = m_ui.settledGrab();
    m_ui.dragSlider(visibleItem("characterSigma"), 0.9);
    QTRY_VERIFY(m_character->sigma() > 0.006);
    QVERIFY(changedPixels(uv, m_ui.settledGrab()) > 500);
    m_character->setSigma(0.002);
    m_character->setTint("joint");
  }

  void memoryPanelListsTheGpuBuffers() {
    if (m_expectNoCompute) return;
    QTRY_VERIFY(!m_character->memoryReport().value("buffers").toList().isEmpty());
    const QVariantMap report = m_character->memoryReport();
    QStringList names;
    for (const QVariant& b : report.value("buffers").toList()) names << b.toMap().value("name").toString();
    // GNM's posed vertices on every route (on lavapipe GNM runs on the CPU, its basis stays there,
    // and the CPU draws the splats: their image is uploaded, the GPU sorts nothing).
    QVERIFY2(names.contains("GNM posed vertices") && names.contains("sink centres") &&
                 names.contains("splat image (drawn on the CPU)") && !names.contains("sort keys A"),
             qPrintable(names.join(", ")));
    qint64 listed = 0;  // the total is what the panel lists
    for (const QVariant& b : report.value("buffers").toList()) listed += b.toMap().value("bytes").toLongLong();
    QCOMPARE(report.value("gpuBytes").toLongLong(), listed);
    QVERIFY(listed > 9409 * 16);  // at least the sink's centres
    QTRY_VERIFY(visibleItem("slots_head"));
    QCOMPARE(find("slots_head")->property("text").toString(), QString("Slots head: 9409 / 9409 (from 0)"));
  }

  void framePanelShowsWhatEachPassCosts() {
    // The Frame panel: every GPU pass of the newest frame in order, from the
    // Vulkan timestamps, the CPU's rasteriser time, and what it drew
    // (lavapipe: GNM, the lift and the splats on the CPU, the device's
    // default; the GPU uploads their image and draws it). A new expression
    // draws a new image, so its upload shows.
    if (m_expectNoCompute) return;
    m_ui.dragSlider(visibleItem("channel_jawOpen"), 0.7);
    QStringList passes;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
          const QVariantMap frame = m_character->frameReport();
          passes.clear();
          for (const QVariant& p : frame.value("passes").toList()) passes << p.toMap().value("pass").toString();
          return frame.value("available").toBool() && passes.contains("splat upload");
        }(),
        10000);
    const QVariantMap frame = m_character->frameReport();
    QVERIFY2(passes.indexOf("splat upload") < passes.indexOf("draw"), qPrintable(passes.join(", ")));
    QVERIFY2(passes.filter("sort").isEmpty() && !passes.contains("project"), qPrintable(passes.join(", ")));
    QVERIFY(frame.value("cpuMs").toDouble() > 0);
    // What the frame asked of the GPU: the window's one submission, and no
    // compute at all, since every pass but the draw ran on the CPU.
    QCOMPARE(frame.value("submissions").toLongLong(), 1);
    QCOMPARE(frame.value("dispatches").toLongLong(), 0);
    double sum = 0;
    for (const QVariant& p : frame.value("passes").toList()) {
      QVERIFY(p.toMap().value("ms").toDouble() >= 0);
      sum += p.toMap().value("ms").toDouble();
    }
    QVERIFY(sum > 0);
    QCOMPARE(frame.value("totalMs").toDouble(), sum);
    QCOMPARE(frame.value("splats").toLongLong(), 9409);  // one gaussian per vertex of the sample head
    QCOMPARE(frame.value("raster").toString(), QString("cpu"));
    QTRY_VERIFY(visibleItem("frameGpuMs"));
    QVERIFY(find("frameGpuMs")->property("text").toString().endsWith(" ms"));
    QVERIFY(visibleItem("frameCpuMs"));
    QVERIFY(find("frameCpuMs")->property("text").toString().endsWith(" ms"));
    QCOMPARE(find("frameRaster")->property("text").toString(), QString("CPU tiles"));
    m_ui.settledGrab().save(test::outputPath("character_frame_panel.png"));
    m_ui.click(find("resetChannels"));
  }

  void anArkitBundleTakesArkitSliders() {
    if (m_expectNoCompute) return;
    QVERIFY2(m_ui.openAndWait(path("arkit-bundle")), qPrintable(m_app->lastError()));
    QVERIFY(m_character->arkitAvailable());
    const QImage before = m_ui.settledGrab();
    m_ui.click(find("modeArkit"));
    QTRY_COMPARE(m_character->channelMode(), QString("arkit"));
    QCOMPARE(m_character->channels()->property("count").toInt(), 52);
    QVERIFY(m_character->refusal().isEmpty());
    m_character->setFilter("JawOpen");
    auto* jaw = visibleItem("channel_JawOpen");
    QVERIFY(jaw);
    m_ui.dragSlider(jaw, 1.0);
    QTRY_VERIFY(m_character->channelValue(m_character->findChannel("JawOpen")) > 0.9);
    // The map sends the jaw into lower_face coefficients (the sample's 20..39).
    const auto headExt = m_character->frame().controls;
    QVERIFY(std::any_of(headExt.begin() + 20, headExt.begin() + 40, [](float v) { return v != 0.0f; }));
    QVERIFY(changedPixels(before, m_ui.settledGrab()) > 300);
    m_character->setFilter({});
  }

  void aPlySceneOpens() {
    if (m_expectNoCompute) return;
    QVERIFY2(m_ui.openAndWait(path("torus.ply")), qPrintable(m_app->lastError()));
    QCOMPARE(m_app->mode(), riglens::app::AppController::Mode::Splats);
    QCOMPARE(m_character->info().value("gaussians").toInt(), 5000);
    const QImage image = m_ui.settledGrab();
    image.save(test::outputPath("character_ply.png"));
    QVERIFY(facePixels(image) > 2000);
    QTRY_VERIFY(!m_character->memoryReport().value("buffers").toList().isEmpty());
  }

  void aBrokenPackShowsTheErrorAndKeepsTheScene() {
    if (m_expectNoCompute) return;
    const QImage before = m_ui.settledGrab();
    m_app->open(path("half.aosrig"));
    QTRY_VERIFY_WITH_TIMEOUT(!m_app->loading(), 20000);
    QTRY_VERIFY(find("errorBanner")->isVisible());
    const QString text = find("errorText")->property("text").toString();
    QVERIFY2(text.contains("half.aosrig"), qPrintable(text));
    QCOMPARE(m_app->mode(), riglens::app::AppController::Mode::Splats);
    QCOMPARE(m_app->documentTitle(), QString("torus.ply"));
    const QRect below = m_ui.viewportRect().adjusted(0, int(find("errorBanner")->height() + 40), 0, 0);
    QVERIFY(test::differingPixels(before, m_ui.settledGrab(), below) < 50);
    m_app->clearError();
  }

  // A scene written y down (as trainers write it) stands -y up: its red
  // top over its blue foot. Flipped, it stands the other way, and opened
  // again it is as it was left.
  void aTrainedSceneStandsUpAndFlips() {
    if (m_expectNoCompute) return;
    const fs::path file = path("cone.ply").toStdString();
    QVERIFY(core::writeFileAtomically(file, core::encodeGaussianPly(test::twoToneCone(), 0, core::SplatUp::MinusY)));
    const auto redOverBlue = [this] { return test::redAboveBlue(m_ui.settledGrab()) == true; };
    QVERIFY2(m_ui.openAndWait(QString::fromStdString(file.string())), qPrintable(m_app->lastError()));
    QCOMPARE(m_character->splatUp(), QString("-y"));
    QTRY_VERIFY(redOverBlue());
    m_character->flipSplatUp();
    QCOMPARE(m_character->splatUp(), QString("+y"));
    QTRY_VERIFY(!redOverBlue());
    QVERIFY(m_ui.openAndWait(path("torus.ply")));
    QCOMPARE(m_character->splatUp(), QString("+y"));  // the file says so
    QVERIFY(m_ui.openAndWait(QString::fromStdString(file.string())));
    QCOMPARE(m_character->splatUp(), QString("+y"));  // remembered
    m_character->flipSplatUp();                       // back as the file says, for the next run
  }

  // A bundle with decoders opens decoded: its decoders ran on the worker
  // (trunk, geom, appr once); a channel re-runs all three and moves the face;
  // an orbit re-runs only the appearance decoder; the preview switch shows
  // the debug lift and back.
  void decodedBundleFollowsChannelsAndTheView() {
    if (m_expectNoCompute) return;
    QVERIFY2(m_ui.openAndWait(path("decoded/sample-bundle")), qPrintable(m_app->lastError()));
    QVERIFY(m_character->decodable());
    QTRY_VERIFY_WITH_TIMEOUT(m_character->decodeStats().value("decodes").toInt() >= 1, 10000);
    // The render thread reports once it draws the decoded gaussians.
    QTRY_VERIFY_WITH_TIMEOUT(m_character->memoryReport().value("decodedShown").toBool(), 10000);
    QVERIFY(m_character->decodedAvailable());
    QVERIFY(m_character->showDecoded());
    const auto runs = [this] {
      const QVariantMap s = m_character->decodeStats();
      return std::array{s["trunkRuns"].toInt(), s["geomRuns"].toInt(), s["apprRuns"].toInt()};
    };
    const QImage before = m_ui.settledGrab();
    // One rig, one geometry decode; the appearance as often as the view settled (the panels' layout may
    // change the viewport's aspect once).
    const auto base = runs();
    QCOMPARE(base[0], 1);
    QCOMPARE(base[1], 1);
    QVERIFY(base[2] >= 1);
    before.save(test::outputPath("decoded_before.png"));
    QVERIFY2(facePixels(before) > 2000, "no decoded face in the viewport");
    QVERIFY(visibleItem("showDecoded"));
    QVERIFY(visibleItem("decodeStats"));
    // A channel: trunk -> geom -> appr.
    m_character->setChannel(m_character->findChannel("jawOpen"), 2.5);
    QTRY_COMPARE(runs(), (std::array{2, 2, base[2] + 1}));
    QCOMPARE(m_character->decodeStats()["pass"].toString(), QString("full"));
    const QImage opened = m_ui.settledGrab();
    opened.save(test::outputPath("decoded_jaw.png"));
    QVERIFY2(changedPixels(before, opened) > 300,
             qPrintable(QString("only %1 pixels changed").arg(changedPixels(before, opened))));
    // An orbit: plucker + appr only.
    QQuickItem* viewport = find("viewport");
    QVERIFY(viewport);
    viewport->setProperty("yaw", viewport->property("yaw").toDouble() + 40.0);
    QTRY_COMPARE(runs(), (std::array{2, 2, base[2] + 2}));
    QCOMPARE(m_character->decodeStats()["pass"].toString(), QString("appearance"));
    m_ui.settledGrab().save(test::outputPath("decoded_orbit.png"));
    // An unchanged frame decodes nothing.
    m_ui.waitFrames(3);
    QCOMPARE(runs(), (std::array{2, 2, base[2] + 2}));
    // The debug preview, and back.
    m_character->setShowDecoded(false);
    const QImage preview = m_ui.settledGrab();
    QVERIFY(facePixels(preview) > 2000);
    m_character->setShowDecoded(true);
    QTRY_VERIFY(m_ui.settledGrab() != preview);
    // A body pose from the Character menu turns the head and moves the root;
    // a broken one is refused naming the file and the place, keeping the pose.
    std::ofstream(path("body.json").toStdString())
        << R"({"bones": [{"name": "head", "rotation": [0.9659, 0, 0.2588, 0]}], "rootPos": [0.03, 0, 0]})";
    std::ofstream(path("bad-body.json").toStdString()) << R"({"bones": [{"name": "head", "rotation": [0, 0, 0]}]})";
    const QImage unposed = m_ui.settledGrab();
    QVERIFY(m_character->loadBodyPose(path("body.json")));
    QCOMPARE(m_character->frame().jointOverrides.size(), std::size_t(1));
    QTRY_VERIFY(changedPixels(unposed, m_ui.settledGrab()) > 300);
    QVERIFY(!m_character->loadBodyPose(path("bad-body.json")));
    QVERIFY2(m_app->lastError().contains("bad-body.json") && m_app->lastError().contains("/bones/0/rotation"),
             qPrintable(m_app->lastError()));
    QCOMPARE(m_character->bodyPose().bones.size(), std::size_t(1));
    m_app->clearError();
    m_character->clearBodyPose();
    // Hiding the head branch empties its slots; showing it brings the face back.
    QVERIFY(visibleItem("branchVisible_head"));
    const QImage shown = m_ui.settledGrab();
    m_character->setBranchVisible("head", false);
    QTRY_VERIFY(facePixels(m_ui.settledGrab()) < 500);
    m_character->setBranchVisible("head", true);
    QTRY_VERIFY(changedPixels(shown, m_ui.settledGrab()) == 0);
    // The memory panel lists the decoder weights and the lift's buffers: on
    // the GPU, or on the CPU where the route is the CPU's (the splats drawn
    // by the CPU's tiles: a software rasteriser's device).
    const bool cpuRoute = m_character->frameReport()["raster"].toString() == "cpu";
    const QVariantList buffers = m_character->memoryReport()[cpuRoute ? "cpuArrays" : "buffers"].toList();
    bool texels = false;
    for (const auto& b : buffers) texels = texels || b.toMap()["name"].toString() == "head lift texels";
    QVERIFY2(texels, cpuRoute ? "CPU route" : "GPU route");
    QVERIFY(m_character->decodeStats()["decoderBytes"].toLongLong() > 0);
  }

  void aVoxelRunReplacesTheCharacter() {
    if (m_expectNoCompute) return;
    QVERIFY2(m_ui.openAndWait(path("tank-cubes")), qPrintable(m_app->lastError()));
    QCOMPARE(m_app->mode(), riglens::app::AppController::Mode::Rig);
    QVERIFY(!m_character->active());
    QTRY_VERIFY(find("leftPanel")->isVisible());
    QVERIFY(!find("characterLeftPanel")->isVisible());
  }

  void cleanupTestCase() { m_ui.stop(); }
};

QTEST_MAIN(TestAppCharacter)
#include "tst_app_character.moc"
