// Every document kind in the viewer, the way people use it: a voxel run, a
// glTF model, a 3DGS .ply, an .aosrig (the debug preview) and a decoded
// bundle, each opened and waited for until the viewport says it is shown
// whole, at several window sizes, through size jumps made while it loads,
// and switched from one kind to another while a clip plays. After every
// step the grab must show the document where the viewport is.
//
// Registered three times (tests/app/CMakeLists.txt): with no backend forced
// (the viewer chooses, as when a user starts it; this machine has lavapipe,
// so Vulkan), with QSG_RHI_BACKEND=vulkan and with QSG_RHI_BACKEND=opengl
// (llvmpipe's GL 4.5, with compute shaders). The Xvfb screen is 2000x1200 so
// every size fits.
#include <QtCore/QSettings>
#include <QtCore/QString>
#include <QtGui/QWheelEvent>
#include <QtQml/QQmlExtensionPlugin>
#include <QtTest/QTest>
#include <algorithm>
#include <cmath>
#include <filesystem>

#include "avatar_controller.h"
#include "character_controller.h"
#include "environment_fixture.h"
#include "gltf_builder.h"
#include "pbr_fixture.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/export/gltf_export.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/render/device/frame_state.h"
#include "riglens/samples/character_sample.h"
#include "riglens/samples/gaussian_samples.h"
#include "riglens/samples/sample_runs.h"
#include "test_checks.h"
#include "test_paths.h"
#include "viewer_harness.h"
#include "vrm_fixture.h"

Q_IMPORT_QML_PLUGIN(RigLensPlugin)

using namespace riglens;
namespace fs = std::filesystem;

namespace {

// A pixel belongs to the document when some channel differs from the
// viewport's background by more than this (0-255): antialiased edges and the
// splats' faint skirts fall under it, the document's own colours do not
// (the darkest, the tank's tracks, differ by ~25).
constexpr int kDocumentChannelDelta = 16;
// The document covers at least this share of the viewport: framing puts the
// smallest document here (the 3DGS torus seen from its default camera) at
// about 9% of it; an empty or half-drawn view is at 0.
constexpr double kMinimumCoverage = 0.02;
// Its pixels are centred in the viewport (framing): the centre of their
// bounding box is within this share of the viewport's size of its centre.
constexpr double kCentreSlack = 0.25;
// How long one document may take to be shown whole (a decode on lavapipe
// under a loaded CI machine takes a few seconds).
constexpr int kShownTimeoutMs = 90000;

// The file camera's quad: its pixel share within this fraction of the one
// its projection gives (its edges fall within a pixel: ~1% of its area at
// the test's window size).
constexpr double kCoverageSlack = 0.03;
// A white quad in the review look stays grey: its channels within this many
// levels (the review key and fill lights are near white).
constexpr int kGreyChannels = 12;
// Lit by a red lamp of 4 cd half a unit away (about 10 times the
// environment's light on it), the PBR look's red leads green by far more than this.
constexpr int kLitByRed = 60;
// Its centre within this many pixels of the viewport's (the bounding box
// of rasterised edges: half a pixel each side).
constexpr double kEdgePixels = 2.0;

struct Coverage {
  double fraction = 0;
  QPointF centre;  // of the covered pixels' bounding box, as a share of the viewport (0.5, 0.5: centred)
};

Coverage documentCoverage(const QImage& grab, QRect viewport) {
  const glm::vec4 bg = render::kViewportBackground;
  const int br = int(bg.r * 255 + 0.5f), bgG = int(bg.g * 255 + 0.5f), bb = int(bg.b * 255 + 0.5f);
  int covered = 0, total = 0;
  int minX = viewport.right(), maxX = viewport.left(), minY = viewport.bottom(), maxY = viewport.top();
  for (int y = viewport.top(); y <= viewport.bottom(); ++y)
    for (int x = viewport.left(); x <= viewport.right(); ++x) {
      const QRgb p = grab.pixel(x, y);
      ++total;
      if (std::max({std::abs(qRed(p) - br), std::abs(qGreen(p) - bgG), std::abs(qBlue(p) - bb)}) <=
          kDocumentChannelDelta)
        continue;
      ++covered;
      minX = std::min(minX, x), maxX = std::max(maxX, x), minY = std::min(minY, y), maxY = std::max(maxY, y);
    }
  Coverage c;
  c.fraction = total ? double(covered) / total : 0;
  if (covered)
    c.centre = QPointF(((minX + maxX) / 2.0 - viewport.left()) / viewport.width(),
                       ((minY + maxY) / 2.0 - viewport.top()) / viewport.height());
  return c;
}

}  // namespace

class TestAppDocuments : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  test::ViewerHarness m_ui;
  app::AppController* m_app = nullptr;

  QString path(const char* name) const {
    return QString::fromStdString((fs::path(m_dir.path().toStdString()) / name).string());
  }

  // The kinds, with a name for the PNGs and messages.
  QList<std::pair<QString, QString>> documents() const {
    return {{"voxel-run", path("tank-cubes")},
            {"gltf-model", path("tank.glb")},
            {"3dgs-ply", path("torus.ply")},
            {"aosrig-preview", path("character/sample-face.aosrig")},
            {"decoded-bundle", path("decoded/sample-bundle")}};
  }

  void resize(QSize size) {
    m_ui.window->resize(size);
    QTRY_COMPARE_WITH_TIMEOUT(m_ui.window->size(), size, 5000);
    m_ui.waitFrames(2);  // the viewport's new size reached the renderer (and a decode's camera)
  }

  // Waits until the viewport shows the document whole, then checks the grab
  // shows it there; the grab is written for a person to look at.
  void checkShown(const QString& name, const QString& step) {
    QQuickItem* viewport = m_ui.viewport;
    QDeadlineTimer deadline(kShownTimeoutMs);
    while (!viewport->property("shown").toBool() && !deadline.hasExpired()) QTest::qWait(20);
    QString waiting;
    QMetaObject::invokeMethod(viewport, "waitingFor", Q_RETURN_ARG(QString, waiting));
    QVERIFY2(viewport->property("shown").toBool(),
             qPrintable(QStringLiteral("%1 (%2): still waiting for %3").arg(name, step, waiting)));
    const QImage grab = m_ui.window->grabWindow();
    const QString file = test::outputPath(
        QStringLiteral("documents-%1-%2-%3.png").arg(qEnvironmentVariable("RIGLENS_TEST_RUN", "run"), name, step));
    grab.save(file);
    const Coverage c = documentCoverage(grab, m_ui.viewportRect());
    const QString where = QStringLiteral("%1 (%2, %3x%4): coverage %5, centre (%6, %7); see %8")
                              .arg(name, step)
                              .arg(grab.width())
                              .arg(grab.height())
                              .arg(c.fraction)
                              .arg(c.centre.x())
                              .arg(c.centre.y())
                              .arg(file);
    QVERIFY2(c.fraction >= kMinimumCoverage, qPrintable(where));
    QVERIFY2(std::abs(c.centre.x() - 0.5) <= kCentreSlack && std::abs(c.centre.y() - 0.5) <= kCentreSlack,
             qPrintable(where));
    if (m_app->mode() != riglens::app::AppController::Mode::Rig) {  // the Frame panel counts what was drawn
      const QVariantMap frame = m_app->characterController()->frameReport();
      QVERIFY2(frame.value("splats").toLongLong() > 0, qPrintable(where));
    }
    checkPanels(where);
  }

  // The side panels that belong to the document's kind, and no others: a
  // splat scene (no rig) shows what it drew and what it holds, not a rig's
  // empty expression, look and joint panels.
  void checkPanels(const QString& where) {
    using Mode = riglens::app::AppController::Mode;
    const Mode mode = m_app->mode();
    const auto visible = [&](const char* name) {
      auto* item = m_ui.window->findChild<QQuickItem*>(QString::fromLatin1(name));
      return item && item->isVisible();
    };
    QVERIFY2(visible("leftPanel") == (mode == Mode::Rig) && visible("rightPanel") == (mode == Mode::Rig),
             qPrintable(where));
    const bool rigged = mode == Mode::Character;
    for (const char* panel : {"characterLeftPanel", "expressionPanel", "characterLookPanel", "characterJointsPanel"})
      QVERIFY2(visible(panel) == rigged, qPrintable(QString::fromLatin1(panel) + ": " + where));
    for (const char* panel : {"characterFramePanel", "characterMemoryPanel"})
      QVERIFY2(visible(panel) == (mode != Mode::Rig), qPrintable(QString::fromLatin1(panel) + ": " + where));
    // The panels this kind shows are made now (LazyPanel.qml): their Repeaters too.
    int repeaters = 0;
    const QStringList problems = test::repeatersInLayouts(m_ui.window, &repeaters);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n') + ": " + where));
  }

  void openAndCheck(const QString& name, const QString& file, const QString& step) {
    m_app->open(file);
    checkShown(name, step);
    QVERIFY2(m_app->lastError().isEmpty(), qPrintable(m_app->lastError()));
  }

  // The item called `name` among `root`'s visual descendants: a ListView's
  // delegates are its content item's children as items, not as QObjects.
  static QQuickItem* itemNamed(QQuickItem* root, const QString& name) {
    for (QQuickItem* child : root->childItems()) {
      if (child->objectName() == name) return child;
      if (QQuickItem* found = itemNamed(child, name)) return found;
    }
    return nullptr;
  }

  // Empty when `item` lies across `panel` within its width, else where it lies (the window at `size`).
  static QString outsideOf(QQuickItem* panel, QQuickItem* item, QSize size) {
    const QRectF inPanel = item->mapRectToItem(panel, QRectF(0, 0, item->width(), item->height()));
    if (inPanel.left() >= 0 && inPanel.right() <= panel->width()) return {};
    return QString("%1 at %2x%3: x %4..%5 in a panel %6 wide")
        .arg(item->objectName())
        .arg(size.width())
        .arg(size.height())
        .arg(inPanel.left())
        .arg(inPanel.right())
        .arg(panel->width());
  }

  // Opens `file` (a document of kind `kind`), then each (panel, item): the
  // item visible and inside the panel's width at 640x480, 700x500 and 1280x800.
  void valuesStayInTheirPanels(const QString& kind, const QString& file,
                               const std::vector<std::pair<const char*, const char*>>& values) {
    resize({1000, 700});
    openAndCheck(kind, file, "side panel values");
    for (const QSize size : {QSize(640, 480), QSize(700, 500), QSize(1280, 800)}) {
      resize(size);
      for (const auto& [panelName, name] : values) {
        auto* panel = m_ui.window->findChild<QQuickItem*>(QString::fromLatin1(panelName));
        QVERIFY2(panel, panelName);
        QQuickItem* item = itemNamed(panel, QString::fromLatin1(name));
        QVERIFY2(item && item->isVisible() && item->width() > 0, name);
        const QString outside = outsideOf(panel, item, size);
        QVERIFY2(outside.isEmpty(), qPrintable(outside));
      }
    }
  }

 private slots:
  void initTestCase() {
    const fs::path root = m_dir.path().toStdString();
    auto tank = samples::makeSampleRun("tank-cubes");
    QVERIFY_OK(tank);
    QVERIFY_OK(samples::writeSampleRun(*tank, root / "tank-cubes"));
    auto loaded = core::loadRun(root / "tank-cubes");
    QVERIFY_OK(loaded);
    QVERIFY_OK(core::exportRun(*loaded, root / "tank.glb"));
    QVERIFY(core::writeFileAtomically(root / "torus.ply", core::encodeGaussianPly(samples::makeGaussianTorus(5000))));
    QVERIFY_OK(samples::writeSampleCharacter(RIGLENS_DATA_DIR "/ict-face", root / "character"));
    samples::SampleBundleOptions decoded;
    decoded.uvRes = 32;  // small decoders: the decode takes well under a second
    decoded.decoders = fs::path(RIGLENS_TEST_DECODERS_DIR) / "visible";
    QVERIFY_OK(samples::writeSampleCharacter(RIGLENS_DATA_DIR "/ict-face", root / "decoded", decoded));
    QString error;
    QVERIFY2(m_ui.start(&error), qPrintable(error));
    m_app = m_ui.controller.get();
    // The document alone: no grid or axes lines in the coverage.
    m_ui.viewport->setProperty("showGrid", false);
    m_ui.viewport->setProperty("showAxes", false);
  }

  // No backend forced: the viewer took Vulkan, since this machine has a
  // Vulkan device (lavapipe), and says so in the status bar.
  void choosesTheBackendThatDrawsEverything() {
    const QString forced = qEnvironmentVariable("QSG_RHI_BACKEND");
    const auto api = m_ui.window->rendererInterface()->graphicsApi();
    if (forced.isEmpty()) {
      QCOMPARE(api, QSGRendererInterface::Vulkan);
      QCOMPARE(m_app->graphicsReason(), QStringLiteral("a Vulkan device was found"));
    } else {
      QCOMPARE(api, forced == QLatin1String("opengl") ? QSGRendererInterface::OpenGL : QSGRendererInterface::Vulkan);
    }
    QVERIFY(m_app->graphics().startsWith(api == QSGRendererInterface::Vulkan ? "Vulkan" : "OpenGL"));
    QCOMPARE(m_ui.find("statusGraphics")->property("text").toString(), m_app->graphics());
  }

  // The reason is the status bar's tool tip: shown while the pointer rests
  // on the graphics label, gone when it leaves (a MouseArea's hover, not a
  // HoverHandler: tst_app_soak says why).
  void theGraphicsLabelSaysWhyInItsToolTip() {
    const QString tip = QStringLiteral("Chosen because: %1").arg(m_app->graphicsReason());
    const auto shown = [&] {
      const auto items = m_ui.items();
      return std::any_of(items.begin(), items.end(), [&](const QQuickItem* item) {
        return item->isVisible() && item->property("text").toString() == tip;
      });
    };
    QVERIFY(!shown());
    QTest::mouseMove(m_ui.window, test::centreOf(m_ui.find("statusGraphics")).toPoint());
    QTRY_VERIFY(shown());
    QTest::mouseMove(m_ui.window, test::centreOf(m_ui.viewport).toPoint());
    QTRY_VERIFY(!shown());
  }

  void everyKindAtEverySize_data() {
    QTest::addColumn<QString>("file");
    for (const auto& [name, file] : documents()) QTest::newRow(qPrintable(name)) << file;
  }
  void everyKindAtEverySize() {
    QFETCH(QString, file);
    const QString name = QString::fromLatin1(QTest::currentDataTag());
    resize({1000, 700});
    openAndCheck(name, file, "1000x700");
    for (const QSize size : {QSize(640, 480), QSize(1920, 1080), QSize(800, 600), QSize(1280, 800)}) {
      resize(size);
      checkShown(name, QStringLiteral("%1x%2").arg(size.width()).arg(size.height()));
    }
  }

  // The Animation panel's transport stays inside the panel: at 640 px the
  // side panels are 180 px wide and the one-row transport ran past the
  // panel's edge (Stop half shown, the next-frame step not at all), so there
  // it wraps into two rows; where the row fits it stays one row.
  void theTransportFitsTheAnimationPanel() {
    resize({1000, 700});
    openAndCheck("voxel-run", path("tank-cubes"), "transport");
    auto* panel = m_ui.window->findChild<QQuickItem*>(QStringLiteral("animationPanel"));
    QVERIFY(panel);
    const char* buttons[] = {"stepBack", "playButton", "stopButton", "stepForward"};
    for (const QSize size : {QSize(640, 480), QSize(700, 500), QSize(1280, 800)}) {
      resize(size);
      for (const char* name : buttons) {
        auto* button = m_ui.window->findChild<QQuickItem*>(QString::fromLatin1(name));
        QVERIFY2(button && button->isVisible(), name);
        const QString outside = outsideOf(panel, button, size);
        QVERIFY2(outside.isEmpty(), qPrintable(outside));
      }
    }
    // 1280 px: the panel is wide enough for one row (the buttons' heights
    // differ, so one row is where their spans overlap; two rows never do).
    auto span = [this](const char* name) {
      auto* item = m_ui.window->findChild<QQuickItem*>(QString::fromLatin1(name));
      const qreal top = item->mapToScene({0, 0}).y();
      return std::pair{top, top + item->height()};
    };
    const auto [backTop, backBottom] = span("stepBack");
    const auto [stopTop, stopBottom] = span("stopButton");
    QVERIFY(backTop < stopBottom && stopTop < backBottom);
    resize({640, 480});
    const auto [narrowBackTop, narrowBackBottom] = span("stepBack");
    const auto [narrowStopTop, narrowStopBottom] = span("stopButton");
    QVERIFY2(narrowBackTop >= narrowStopBottom, "at 640 px the frame steps sit under play and stop");
  }

  // At 640-700 px the side panels are 180 px wide: a rig joint's value and
  // reset, the memory totals, a character's expression values and reset and
  // its look fields must stay inside their panels (names elide, long lines
  // and button rows wrap), and at 1280 px as well.
  void sidePanelValuesStayInTheirPanels() {
    valuesStayInTheirPanels("voxel-run", path("tank-cubes"),
                            {{"jointsPanel", "value_turret_yaw"},
                             {"jointsPanel", "reset_turret_yaw"},
                             {"jointsPanel", "value_gun_pitch"},
                             {"memoryPanel", "cpuBytes"},
                             {"memoryPanel", "gpuBytes"},
                             {"memoryPanel", "bytes_vertexBytes"}});
    valuesStayInTheirPanels("aosrig-preview", path("character/sample-face.aosrig"),
                            {{"expressionPanel", "resetChannels"},
                             {"expressionPanel", "channelValue_left_eye_000"},
                             {"characterLookPanel", "sigmaValue"},
                             {"characterLookPanel", "lookZ"},
                             {"characterLookPanel", "lookAt"}});
    valuesStayInTheirPanels("decoded-bundle", path("decoded/sample-bundle"),
                            {{"characterLookPanel", "showDecoded"}, {"characterLookPanel", "branchVisible_head"}});
    valuesStayInTheirPanels("3dgs-ply", path("torus.ply"),
                            {{"characterMemoryPanel", "packBytes"},
                             {"characterMemoryPanel", "characterGpuBytes"},
                             {"characterMemoryPanel", "slots_scene"}});
  }

  // The crash of issue 29: a document of another kind arriving while the
  // window changes size. Every switch goes to another kind, the window
  // resized before the load lands, a rig clip playing when it is replaced.
  void switchingKindsWhileResizingAndPlaying() {
    const auto kinds = documents();
    const QList<QSize> sizes{{640, 480}, {1440, 900}, {900, 650}, {1920, 1080}, {1000, 700}};
    for (int round = 0; round < 2; ++round)
      for (int i = 0; i < kinds.size(); ++i) {
        const auto& [name, file] = kinds[(i * 2 + round) % kinds.size()];
        if (m_app->mode() == riglens::app::AppController::Mode::Rig)
          QVERIFY(m_app->playback()->play(QStringLiteral("fire")));
        m_app->open(file);
        const QSize size = sizes[(i + round) % sizes.size()];
        m_ui.window->resize(size);  // while it loads
        QTest::qWait(1);
        m_ui.window->resize(size.width() - 37, size.height() - 23);
        checkShown(name, QStringLiteral("switch%1-%2").arg(round).arg(i));
      }
  }

  void maximiseAndRestore() {
    m_ui.window->showMaximized();
    QTest::qWait(50);
    m_ui.window->showNormal();
    resize({1280, 800});
    checkShown(QStringLiteral("restored"), QStringLiteral("restored"));
  }

  // View > Camera: a 2 x 2 quad at the origin seen by the file's camera
  // 2 units in front of it, 90 degrees high, the viewport's aspect: the quad
  // spans half the viewport's height and 1 / (2 aspect) of its width,
  // centred. Turning the wheel goes back to the orbit.
  void looksThroughTheFilesCamera() {
    test::GltfBuilder b;
    b.primitive({{"POSITION", b.data(std::vector<float>{-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0},
                                     TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)}},
                b.data(std::vector<std::uint16_t>{0, 1, 2, 0, 2, 3}, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                       TINYGLTF_TYPE_SCALAR));
    tinygltf::Camera camera;
    camera.type = "perspective";
    camera.name = "front";
    camera.perspective.yfov = M_PI / 2;
    camera.perspective.znear = 0.1;
    b.model.cameras.push_back(camera);
    tinygltf::Node eye;
    eye.camera = 0;
    eye.translation = {0, 0, 2};
    b.model.nodes.push_back(eye);
    b.model.scenes[0].nodes.push_back(1);
    const fs::path file = path("camera.glb").toStdString();
    QVERIFY(core::writeFileAtomically(file, b.glb()));
    m_app->open(QString::fromStdString(file.string()));
    QTRY_VERIFY_WITH_TIMEOUT(!m_app->loading() && m_app->documentTitle() == "camera.glb", 10000);
    QCOMPARE(m_app->cameraNames(), QStringList{"front"});
    m_ui.viewport->setProperty("fileCamera", "front");
    m_ui.waitFrames(2);
    const QRect viewport = m_ui.viewportRect();
    const double aspect = double(viewport.width()) / viewport.height();
    const QImage grab = m_ui.window->grabWindow();
    grab.save(test::outputPath(
        QStringLiteral("documents-%1-file-camera.png").arg(qEnvironmentVariable("RIGLENS_TEST_RUN", "run"))));
    const Coverage through = documentCoverage(grab, viewport);
    const double expected = 0.5 * (1.0 / (2.0 * aspect)) * 1.0;
    QVERIFY2(std::abs(through.fraction - expected) <= kCoverageSlack * expected,
             qPrintable(QString("covers %1 of the viewport, the camera says %2").arg(through.fraction).arg(expected)));
    QVERIFY(std::abs(through.centre.x() - 0.5) <= kEdgePixels / viewport.width() &&
            std::abs(through.centre.y() - 0.5) <= kEdgePixels / viewport.height());
    QWheelEvent wheel(QPointF(viewport.center()), m_ui.window->mapToGlobal(viewport.center()), {}, {0, 120},
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(m_ui.viewport, &wheel);
    QCOMPARE(m_ui.viewport->property("fileCamera").toString(), QString());
  }

  void thePbrLookShowsTheFilesLights() {
    // A white quad and a red point light in the file: review shading ignores
    // the file's lights (grey), the PBR look is lit by it (red), and the
    // look's switch changes nothing else.
    test::PbrQuad white;
    white.base[0] = white.base[1] = white.base[2] = 0.9;
    test::GltfBuilder b = test::makePbrQuads({white});
    tinygltf::Value::Object light{{"type", tinygltf::Value(std::string("point"))},
                                  {"color", tinygltf::Value(tinygltf::Value::Array{
                                                tinygltf::Value(1.0), tinygltf::Value(0.0), tinygltf::Value(0.0)})},
                                  {"intensity", tinygltf::Value(4.0)}};
    b.model.extensions["KHR_lights_punctual"] = tinygltf::Value(
        tinygltf::Value::Object{{"lights", tinygltf::Value(tinygltf::Value::Array{tinygltf::Value(light)})}});
    tinygltf::Node lamp;
    lamp.translation = {0.5, 0.5, 1.0};
    lamp.extensions["KHR_lights_punctual"] = tinygltf::Value(tinygltf::Value::Object{{"light", tinygltf::Value(0)}});
    b.model.nodes.push_back(lamp);
    b.model.scenes[0].nodes.push_back(1);
    b.model.extensionsUsed.push_back("KHR_lights_punctual");
    const fs::path file = path("lamp.glb").toStdString();
    QVERIFY(core::writeFileAtomically(file, b.glb()));
    m_app->open(QString::fromStdString(file.string()));
    QTRY_VERIFY_WITH_TIMEOUT(!m_app->loading() && m_app->documentTitle() == "lamp.glb", 10000);
    m_ui.viewport->setProperty("look", "review");
    m_ui.waitFrames(2);
    const QRect viewport = m_ui.viewportRect();
    const auto centre = [&](const QString& name) {
      const QImage grab = m_ui.window->grabWindow();
      grab.save(test::outputPath(
          QStringLiteral("documents-%1-%2.png").arg(qEnvironmentVariable("RIGLENS_TEST_RUN", "run"), name)));
      return grab.pixelColor(viewport.center());
    };
    const QColor review = centre("look-review");
    m_ui.viewport->setProperty("look", "pbr");
    m_ui.waitFrames(2);
    const QColor pbr = centre("look-pbr");
    m_ui.viewport->setProperty("look", "review");
    QVERIFY2(std::abs(review.red() - review.green()) <= kGreyChannels, qPrintable(review.name()));
    QVERIFY2(pbr.red() > pbr.green() + kLitByRed, qPrintable(pbr.name()));
  }

  // A VRM avatar opens as the glTF it is; its expressions fill the
  // Expression panel and move the face when set (the viewport's pixels
  // change, and change back on reset); its humanoid bones are listed in the
  // Scene panel.
  void aVrmAvatarShowsItsExpressions() {
    const fs::path file = path("face.vrm").toStdString();
    QVERIFY(core::writeFileAtomically(file, test::makeVrmFace(1).glb()));
    m_app->open(QString::fromStdString(file.string()));
    checkShown("face.vrm", "opened");
    auto* avatar = m_app->avatar();
    QVERIFY(avatar->active());
    QCOMPARE(avatar->version(), QStringLiteral("1.0"));
    QCOMPARE(avatar->expressions().size(), 5);
    QCOMPARE(avatar->humanoid().size(), qsizetype(2 + test::kVrmLimbBones.size()));
    auto* panel = m_ui.window->findChild<QQuickItem*>(QStringLiteral("avatarPanel"));
    QVERIFY(panel && panel->isVisible());
    auto* humanoid = m_ui.window->findChild<QQuickItem*>(QStringLiteral("humanoidList"));
    QVERIFY(humanoid && humanoid->property("count").toInt() == avatar->humanoid().size());
    const QImage rest = m_ui.window->grabWindow().copy(m_ui.viewportRect());
    QVERIFY(avatar->setExpression(QStringLiteral("happy"), 1.0));
    QVERIFY(avatar->setExpression(QStringLiteral("aa"), 1.0));
    m_ui.waitFrames(2);
    const QImage expressive = m_ui.window->grabWindow().copy(m_ui.viewportRect());
    expressive.save(test::outputPath(
        QStringLiteral("documents-%1-vrm-expressive.png").arg(qEnvironmentVariable("RIGLENS_TEST_RUN", "run"))));
    QVERIFY(expressive != rest);
    double happyAndAa = 0;
    for (const QVariant& e : avatar->expressions())
      if (const QVariantMap row = e.toMap(); row.value("name") == "happy" || row.value("name") == "aa")
        happyAndAa += row.value("value").toDouble();
    QCOMPARE(happyAndAa, 2.0);
    QVERIFY(!avatar->setExpression(QStringLiteral("joy"), 1.0));  // VRM 0.x's name: refused, said
    QVERIFY(m_app->lastError().contains("joy"));
    m_app->clearError();
    avatar->resetExpressions();
    m_ui.waitFrames(2);
    QCOMPARE(m_ui.window->grabWindow().copy(m_ui.viewportRect()), rest);
  }

  void theLookIsRememberedBetweenSessions() {
    // An environment the viewport shows behind the model, turned, in the PBR
    // look at +1.5 EV: remembered (the test's own QSettings), then restored
    // into a viewport reset to the defaults; a screenshot run (remembersView
    // off) neither reads nor writes them.
    const QString sky = path("sky.exr");
    test::writeExr(sky.toStdString(), 8, 4, test::environmentGradient(8, 4));
    QObject* viewport = m_ui.viewport;
    viewport->setProperty("remembersView", true);
    viewport->setProperty("look", "pbr");
    viewport->setProperty("exposure", 1.5);
    viewport->setProperty("environmentRotation", 30.0);
    viewport->setProperty("environmentBackground", true);
    QVariantMap loaded;
    QVERIFY(QMetaObject::invokeMethod(viewport, "loadEnvironment", Q_RETURN_ARG(QVariantMap, loaded),
                                      Q_ARG(QVariant, sky)));
    QVERIFY2(loaded.value("ok").toBool(), qPrintable(loaded.value("message").toString()));
    QCOMPARE(viewport->property("environment").toString(), QString("sky.exr"));
    viewport->setProperty("remembersView", false);
    viewport->setProperty("look", "review");
    viewport->setProperty("exposure", 0.0);
    viewport->setProperty("environmentRotation", 0.0);
    viewport->setProperty("environmentBackground", false);
    QVERIFY(QMetaObject::invokeMethod(viewport, "loadEnvironment", Q_RETURN_ARG(QVariantMap, loaded),
                                      Q_ARG(QVariant, QString("studio"))));
    QCOMPARE(QSettings().value("view/look").toString(), QString("pbr"));  // not overwritten while off
    viewport->setProperty("remembersView", true);
    QCOMPARE(viewport->property("look").toString(), QString("pbr"));
    QCOMPARE(viewport->property("exposure").toDouble(), 1.5);
    QCOMPARE(viewport->property("environmentRotation").toDouble(), 30.0);
    QCOMPARE(viewport->property("environmentBackground").toBool(), true);
    QCOMPARE(viewport->property("environment").toString(), QString("sky.exr"));
    viewport->setProperty("remembersView", false);
    viewport->setProperty("look", "review");
  }

  void cleanupTestCase() { m_ui.stop(); }
};

QTEST_MAIN(TestAppDocuments)
#include "tst_app_documents.moc"
