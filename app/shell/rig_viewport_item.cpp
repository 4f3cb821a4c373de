#include "rig_viewport_item.h"

#include <cmath>

#include <QtCore/QRunnable>
#include <QtGui/QMouseEvent>
#include <QtGui/QWheelEvent>
#include <QtGui/QCursor>
#include <QtQuick/QQuickWindow>
#include <QtQuick/QSGRendererInterface>

#include "app_controller.h"
#include "character_controller.h"
#include "riglens/core/rig/scene_bounds.h"
#include "riglens/render/rig/frame_builder.h"
#include "riglens/render/device/window_renderer.h"

namespace riglens::app {

// Lives on the render thread. Receives a snapshot in sync() (GUI thread
// blocked), draws it in the window's frame.
class ViewportRenderer : public QObject {
 public:
  explicit ViewportRenderer(QQuickWindow* window) : m_window(window) {}

  void setSnapshot(std::shared_ptr<const core::LoadedRun> run, std::shared_ptr<const core::CharacterScene> scene, bool modelChanged,
                   render::FrameState state, render::CharacterFrame character, QRect viewport) {
    if (modelChanged) {
      m_run = std::move(run);
      m_scene = std::move(scene);
      m_modelPending = true;
    }
    m_state = std::move(state);
    m_characterFrame = std::move(character);
    m_viewport = viewport;
  }

  // beforeRendering: render thread, outside the main pass.
  void prepare() {
    QSGRendererInterface* rif = m_window->rendererInterface();
    auto* rhi = static_cast<QRhi*>(rif->getResource(m_window, QSGRendererInterface::RhiResource));
    auto* swapchain = static_cast<QRhiSwapChain*>(rif->getResource(m_window, QSGRendererInterface::RhiSwapchainResource));
    m_swapchain = swapchain;
    if (!rhi || !swapchain) {  // the software renderer: nothing to draw with
      m_unavailable = true;
      return;
    }
    if (!m_renderer) m_renderer = std::make_unique<render::WindowRenderer>(rhi);
    if (m_modelPending) {
      m_renderer->setModel(m_run);
      m_renderer->setCharacter(m_scene ? m_scene->pack : nullptr);
      m_renderer->setCloud(m_scene ? m_scene->cloud : nullptr);
      if (m_scene) m_renderer->setSplatBounds(m_scene->bounds);
      m_modelPending = false;
    }
    m_renderer->setCharacterFrame(m_characterFrame);
    if ((!m_run && !m_scene) || m_viewport.isEmpty()) {
      m_ready = false;
      return;
    }
    // The stack records whichever layers prepared: a character the GPU
    // cannot run leaves the rest of the frame drawn, and says why.
    const bool prepared = m_renderer->prepare(swapchain, m_state, m_viewport);
    m_ready = true;
    m_failure = prepared ? QString() : QString::fromStdString(m_renderer->failure());
    if (m_scene)
      reportSplats();
    else if (prepared)
      reportRig();
  }

  // Read in sync() only (GUI thread blocked).
  QVariantMap memoryReport() const { return m_report; }
  QVariantMap characterReport() const { return m_characterReport; }
  QString failure() const { return m_failure; }

  // beforeRenderPassRecording: inside the main pass, under the QML scene.
  void record() {
    if (!m_ready || !m_swapchain) return;
    // QRhi calls on Quick's own command buffer: no begin/endExternalCommands
    // (those are for native API calls, and crash the GL backend in a pass not
    // begun for external content).
    m_renderer->record(m_swapchain);
    ++m_frames;
  }

  qint64 gpuBytes() const { return m_gpuBytes; }
  int frames() const { return m_frames; }
  bool unavailable() const { return m_unavailable; }

 private:
  void reportRig() {
    const render::MemoryReport report = m_renderer->memoryReport();
    m_gpuBytes = qint64(report.gpuBytes());
    QVariantList parts;
    for (const auto& p : report.parts)
      parts.append(QVariantMap{{"name", QString::fromStdString(p.name)}, {"vertexBytes", qint64(p.vertexBytes)},
                               {"indexBytes", qint64(p.indexBytes)}, {"uniformBytes", qint64(p.uniformBytes)},
                               {"totalBytes", qint64(p.vertexBytes + p.indexBytes + p.uniformBytes)}});
    m_report = QVariantMap{{"gpuBytes", m_gpuBytes},          {"vertexBytes", qint64(report.vertexBytes)},
                           {"indexBytes", qint64(report.indexBytes)}, {"uniformBytes", qint64(report.uniformBytes)},
                           {"storageBytes", qint64(report.storageBytes)}, {"textureBytes", qint64(report.textureBytes)},
                           {"overlayBytes", qint64(report.overlayBytes)}, {"cpuBytes", qint64(report.cpuBytes)},
                           {"parts", parts}};
  }

  void reportSplats() {
    const render::CharacterMemory memory = m_renderer->splatMemory();
    QVariantList buffers, branches;
    for (const auto& b : memory.buffers) buffers.append(QVariantMap{{"name", QString::fromStdString(b.name)}, {"bytes", qint64(b.bytes)}});
    for (const auto& b : memory.branches)
      branches.append(QVariantMap{{"name", QString::fromStdString(b.name)}, {"slotOffset", b.slotOffset}, {"slotsUsed", b.slotsUsed},
                                  {"capacity", b.capacity}});
    m_gpuBytes = qint64(memory.gpuBytes());
    m_characterReport = QVariantMap{{"packBytes", qint64(memory.packBytes)}, {"gpuBytes", m_gpuBytes}, {"buffers", buffers}, {"branches", branches}};
  }

  QQuickWindow* m_window;
  std::unique_ptr<render::WindowRenderer> m_renderer;
  QRhiSwapChain* m_swapchain = nullptr;
  std::shared_ptr<const core::LoadedRun> m_run;
  std::shared_ptr<const core::CharacterScene> m_scene;
  render::CharacterFrame m_characterFrame;
  bool m_modelPending = false;
  render::FrameState m_state;
  QRect m_viewport;
  bool m_ready = false;
  qint64 m_gpuBytes = 0;
  QVariantMap m_report, m_characterReport;
  QString m_failure;
  int m_frames = 0;
  bool m_unavailable = false;
};

namespace {

class CleanupJob : public QRunnable {
 public:
  explicit CleanupJob(ViewportRenderer* renderer) : m_renderer(renderer) {}
  void run() override { delete m_renderer; }

 private:
  ViewportRenderer* m_renderer;
};

}  // namespace

RigViewportItem::RigViewportItem(QQuickItem* parent) : QQuickItem(parent) {
  setAcceptedMouseButtons(Qt::LeftButton | Qt::RightButton | Qt::MiddleButton);
  setFlag(ItemAcceptsInputMethod, false);
  connect(this, &QQuickItem::windowChanged, this, &RigViewportItem::handleWindowChanged);
  connect(this, &QQuickItem::widthChanged, this, &RigViewportItem::requestFrame);
  connect(this, &QQuickItem::heightChanged, this, &RigViewportItem::requestFrame);
}

RigViewportItem::~RigViewportItem() = default;

QObject* RigViewportItem::controllerObject() const { return m_controller; }

void RigViewportItem::setControllerObject(QObject* object) {
  auto* controller = qobject_cast<AppController*>(object);
  if (controller == m_controller) return;
  if (m_controller) disconnect(m_controller, nullptr, this, nullptr);
  m_controller = controller;
  if (m_controller) {
    connect(m_controller, &AppController::documentChanged, this, &RigViewportItem::documentChanged);
    connect(m_controller, &AppController::poseChanged, this, &RigViewportItem::requestFrame);
    connect(m_controller, &AppController::selectionChanged, this, &RigViewportItem::requestFrame);
    CharacterController* character = m_controller->characterController();
    connect(character, &CharacterController::controlsChanged, this, &RigViewportItem::requestFrame);
    connect(character, &CharacterController::lookChanged, this, &RigViewportItem::requestFrame);
  }
  documentChanged();
  emit controllerChanged();
}

void RigViewportItem::documentChanged() {
  m_modelChanged = true;
  m_framed = false;
  requestFrame();
}

void RigViewportItem::setTint(const QString& tint) {
  core::TintMode mode;
  if (tint == m_tint || !core::parseTintMode(tint.toStdString(), &mode)) return;
  m_tint = tint;
  emit viewChanged();
  requestFrame();
}

void RigViewportItem::setHighlightPart(int part) {
  if (part == m_highlightPart) return;
  m_highlightPart = part;
  emit viewChanged();
  requestFrame();
}

void RigViewportItem::setShowGrid(bool show) {
  if (show == m_showGrid) return;
  m_showGrid = show;
  emit viewChanged();
  requestFrame();
}

void RigViewportItem::setShowAxes(bool show) {
  if (show == m_showAxes) return;
  m_showAxes = show;
  emit viewChanged();
  requestFrame();
}

void RigViewportItem::setYaw(double deg) {
  m_camera.setAngles(float(deg), m_camera.pitchDeg());
  emit viewChanged();
  requestFrame();
}

void RigViewportItem::setPitch(double deg) {
  m_camera.setAngles(m_camera.yawDeg(), float(deg));
  emit viewChanged();
  requestFrame();
}

void RigViewportItem::frameAll() {
  m_framed = false;
  requestFrame();
}

void RigViewportItem::requestFrame() {
  if (window()) window()->update();
}

void RigViewportItem::handleWindowChanged(QQuickWindow* window) {
  if (!window) return;
  connect(window, &QQuickWindow::beforeSynchronizing, this, &RigViewportItem::sync, Qt::DirectConnection);
  connect(window, &QQuickWindow::sceneGraphInvalidated, this, &RigViewportItem::cleanup, Qt::DirectConnection);
  // The engine draws first; QML panels draw over it. Quick must not clear over
  // the viewport after we drew: it clears before beforeRenderPassRecording.
}

// GUI thread blocked, render thread running: the only place state crosses.
void RigViewportItem::sync() {
  QQuickWindow* win = window();
  if (!m_renderer) {
    m_renderer = new ViewportRenderer(win);
    connect(win, &QQuickWindow::beforeRendering, m_renderer, &ViewportRenderer::prepare, Qt::DirectConnection);
    connect(win, &QQuickWindow::beforeRenderPassRecording, m_renderer, &ViewportRenderer::record, Qt::DirectConnection);
    m_modelChanged = true;
  }
  if (m_renderer->gpuBytes() != m_gpuBytes) {
    m_gpuBytes = m_renderer->gpuBytes();
    if (m_controller) {
      const QVariantMap report = m_renderer->memoryReport();
      QMetaObject::invokeMethod(m_controller, [c = m_controller, report] { c->setMemoryReport(report); }, Qt::QueuedConnection);
    }
    QMetaObject::invokeMethod(this, &RigViewportItem::gpuBytesChanged, Qt::QueuedConnection);
  }
  if (m_renderer->frames() != m_framesRendered) {
    m_framesRendered = m_renderer->frames();
    QMetaObject::invokeMethod(this, &RigViewportItem::framesRenderedChanged, Qt::QueuedConnection);
  }
  if (m_renderer->unavailable() && m_renderError.isEmpty()) {
    m_renderError = tr("3D view unavailable: Qt Quick runs without a GPU API (software renderer). "
                       "Use a platform with Vulkan or OpenGL (QSG_RHI_BACKEND=vulkan or opengl).");
    QMetaObject::invokeMethod(this, &RigViewportItem::renderErrorChanged, Qt::QueuedConnection);
  }
  Document* doc = m_controller ? m_controller->document() : nullptr;
  CharacterController* character = m_controller ? m_controller->characterController() : nullptr;
  const qreal dpr = win->effectiveDevicePixelRatio();
  const QPointF topLeft = mapToScene(QPointF(0, 0)) * dpr;
  const QRect viewport(topLeft.toPoint(), (size() * dpr).toSize());
  if (character && character->active()) {
    syncCharacter(*character, viewport);
    return;
  }
  if (!doc) {
    m_renderer->setSnapshot(nullptr, nullptr, m_modelChanged, {}, {}, viewport);
    m_modelChanged = false;
    return;
  }
  const auto& worlds = doc->controller().partWorlds();
  const float aspect = height() > 0 ? float(width() / height()) : 1.0f;
  if (!m_framed && width() > 0 && height() > 0) {
    m_camera.frame(core::posedBounds(*doc->run(), worlds), aspect);
    m_framed = true;
  }
  render::ViewSettings view;
  core::parseTintMode(m_tint.toStdString(), &view.tint);
  view.highlightPart = m_highlightPart >= 0 ? m_highlightPart : m_controller->selectedPart();
  view.partHidden = m_controller->hiddenPartFlags();
  view.showGrid = m_showGrid;
  view.showAxes = m_showAxes;
  render::FrameState state = render::buildFrameState(*doc->run(), worlds, m_camera, aspect, view);
  // Socket names for the QML overlay, projected into item coordinates.
  QVariantList sockets;
  if (view.tint == core::TintMode::Sockets) {
    const glm::mat4 viewProj = state.projection * state.view;
    for (const auto& socket : state.sockets) {
      const glm::vec4 clip = viewProj * glm::vec4(socket.position, 1.0f);
      if (clip.w <= 0) continue;
      sockets.append(QVariantMap{{"name", QString::fromStdString(socket.name)},
                                 {"x", (clip.x / clip.w * 0.5 + 0.5) * width()},
                                 {"y", (0.5 - clip.y / clip.w * 0.5) * height()}});
    }
  }
  if (sockets != m_sockets) {
    m_sockets = sockets;
    QMetaObject::invokeMethod(this, &RigViewportItem::socketsChanged, Qt::QueuedConnection);
  }
  m_renderer->setSnapshot(doc->run(), nullptr, m_modelChanged, std::move(state), {}, viewport);
  m_modelChanged = false;
}

// A splat character or scene: framed once on its rest bounds; the controls
// become the frame the character passes run; what the GPU holds and whether
// it can draw characters go back to the character controller.
void RigViewportItem::syncCharacter(CharacterController& character, QRect viewport) {
  const auto& scene = character.scene();
  const float aspect = height() > 0 ? float(width() / height()) : 1.0f;
  if (!m_framed && width() > 0 && height() > 0) {
    m_camera.frame(scene->bounds, aspect);
    m_framed = true;
  }
  render::FrameState state = render::cameraFrameState(m_camera, aspect);
  state.showGrid = false;  // the face floats at the origin: a ground grid would cut through it
  state.showAxes = m_showAxes;
  const QVariantMap report = m_renderer->characterReport();
  const QString failure = m_renderer->failure();
  QMetaObject::invokeMethod(
      &character, [c = &character, s = scene.get(), report, failure] { c->setRenderReport(s, report, failure); }, Qt::QueuedConnection);
  m_renderer->setSnapshot(nullptr, scene, m_modelChanged, std::move(state), character.frame(), viewport);
  m_modelChanged = false;
}

void RigViewportItem::cleanup() {
  delete m_renderer;  // render thread, scene graph going away
  m_renderer = nullptr;
}

void RigViewportItem::releaseResources() {
  if (m_renderer && window()) window()->scheduleRenderJob(new CleanupJob(m_renderer), QQuickWindow::BeforeSynchronizingStage);
  m_renderer = nullptr;
}

void RigViewportItem::mousePressEvent(QMouseEvent* event) {
  m_lastMouse = event->position();
  forceActiveFocus();
  event->accept();
}

void RigViewportItem::mouseMoveEvent(QMouseEvent* event) {
  const QPointF delta = event->position() - m_lastMouse;
  m_lastMouse = event->position();
  if (event->buttons() & Qt::LeftButton) {
    m_camera.orbit(float(-delta.x() * 0.4), float(delta.y() * 0.4));
  } else if (event->buttons() & (Qt::RightButton | Qt::MiddleButton)) {
    m_camera.pan(float(delta.x() / std::max(1.0, height())), float(delta.y() / std::max(1.0, height())));
  }
  emit viewChanged();
  requestFrame();
  event->accept();
}

void RigViewportItem::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  m_camera.dolly(float(std::pow(0.9, steps)));
  requestFrame();
  event->accept();
}

}  // namespace riglens::app
