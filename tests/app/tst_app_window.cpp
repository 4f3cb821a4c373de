// The real main window, loaded from the RigLens QML module on a real X
// server (Xvfb) with Qt Quick on Vulkan: the layout and the File menu exist,
// and a rendered frame can be grabbed and is not blank.
#include <QtCore/QProcess>
#include <QtCore/QStandardPaths>
#include <QtGui/QImage>
#include <QtQml/QQmlApplicationEngine>
#include <QtQml/QQmlExtensionPlugin>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>
#include <QtTest/QTest>
#include <fstream>
#include <functional>
#include <set>

#include "app_controller.h"
#include "graphics_backend.h"
#include "main_window.h"
#include "riglens/samples/sample_runs.h"
#include "test_paths.h"
#include "viewer_harness.h"
#include "window_msaa.h"

Q_IMPORT_QML_PLUGIN(RigLensPlugin)

using namespace riglens;

class TestAppWindow : public QObject {
  Q_OBJECT
  std::unique_ptr<app::AppController> m_controller;
  std::unique_ptr<QQmlApplicationEngine> m_engine;
  QQuickWindow* m_window = nullptr;

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("RigLensTests"));
    QStandardPaths::setTestModeEnabled(true);  // keep QSettings out of the user's config
    m_controller = std::make_unique<app::AppController>();
    m_controller->clearRecentFiles();
    m_engine = std::make_unique<QQmlApplicationEngine>();
    QString error;
    m_window = app::createMainWindow(*m_engine, *m_controller, &error);
    QVERIFY2(m_window, qPrintable(error));
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
  }

  void usesTheRequestedQRhiBackend() {
    // Not the software renderer: the viewport draws through Quick's QRhi, on
    // the backend this run asked for (the test is registered for both).
    const auto expected = qEnvironmentVariable("QSG_RHI_BACKEND") == "opengl" ? QSGRendererInterface::OpenGL
                                                                              : QSGRendererInterface::Vulkan;
    QCOMPARE(m_window->rendererInterface()->graphicsApi(), expected);
  }

  // The names drivers give glGetString(GL_RENDERER) (Mesa's llvmpipe and
  // softpipe, Google's SwiftShader, Windows' fallback), and GPU drivers whose
  // names merely contain "LLVM" (radeonsi compiles with it) or "Software".
  void tellsSoftwareRasterisersFromGpus() {
    for (const char* software : {"llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe", "Mesa X11 Software Rasterizer",
                                 "SwiftShader Device (LLVM 10.0.0)", "GDI Generic", "Microsoft Basic Render Driver"})
      QVERIFY2(app::isSoftwareRasteriserName(software), software);
    for (const char* gpu : {"NVIDIA H200/PCIe/SSE2", "AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 15.0.6, DRM 3.54)",
                            "Mesa Intel(R) UHD Graphics 630 (CFL GT2)", "Apple M2", "Software Foundry GPU"})
      QVERIFY2(!app::isSoftwareRasteriserName(gpu), gpu);
    QVERIFY(!app::isSoftwareRasteriserName(nullptr));
  }

  // The window asks for 4x MSAA unless the device is a software rasteriser
  // (window_msaa.h). This machine has only llvmpipe (OpenGL) and
  // lavapipe (Vulkan), so either run gets 1 sample. Which device Vulkan has
  // is asked of vulkaninfo, not of the probe the window used (a second
  // QVulkanInstance in this process would break the window's in Qt 6.4).
  void multisamplesOnlyOnAGpu() {
    const bool openGl = qEnvironmentVariable("QSG_RHI_BACKEND") == "opengl";
    bool cpu = true;
    if (!openGl) {
      QProcess vulkaninfo;
      vulkaninfo.start(QStringLiteral("vulkaninfo"), {QStringLiteral("--summary")});
      QVERIFY2(vulkaninfo.waitForFinished(30000), "vulkaninfo (vulkan-tools) did not run");
      const QString summary = QString::fromLocal8Bit(vulkaninfo.readAllStandardOutput());
      const qsizetype type = summary.indexOf(QStringLiteral("deviceType"));  // the first device: QRhi's
      QVERIFY2(type >= 0, qPrintable(summary));
      cpu = summary.mid(type, 64).contains(QStringLiteral("PHYSICAL_DEVICE_TYPE_CPU"));
    }
    QCOMPARE(m_window->requestedFormat().samples(), cpu ? 1 : 4);
    QCOMPARE(app::WindowMsaa(app::chooseGraphicsBackend(), 2).count(), 2);  // the viewer's --samples
  }

  // Qt 6.4's Layouts and Repeaters (viewer_harness.h): the panels a window
  // without a document shows (a rig's) and every dialog. tst_app_documents
  // looks at each kind of document's panels.
  void noRepeaterIsLaidOutByALayout() {
    int repeaters = 0;
    const QStringList problems = test::repeatersInLayouts(m_window, &repeaters);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    QVERIFY(repeaters >= 6);  // the walk reached the panels (tint buttons, memory rows, branches, ...)
  }

  void hasTheFinalLayout() {
    for (const char* name :
         {"leftPanel", "viewport", "rightPanel", "scenePanel", "jointsPanel", "animationPanel", "memoryPanel"}) {
      auto* item = m_window->findChild<QQuickItem*>(QString::fromLatin1(name));
      QVERIFY2(item, name);
      QVERIFY2(item->width() > 0 && item->height() > 0, name);
    }
    // A character's panels, the VRM's and the comparison's are made when shown (LazyPanel.qml).
    for (const char* name : {"expressionPanel", "characterLookPanel", "characterFramePanel", "comparePanel"})
      QVERIFY2(!m_window->findChild<QQuickItem*>(QString::fromLatin1(name)), name);
    auto* left = m_window->findChild<QQuickItem*>(QStringLiteral("leftPanel"));
    auto* viewport = m_window->findChild<QQuickItem*>(QStringLiteral("viewport"));
    auto* right = m_window->findChild<QQuickItem*>(QStringLiteral("rightPanel"));
    const qreal leftX = left->mapToScene({0, 0}).x();
    const qreal viewportX = viewport->mapToScene({0, 0}).x();
    const qreal rightX = right->mapToScene({0, 0}).x();
    QVERIFY(leftX < viewportX && viewportX < rightX);
    QVERIFY(viewport->width() > left->width());
  }

  void hasTheIcon() {
    // The .desktop file's SVG, drawn through the SVG icon engine at run time.
    const QPixmap icon = m_window->icon().pixmap(64, 64);
    QVERIFY2(!icon.isNull(), "no window icon (is libqt6svg6 installed?)");
    const QImage image = icon.toImage();
    int opaque = 0;
    for (int y = 0; y < image.height(); ++y)
      for (int x = 0; x < image.width(); ++x) opaque += qAlpha(image.pixel(x, y)) > 0;
    QVERIFY2(opaque > 64 * 64 / 4,
             qPrintable(QString::number(opaque)));  // drawn, not an empty pixmap
  }

  void fileMenuHasEveryAction() {
    QStringList texts;
    for (const char* name : {"openAction", "exportAction", "screenshotAction", "quitAction"}) {
      QObject* action = m_window->findChild<QObject*>(QString::fromLatin1(name));
      QVERIFY2(action, name);
      texts << action->property("text").toString();
    }
    QCOMPARE(texts, (QStringList{"&Open…", "&Export GLB…", "&Screenshot…", "&Quit"}));
    QVERIFY(m_window->findChild<QObject*>(QStringLiteral("recentMenu")));
    // Nothing to export before a rig is open.
    QCOMPARE(m_window->findChild<QObject*>(QStringLiteral("exportAction"))->property("enabled").toBool(), false);
  }

  void openingAMissingPathShowsTheErrorAndKeepsState() {
    m_controller->open(QStringLiteral("/nonexistent/run/rig.json"));
    QVERIFY(m_controller->lastError().contains("/nonexistent/run/rig.json"));
    QVERIFY(m_controller->recentFiles().isEmpty());
    QVERIFY(!m_controller->hasDocument());
    auto* banner = m_window->findChild<QQuickItem*>(QStringLiteral("errorBanner"));
    QVERIFY(banner);
    QTRY_VERIFY(banner->isVisible());
    m_controller->clearError();
    QTRY_VERIFY(!banner->isVisible());
  }

  void grabIsNotBlank() {
    m_window->update();
    const QImage image = m_window->grabWindow();
    QVERIFY(!image.isNull());
    image.save(test::outputPath("app_main_window.png"));
    QCOMPARE(image.size(), m_window->size() * m_window->devicePixelRatio());
    // A rendered window has panels, text and a viewport: many distinct colours.
    std::set<QRgb> colors;
    for (int y = 0; y < image.height(); y += 4)
      for (int x = 0; x < image.width(); x += 4) colors.insert(image.pixel(x, y) | 0xff000000u);
    QVERIFY2(colors.size() > 8, qPrintable(QString::number(colors.size())));
    // The viewport's background colour is where the viewport is.
    auto* viewport = m_window->findChild<QQuickItem*>(QStringLiteral("viewport"));
    const QPointF corner = viewport->mapToScene({10, 10}) * m_window->devicePixelRatio();
    QCOMPARE(QColor(image.pixel(corner.toPoint())).name(), QStringLiteral("#20262e"));
  }

  void opensASampleAndTheViewportDrawsIt() {
    QTemporaryDir dir;
    QVERIFY(riglens::samples::writeSampleRun(*riglens::samples::makeSampleRun("tank-cubes"),
                                             dir.filePath("tank").toStdString()));
    m_controller->open(dir.filePath("tank"));
    QVERIFY(m_controller->loading());
    QTRY_VERIFY_WITH_TIMEOUT(!m_controller->loading(), 20000);
    QVERIFY2(m_controller->hasDocument(), qPrintable(m_controller->lastError()));
    QCOMPARE(m_controller->partNames(), (QStringList{"hull", "turret", "barrel", "muzzle", "radar"}));
    QVERIFY(m_controller->recentFiles().first().endsWith("tank"));
    auto* viewport = m_window->findChild<QQuickItem*>(QStringLiteral("viewport"));
    QTRY_VERIFY_WITH_TIMEOUT(viewport->property("framesRendered").toInt() > 0, 10000);
    QTRY_VERIFY(viewport->property("gpuBytes").toLongLong() > 100000);
    QTRY_COMPARE(m_controller->gpuBytes(), viewport->property("gpuBytes").toLongLong());
    const QImage image = m_window->grabWindow();
    image.save(test::outputPath("app_tank.png"));
    // The model covers the middle of the viewport: not the background colour.
    const QPointF centre =
        viewport->mapToScene({viewport->width() / 2, viewport->height() / 2}) * m_window->devicePixelRatio();
    QVERIFY(QColor(image.pixel(centre.toPoint())).name() != QStringLiteral("#20262e"));
    // Tint modes switch at runtime: the part tint changes the pixels.
    viewport->setProperty("tint", "part");
    const int before = viewport->property("framesRendered").toInt();
    QTRY_VERIFY(viewport->property("framesRendered").toInt() > before);
    const QImage tinted = m_window->grabWindow();
    QVERIFY(tinted.pixel(centre.toPoint()) != image.pixel(centre.toPoint()));
    viewport->setProperty("tint", "color");

    // A bad file: the error shows and the tank stays.
    std::ofstream(dir.filePath("bad.json").toStdString()) << R"({"parts": [{"name": 3}]})";
    m_controller->open(dir.filePath("bad.json"));
    QTRY_VERIFY_WITH_TIMEOUT(!m_controller->loading(), 20000);
    QVERIFY(m_controller->lastError().contains("/parts/0/name: expected a string"));
    QCOMPARE(m_controller->partNames().size(), 5);
    m_controller->clearError();
  }

  void savesScreenshotThroughTheController() {
    const QString path = test::outputPath(QStringLiteral("app_screenshot.png"));
    QFile::remove(path);
    QVERIFY(m_controller->exporter()->saveScreenshot(m_window, path));
    QImage saved(path);
    QVERIFY(!saved.isNull());
    QVERIFY(!m_controller->exporter()->saveScreenshot(m_window, QStringLiteral("/nonexistent/dir/x.png")));
    QVERIFY(m_controller->lastError().contains("/nonexistent/dir/x.png"));
    m_controller->clearError();
  }

  void cleanupTestCase() {
    m_engine.reset();
    m_controller.reset();
  }
};

QTEST_MAIN(TestAppWindow)
#include "tst_app_window.moc"
