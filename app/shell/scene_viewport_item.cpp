#include "scene_viewport_item.h"

#include <QtCore/QFileInfo>
#include <QtCore/QPointer>
#include <QtCore/QRunnable>
#include <QtCore/QSettings>
#include <QtGui/QCursor>
#include <QtGui/QMouseEvent>
#include <QtGui/QWheelEvent>
#include <QtQuick/QQuickWindow>
#include <QtQuick/QSGRendererInterface>
#include <algorithm>
#include <cmath>

#include "app_controller.h"
#include "character_controller.h"
#include "compare_controller.h"
#include "environment_cache.h"
#include "locations.h"
#include "riglens/core/decoded/plucker.h"
#include "riglens/core/gltf/gltf_camera.h"
#include "riglens/core/rig/scene_bounds.h"
#include "riglens/render/rig/frame_builder.h"
#include "scene_viewport_renderer.h"

namespace riglens::app {

namespace {

class CleanupJob : public QRunnable {
 public:
  explicit CleanupJob(SceneViewportRenderer* renderer) : m_renderer(renderer) {}
  void run() override { delete m_renderer; }

 private:
  SceneViewportRenderer* m_renderer;
};

}  // namespace

SceneViewportItem::SceneViewportItem(QQuickItem* parent) : QQuickItem(parent) {
  setAcceptedMouseButtons(Qt::LeftButton | Qt::RightButton | Qt::MiddleButton);
  setFlag(ItemAcceptsInputMethod, false);
  connect(this, &QQuickItem::windowChanged, this, &SceneViewportItem::handleWindowChanged);
  connect(this, &QQuickItem::widthChanged, this, &SceneViewportItem::requestFrame);
  connect(this, &QQuickItem::heightChanged, this, &SceneViewportItem::requestFrame);
}

SceneViewportItem::~SceneViewportItem() = default;

QColor SceneViewportItem::background() const {
  const glm::vec4& c = render::kViewportBackground;
  return QColor::fromRgbF(c.r, c.g, c.b, c.a);
}

QObject* SceneViewportItem::controllerObject() const {
  return m_controller;
}

void SceneViewportItem::setControllerObject(QObject* object) {
  auto* controller = qobject_cast<AppController*>(object);
  if (controller == m_controller) return;
  if (m_controller) disconnect(m_controller, nullptr, this, nullptr);
  m_controller = controller;
  if (m_controller) {
    connect(m_controller, &AppController::documentChanged, this, &SceneViewportItem::documentChanged);
    connect(m_controller, &AppController::poseChanged, this, &SceneViewportItem::requestFrame);
    connect(m_controller, &AppController::selectionChanged, this, &SceneViewportItem::requestFrame);
    CharacterController* character = m_controller->characterController();
    connect(character, &CharacterController::controlsChanged, this, &SceneViewportItem::requestFrame);
    connect(character, &CharacterController::lookChanged, this, &SceneViewportItem::requestFrame);
    connect(character, &CharacterController::decodedFrame, this, &SceneViewportItem::requestFrame);
    connect(character, &CharacterController::decodedFrame, this, &SceneViewportItem::updateShown);
    connect(m_controller, &AppController::loadingChanged, this, &SceneViewportItem::updateShown);
    // Comparing: B follows A's pose (viewChanged); opening, closing or
    // switching between side by side and overlay frames both again.
    CompareController* compare = m_controller->compare();
    connect(compare, &CompareController::viewChanged, this, &SceneViewportItem::requestFrame);
    connect(compare, &CompareController::loadingChanged, this, &SceneViewportItem::updateShown);
    for (auto signal : {&CompareController::compareChanged, &CompareController::modeChanged})
      connect(compare, signal, this, [this] {
        m_framed = false;
        updateShown();
        requestFrame();
      });
    // The decoded character and the preview sit in different frames (the
    // bundle's world vs the fitted rest pose): switching reframes.
    connect(character, &CharacterController::decodedChanged, this, [this, character] {
      if (!character->active()) return;  // a run replacing the character frames itself (documentChanged)
      m_framed = false;
      updateShown();
      requestFrame();
    });
    // A splat scene turned over is framed again where it now stands.
    connect(character, &CharacterController::splatUpChanged, this, [this, character] {
      if (character->active()) frameAll();
    });
  }
  documentChanged();
  emit controllerChanged();
}

void SceneViewportItem::documentChanged() {
  updateShown();
  m_modelChanged = true;
  // The same document read again (live reload) keeps the view the user had.
  if (!m_controller || !m_controller->documentReloaded()) {
    setFileCamera({});
    m_framed = false;
    m_handedCamera.reset();  // a new character has seen no camera yet
  }
  requestFrame();
}

void SceneViewportItem::setTint(const QString& tint) {
  core::TintMode mode;
  if (!core::parseTintMode(tint.toStdString(), &mode)) return;
  changeView(m_tint, tint);
}

void SceneViewportItem::setLook(const QString& look) {
  core::Look parsed;
  if (core::parseLook(look.toStdString(), &parsed)) changeView(m_look, look);
  rememberLook();
}
void SceneViewportItem::setToneMap(const QString& toneMap) {
  core::ToneMap parsed;
  if (core::parseToneMap(toneMap.toStdString(), &parsed)) changeView(m_toneMap, toneMap);
  rememberLook();
}
void SceneViewportItem::setExposure(double stops) {
  if (std::isfinite(stops))
    changeView(m_exposure, std::clamp(stops, -core::kMaxExposureStops, core::kMaxExposureStops));
  rememberLook();
}

namespace {
const QString kLookKey = QStringLiteral("view/look"), kToneMapKey = QStringLiteral("view/toneMap"),
              kExposureKey = QStringLiteral("view/exposure"), kEnvironmentKey = QStringLiteral("view/environment"),
              kRotationKey = QStringLiteral("view/environmentRotation"),
              kBackgroundKey = QStringLiteral("view/environmentBackground");
}  // namespace

void SceneViewportItem::setRemembersView(bool remember) {
  m_remembersView = false;  // restoring must not write back half-restored settings
  if (remember) {
    const QSettings settings;
    setLook(settings.value(kLookKey, m_look).toString());
    setToneMap(settings.value(kToneMapKey, m_toneMap).toString());
    setExposure(settings.value(kExposureKey, m_exposure).toDouble());
    setEnvironmentRotation(settings.value(kRotationKey, m_environmentRotation).toDouble());
    setEnvironmentBackground(settings.value(kBackgroundKey, m_environmentBackground).toBool());
    // A remembered map that is gone or broken: the studio, silently.
    loadEnvironment(settings.value(kEnvironmentKey, QStringLiteral("studio")));
  }
  m_remembersView = remember;
}

void SceneViewportItem::rememberLook() const {
  if (!m_remembersView) return;
  QSettings settings;
  settings.setValue(kLookKey, m_look);
  settings.setValue(kToneMapKey, m_toneMap);
  settings.setValue(kExposureKey, m_exposure);
  settings.setValue(kEnvironmentKey, m_environmentPath.isEmpty() ? QStringLiteral("studio") : m_environmentPath);
  settings.setValue(kRotationKey, m_environmentRotation);
  settings.setValue(kBackgroundKey, m_environmentBackground);
}

QString SceneViewportItem::environment() const {
  return m_environment ? QString::fromStdString(m_environment->name) : QStringLiteral("studio");
}

void SceneViewportItem::setEnvironmentRotation(double degrees) {
  if (std::isfinite(degrees)) changeView(m_environmentRotation, std::remainder(degrees, 360.0));
  rememberLook();
}

void SceneViewportItem::setEnvironmentBackground(bool shown) {
  changeView(m_environmentBackground, shown);
  rememberLook();
}

QVariantMap SceneViewportItem::loadEnvironment(const QVariant& location) {
  const QString path = localPath(location);
  if (path.isEmpty() || path == QStringLiteral("studio")) {
    changeView(m_environment, std::shared_ptr<const core::EnvironmentMap>());
    m_environmentPath = QStringLiteral("studio");
    rememberLook();
    return {{"ok", true}, {"message", tr("Lit by the studio environment")}};
  }
  auto map = cachedEnvironment(path);
  if (!map) return {{"ok", false}, {"message", QString::fromStdString(map.error().message)}};
  changeView(m_environment, std::move(map).value());
  m_environmentPath = QFileInfo(path).absoluteFilePath();
  rememberLook();
  QString message = tr("Lit by %1").arg(environment());
  for (const std::string& warning : m_environment->warnings)
    message += QStringLiteral("; ") + QString::fromStdString(warning);
  return {{"ok", true}, {"message", message}};
}

void SceneViewportItem::setHighlightPart(int part) {
  changeView(m_highlightPart, part);
}
void SceneViewportItem::setShowGrid(bool show) {
  changeView(m_showGrid, show);
}
void SceneViewportItem::setShowAxes(bool show) {
  changeView(m_showAxes, show);
}

void SceneViewportItem::setYaw(double deg) {
  m_camera.setAngles(float(deg), m_camera.pitchDeg());
  emit viewChanged();
  requestFrame();
}

void SceneViewportItem::setPitch(double deg) {
  m_camera.setAngles(m_camera.yawDeg(), float(deg));
  emit viewChanged();
  requestFrame();
}

void SceneViewportItem::frameAll() {
  m_framed = false;
  requestFrame();
}

void SceneViewportItem::requestFrame() {
  if (window()) window()->update();
}

void SceneViewportItem::handleWindowChanged(QQuickWindow* window) {
  if (!window) return;
  connect(window, &QQuickWindow::beforeSynchronizing, this, &SceneViewportItem::sync, Qt::DirectConnection);
  connect(window, &QQuickWindow::sceneGraphInvalidated, this, &SceneViewportItem::cleanup, Qt::DirectConnection);
  // The engine draws first; QML panels draw over it. Quick must not clear over
  // the viewport after we drew: it clears before beforeRenderPassRecording.
}

// GUI thread blocked, render thread running: the only place state crosses.
void SceneViewportItem::sync() {
  QQuickWindow* win = window();
  if (!m_renderer) {
    m_renderer = new SceneViewportRenderer(win);
    connect(win, &QQuickWindow::beforeRendering, m_renderer, &SceneViewportRenderer::prepare, Qt::DirectConnection);
    connect(win, &QQuickWindow::beforeRenderPassRecording, m_renderer, &SceneViewportRenderer::record,
            Qt::DirectConnection);
    connect(win, &QQuickWindow::afterRendering, m_renderer, &SceneViewportRenderer::finish, Qt::DirectConnection);
    // Posted to the window, which outlives its render thread's frames; the
    // item may be gone by the time it arrives (the GUI thread runs freely
    // while the render thread draws).
    m_renderer->setNewsSink([win, item = QPointer<SceneViewportItem>(this)](const ViewportFrameNews& news) {
      QMetaObject::invokeMethod(
          win,
          [item, news] {
            if (item) item->showFrameNews(news);
          },
          Qt::QueuedConnection);
    });
    m_modelChanged = true;
  }
  Document* doc = m_controller ? m_controller->document() : nullptr;
  CharacterController* character = m_controller ? m_controller->characterController() : nullptr;
  const qreal dpr = win->effectiveDevicePixelRatio();
  const QPointF topLeft = mapToScene(QPointF(0, 0)) * dpr;
  const QRect viewport(topLeft.toPoint(), (size() * dpr).toSize());
  if (!doc || (character && character->active())) m_renderer->setCompare(nullptr, std::nullopt);
  if (character && character->active()) {
    syncCharacter(*character, viewport);
    return;
  }
  if (!doc) {
    m_renderer->setSnapshot(nullptr, nullptr, m_modelChanged, {}, {}, viewport);
    m_modelChanged = false;
    return;
  }
  doc->controller().evaluate();  // (done already when notifyPosed ran since the last change)
  const auto& worlds = doc->controller().partWorlds();
  const core::GltfPose* gltfPose = doc->controller().gltfPose();
  // Side by side, A takes the left half and B the right, under one camera.
  const CompareController* compare = m_controller->compare();
  const bool sideBySide = compare->active() && !compare->overlay();
  const QRect first = sideBySide ? QRect(viewport.topLeft(), QSize(viewport.width() / 2, viewport.height())) : viewport;
  const float aspect = first.height() > 0 ? float(first.width()) / float(first.height()) : 1.0f;
  if (!m_framed && width() > 0 && height() > 0) {
    core::Bounds bounds = core::posedBounds(*doc->run(), worlds, gltfPose);
    if (const Document* other = compare->other()) {
      const core::Bounds second =
          core::posedBounds(*other->run(), other->controller().partWorlds(), other->controller().gltfPose());
      if (!second.empty) bounds.include(second.min), bounds.include(second.max);
    }
    m_camera.frame(bounds, aspect);
    m_framed = true;
  }
  const render::ViewSettings view = viewSettings();
  render::FrameState state = render::buildFrameState(*doc->run(), worlds, m_camera, aspect, view, gltfPose);
  if (const core::GltfCamera* camera = core::findGltfCamera(doc->run()->gltf, m_fileCamera.toStdString())) {
    const core::GltfPose rest = gltfPose ? core::GltfPose{} : core::gltfRestPose(doc->run()->gltf);
    const core::CameraView through = core::gltfCameraView(*camera, gltfPose ? *gltfPose : rest, aspect);
    state.view = through.view, state.projection = through.projection, state.eye = through.eye;
  }
  publishSockets(state, view, sideBySide ? width() / 2 : width());
  syncCompare(state, view, viewport, aspect);
  m_renderer->setSnapshot(doc->run(), nullptr, m_modelChanged, std::move(state), {}, first);
  m_modelChanged = false;
}

render::ViewSettings SceneViewportItem::viewSettings() const {
  render::ViewSettings view;
  core::parseTintMode(m_tint.toStdString(), &view.tint);
  view.highlightPart = m_highlightPart >= 0 ? m_highlightPart : m_controller->selectedPart();
  view.partHidden = m_controller->hiddenPartFlags();
  view.showGrid = m_showGrid;
  view.showAxes = m_showAxes;
  core::parseLook(m_look.toStdString(), &view.look);
  core::parseToneMap(m_toneMap.toStdString(), &view.toneMap);
  view.exposure = float(m_exposure);
  view.environment = m_environment;
  view.environmentRotation = float(m_environmentRotation);
  view.environmentBackground = m_environmentBackground;
  return view;
}

// Socket names for the QML overlay, projected into item coordinates (the
// left half's, side by side).
void SceneViewportItem::publishSockets(const render::FrameState& state, const render::ViewSettings& view,
                                       double viewWidth) {
  QVariantList sockets;
  if (view.tint == core::TintMode::Sockets) {
    const glm::mat4 viewProj = state.projection * state.view;
    for (const auto& socket : state.sockets) {
      const glm::vec4 clip = viewProj * glm::vec4(socket.position, 1.0f);
      if (clip.w <= 0) continue;
      sockets.append(QVariantMap{{"name", QString::fromStdString(socket.name)},
                                 {"x", (clip.x / clip.w * 0.5 + 0.5) * viewWidth},
                                 {"y", (0.5 - clip.y / clip.w * 0.5) * height()}});
    }
  }
  if (sockets == m_sockets) return;
  m_sockets = sockets;
  QMetaObject::invokeMethod(this, &SceneViewportItem::socketsChanged, Qt::QueuedConnection);
}

// The version compared with (CompareController): posed as A is, seen through
// A's camera; side by side in the right half with A's settings, or in the
// overlay over the whole view in its distance colours (A not drawn). Part
// selection and hidden parts are A's by index: B's parts are its own.
void SceneViewportItem::syncCompare(const render::FrameState& first, const render::ViewSettings& view, QRect viewport,
                                    float aspect) {
  const CompareController* compare = m_controller->compare();
  const Document* other = compare->other();
  if (!other) {
    m_renderer->setCompare(nullptr, std::nullopt);
    return;
  }
  render::ViewSettings settings = view;
  settings.highlightPart = -1;
  settings.partHidden.clear();
  if (compare->overlay()) settings.tint = core::TintMode::Color;
  render::FrameState state = render::buildFrameState(*other->run(), other->controller().partWorlds(), m_camera, aspect,
                                                     settings, other->controller().gltfPose());
  state.view = first.view, state.projection = first.projection, state.eye = first.eye;
  state.vertexTints = compare->tints();
  render::WindowRenderer::CompareFrame frame{std::move(state), viewport, compare->overlay()};
  if (!compare->overlay()) {
    const int half = viewport.width() / 2;
    frame.viewport = QRect(viewport.left() + half, viewport.top(), viewport.width() - half, viewport.height());
  }
  m_renderer->setCompare(other->run(), std::move(frame));
}

void SceneViewportItem::showFrameNews(const ViewportFrameNews& news) {
  m_news = std::make_unique<ViewportFrameNews>(news);
  if (m_controller)
    m_controller->setFrameReport(news.document, news.characterReport, news.report, news.failure, news.computeMissing);
  if (news.gpuBytes != m_gpuBytes) {
    m_gpuBytes = news.gpuBytes;
    emit gpuBytesChanged();
  }
  if (news.uploading != m_uploading) {
    m_uploading = news.uploading;
    emit uploadingChanged();
  }
  if (news.frames != m_framesRendered) {
    m_framesRendered = news.frames;
    emit framesRenderedChanged();
  }
  updateShown();
  if (news.unavailable && m_renderError.isEmpty()) {
    m_renderError =
        tr("3D view unavailable: Qt Quick runs without a GPU API (software renderer). "
           "Use a platform with Vulkan or OpenGL (QSG_RHI_BACKEND=vulkan or opengl).");
    emit renderErrorChanged();
  }
}

// What the view still waits for before it shows the open document whole, in
// words (empty: nothing). From the newest frame's news and the controllers:
// the load, then the frame that drew this document, its upload, for a
// character or splat scene its splats, the decode that matches the current
// view and its lift, and the frames that make the picture and the panels'
// figures final. A document that cannot be drawn (no compute, no QRhi) is
// shown once its refusal is: that is what the user sees.
QString SceneViewportItem::waitingFor() const {
  if (!m_controller || m_controller->loading()) return tr("the document to load");
  if (!m_controller->hasDocument()) return {};
  if (!m_news) return tr("the first frame");
  if (m_news->unavailable) return {};
  CharacterController* character = m_controller->characterController();
  const bool isCharacter = character->active();
  const void* document = isCharacter ? static_cast<const void*>(character->scene().get())
                                     : static_cast<const void*>(m_controller->document()->run().get());
  if (m_news->document != document) return tr("a frame of this document");
  const CompareController* compare = m_controller->compare();
  if (!isCharacter && compare->loading()) return tr("the version to compare");
  const void* compared = compare->other() && !isCharacter ? compare->other()->run().get() : nullptr;
  if (m_news->compared != compared) return tr("a frame of the compared version");
  if (isCharacter && !m_news->failure.isEmpty()) return {};
  if (m_news->uploading) return tr("the model's upload");
  if (isCharacter) {
    if (m_news->splats == 0) return tr("the splats");
    if (character->decodable() && character->showDecoded()) {
      if (character->decodeBusy()) return tr("the decoders");
      if (!m_news->decodedDrawn || m_news->decodedOutputs != character->decodedOutputs().get())
        return tr("the decoded character's lift");
    }
  }
  if (!m_news->settled) return tr("the picture to settle");
  return {};
}

void SceneViewportItem::updateShown() {
  const bool shown = waitingFor().isEmpty();
  if (shown == m_shown) return;
  m_shown = shown;
  emit shownChanged();
}

// A splat character or scene: framed once on its rest bounds; the controls
// become the frame the character passes run. What the GPU holds and whether
// it can draw characters come back with the frame's news (showFrameNews).
void SceneViewportItem::syncCharacter(CharacterController& character, QRect viewport) {
  const auto& scene = character.scene();
  const float aspect = height() > 0 ? float(width() / height()) : 1.0f;
  const glm::mat4 toWorld = character.sceneToWorld();
  if (!m_framed && width() > 0 && height() > 0) {
    m_camera.frame(character.viewBounds().transformed(toWorld), aspect);
    m_framed = true;
  }
  // The appearance decoders see this camera, handed over when it has moved
  // as far as they can tell (A11), not every frame (GUI thread: queued).
  const core::PluckerCamera plucker = core::pluckerCamera(m_camera, aspect);
  if (!m_handedCamera || core::cameraMoved(*m_handedCamera, plucker)) {
    m_handedCamera = plucker;
    QMetaObject::invokeMethod(
        &character, [c = &character, plucker] { c->setViewCamera(plucker); }, Qt::QueuedConnection);
  }
  render::FrameState state = render::cameraFrameState(m_camera, aspect);
  state.showGrid = false;  // the face floats at the origin: a ground grid would cut through it
  state.splatModel = toWorld;
  state.showAxes = m_showAxes;
  m_renderer->setSnapshot(nullptr, scene, m_modelChanged, std::move(state), character.frame(), viewport);
  m_renderer->setDecoded(character.decodedLayout(), character.decodedOutputs());
  m_modelChanged = false;
}

void SceneViewportItem::cleanup() {
  delete m_renderer;  // render thread, scene graph going away
  m_renderer = nullptr;
}

void SceneViewportItem::releaseResources() {
  if (m_renderer && window())
    window()->scheduleRenderJob(new CleanupJob(m_renderer), QQuickWindow::BeforeSynchronizingStage);
  m_renderer = nullptr;
}

void SceneViewportItem::mousePressEvent(QMouseEvent* event) {
  m_lastMouse = event->position();
  forceActiveFocus();
  event->accept();
}

void SceneViewportItem::mouseMoveEvent(QMouseEvent* event) {
  const QPointF delta = event->position() - m_lastMouse;
  m_lastMouse = event->position();
  setFileCamera({});  // moving the view leaves the file's camera for the orbit
  if (event->buttons() & Qt::LeftButton) {
    m_camera.orbit(float(-delta.x() * 0.4), float(delta.y() * 0.4));
  } else if (event->buttons() & (Qt::RightButton | Qt::MiddleButton)) {
    m_camera.pan(float(delta.x() / std::max(1.0, height())), float(delta.y() / std::max(1.0, height())));
  }
  emit viewChanged();
  requestFrame();
  event->accept();
}

void SceneViewportItem::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  setFileCamera({});
  m_camera.dolly(float(std::pow(0.9, steps)));
  requestFrame();
  event->accept();
}

}  // namespace riglens::app
