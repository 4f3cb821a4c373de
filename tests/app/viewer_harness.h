// The real main window under test (Xvfb + Qt Quick on Vulkan or OpenGL),
// driven the way a user drives it: find items by objectName through the
// visual tree, drag sliders with the mouse, wait for engine frames, grab the
// window. Shared by the app tests.
#pragma once

#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtGui/QImage>
#include <QtQml/QQmlApplicationEngine>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>
#include <QtTest/QTest>
#include <functional>
#include <memory>
#include <vector>

#include "app_controller.h"
#include "main_window.h"

namespace riglens::test {

inline QPointF centreOf(QQuickItem* item) {
  return item->mapToScene(QPointF(item->width() / 2, item->height() / 2));
}

// How many pixels differ between two grabs (every other pixel of `rect`).
inline int differingPixels(const QImage& a, const QImage& b, QRect rect) {
  int n = 0;
  for (int y = rect.top(); y <= rect.bottom(); y += 2)
    for (int x = rect.left(); x <= rect.right(); x += 2) n += a.pixel(x, y) != b.pixel(x, y);
  return n;
}

// Qt 6.4's Quick Layouts keep a Repeater's destroyed delegates and read
// them on the next resize when the model changes (a use after free: the tint
// buttons crashed every --size screenshot of a splat document). So no
// Repeater in the window - its shown panels, its dialogs' unopened content -
// may have a Layout as its parent item; they sit in Row/Column positioners.
// One line for each that does; `repeaters` counts those seen.
inline QStringList repeatersInLayouts(QQuickWindow* window, int* repeaters) {
  QSet<QQuickItem*> items;
  const std::function<void(QQuickItem*)> walk = [&](QQuickItem* item) {
    items.insert(item);
    for (QQuickItem* child : item->childItems()) walk(child);
  };
  walk(window->contentItem()->parentItem() ? window->contentItem()->parentItem() : window->contentItem());
  for (QQuickItem* item : window->findChildren<QQuickItem*>()) items.insert(item);  // unopened dialogs' content
  QStringList problems;
  *repeaters = 0;
  for (QQuickItem* item : std::as_const(items)) {
    if (!item->inherits("QQuickRepeater")) continue;
    ++*repeaters;
    QQuickItem* parent = item->parentItem();
    if (parent && parent->inherits("QQuickLayout"))
      problems << QStringLiteral("a Repeater (model %1) is a child of the %2 '%3'")
                      .arg(item->property("model").toString(), QString::fromLatin1(parent->metaObject()->className()),
                           parent->objectName());
  }
  return problems;
}

class ViewerHarness {
 public:
  // Creates the controller and the window, waits until it is exposed and active.
  bool start(QString* error) {
    QCoreApplication::setOrganizationName(QStringLiteral("RigLensTests"));
    QStandardPaths::setTestModeEnabled(true);
    controller = std::make_unique<app::AppController>();
    engine = std::make_unique<QQmlApplicationEngine>();
    window = app::createMainWindow(*engine, *controller, error);
    if (!window) return false;
    window->resize(1280, 800);
    if (!QTest::qWaitForWindowExposed(window)) return *error = "the window was never exposed", false;
    window->requestActivate();  // window shortcuts need the active window
    if (!QTest::qWaitForWindowActive(window)) return *error = "the window never became active", false;
    viewport = find("viewport");
    return viewport != nullptr || (*error = "no viewport item", false);
  }

  void stop() {
    engine.reset();
    controller.reset();
  }

  // Opens and waits for the load and two more engine frames; false (and the
  // controller's error) when the document did not open.
  bool openAndWait(const QString& path) {
    controller->open(path);
    QDeadlineTimer deadline(20000);
    while (controller->loading() && !deadline.hasExpired()) QTest::qWait(10);
    if (!controller->hasDocument() || controller->loading()) return false;
    waitFrames(2);
    return true;
  }

  void waitFrames(int count) {
    const int frames = viewport->property("framesRendered").toInt();
    window->update();
    QDeadlineTimer deadline(10000);
    while (viewport->property("framesRendered").toInt() < frames + count && !deadline.hasExpired()) QTest::qWait(10);
  }

  // A grab after at least one more engine frame.
  QImage settledGrab() {
    waitFrames(1);
    return window->grabWindow();
  }

  QRect viewportRect() const {
    const qreal dpr = window->devicePixelRatio();
    return QRectF(viewport->mapToScene(QPointF(0, 0)) * dpr, viewport->size() * dpr).toAlignedRect();
  }

  // By objectName through the visual tree: view delegates have no QObject
  // parent, so QObject::findChild does not see them.
  QQuickItem* find(const QString& name) const { return findIn(window->contentItem(), name); }
  // Waits until the item exists (view delegates are created lazily) and is laid out.
  QQuickItem* visibleItem(const QString& name) const {
    QDeadlineTimer deadline(5000);
    QQuickItem* item = find(name);
    while ((!item || !item->isVisible() || item->width() < 20) && !deadline.hasExpired()) {
      QTest::qWait(10);
      item = find(name);
    }
    return item;
  }
  // Every item of the visual tree (the overlay's popups among them).
  std::vector<QQuickItem*> items() const {
    std::vector<QQuickItem*> all{window->contentItem()};
    for (std::size_t i = 0; i < all.size(); ++i)
      for (QQuickItem* child : all[i]->childItems()) all.push_back(child);
    return all;
  }
  static QQuickItem* findIn(QQuickItem* item, const QString& name) {
    if (item->objectName() == name) return item;
    for (QQuickItem* child : item->childItems())
      if (QQuickItem* found = findIn(child, name)) return found;
    return nullptr;
  }

  // Drags a Slider's handle with the mouse to `fraction` of its track.
  void dragSlider(QQuickItem* slider, double fraction) {
    auto* handle = slider->property("handle").value<QQuickItem*>();
    const QPointF start = centreOf(handle);
    const double left = slider->property("leftPadding").toDouble();
    const double available = slider->property("availableWidth").toDouble();
    const QPointF end = slider->mapToScene(QPointF(left + fraction * available, slider->height() / 2));
    QTest::mousePress(window, Qt::LeftButton, {}, start.toPoint());
    for (int i = 1; i <= 10; ++i) QTest::mouseMove(window, (start + (end - start) * (i / 10.0)).toPoint(), 10);
    QTest::mouseRelease(window, Qt::LeftButton, {}, end.toPoint());
  }

  void click(QQuickItem* item) { QTest::mouseClick(window, Qt::LeftButton, {}, centreOf(item).toPoint()); }

  std::unique_ptr<app::AppController> controller;
  std::unique_ptr<QQmlApplicationEngine> engine;
  QQuickWindow* window = nullptr;
  QQuickItem* viewport = nullptr;
};

// The fixture of the character tests: a temporary folder for the samples
// they write, the viewer, its controller and its character controller.
class CharacterViewerCase : public QObject {
 protected:
  // Starts the viewer (once the samples are written); false, and why, when
  // it cannot.
  bool startViewer(QString* error) {
    if (!m_ui.start(error)) return false;
    m_app = m_ui.controller.get();
    m_character = m_app->characterController();
    return true;
  }
  QString path(const char* name) const { return m_dir.filePath(name); }
  QQuickItem* visibleItem(const QString& name) { return m_ui.visibleItem(name); }

  QTemporaryDir m_dir;
  ViewerHarness m_ui;
  app::AppController* m_app = nullptr;
  app::CharacterController* m_character = nullptr;
};

}  // namespace riglens::test
