// SceneViewportItem: the 3D viewport of whatever the document is - a voxel
// rig, a splat character or a splat scene. The item lives on the GUI thread
// and only copies a plain snapshot in sync(); a SceneSceneViewportRenderer on Qt
// Quick's render thread owns the engine renderer and draws under the QML
// scene through Quick's own QRhi (beforeRendering / beforeRenderPassRecording),
// as Qt's rhiunderqml example does. Mouse: left-drag orbits, right/middle-drag
// pans, the wheel dollies; frameAll() refits the camera.
#pragma once

#include <QtQml/qqmlregistration.h>

#include <QtGui/QColor>
#include <QtQuick/QQuickItem>
#include <memory>
#include <optional>

#include "riglens/core/decoded/plucker.h"
#include "riglens/core/view/orbit_camera.h"
#include "riglens/render/device/frame_state.h"

namespace riglens::app {

class AppController;
class CharacterController;
class SceneViewportRenderer;
struct ViewportFrameNews;

class SceneViewportItem : public QQuickItem {
  Q_OBJECT
  QML_NAMED_ELEMENT(SceneViewport)
  Q_PROPERTY(QObject* controller READ controllerObject WRITE setControllerObject NOTIFY controllerChanged)
  Q_PROPERTY(QString tint READ tint WRITE setTint NOTIFY viewChanged)
  Q_PROPERTY(int highlightPart READ highlightPart WRITE setHighlightPart NOTIFY viewChanged)
  Q_PROPERTY(bool showGrid READ showGrid WRITE setShowGrid NOTIFY viewChanged)
  Q_PROPERTY(bool showAxes READ showAxes WRITE setShowAxes NOTIFY viewChanged)
  // Models: "review" (the base colour under a key and a fill; the tints) or
  // "pbr" (glTF's metallic-roughness, the file's lights); the PBR look's tone
  // map ("neutral", "aces", "none") and exposure in stops.
  Q_PROPERTY(QString look READ look WRITE setLook NOTIFY viewChanged)
  Q_PROPERTY(QString toneMap READ toneMap WRITE setToneMap NOTIFY viewChanged)
  Q_PROPERTY(double exposure READ exposure WRITE setExposure NOTIFY viewChanged)
  // The PBR look's environment light: its name ("studio", made
  // procedurally, or the file's), its turn about the up axis in degrees, and
  // whether it is drawn behind the model.
  Q_PROPERTY(QString environment READ environment NOTIFY viewChanged)
  Q_PROPERTY(double environmentRotation READ environmentRotation WRITE setEnvironmentRotation NOTIFY viewChanged)
  Q_PROPERTY(bool environmentBackground READ environmentBackground WRITE setEnvironmentBackground NOTIFY viewChanged)
  // On (the interactive viewer): the look's settings above are restored from
  // the user's settings now and saved there as they change.
  Q_PROPERTY(bool remembersView READ remembersView WRITE setRemembersView)
  // The glTF camera the view looks through ("" : the orbit camera). Orbiting,
  // panning or zooming goes back to the orbit.
  Q_PROPERTY(QString fileCamera READ fileCamera WRITE setFileCamera NOTIFY viewChanged)
  Q_PROPERTY(double yaw READ yaw WRITE setYaw NOTIFY viewChanged)
  Q_PROPERTY(double pitch READ pitch WRITE setPitch NOTIFY viewChanged)
  Q_PROPERTY(qint64 gpuBytes READ gpuBytes NOTIFY gpuBytesChanged)
  Q_PROPERTY(int framesRendered READ framesRendered NOTIFY framesRenderedChanged)
  // A large model goes to the GPU over several frames; until then the view
  // draws none of it (--screenshot waits it out).
  Q_PROPERTY(bool uploading READ uploading NOTIFY uploadingChanged)
  // The open document is on screen whole: loaded, decoded, lifted, uploaded
  // and drawn, its panels' figures final (waitingFor() says what is not yet).
  // --screenshot and the tests wait for it.
  Q_PROPERTY(bool shown READ shown NOTIFY shownChanged)
  // Empty while the engine can draw; otherwise why it cannot (no QRhi: Qt
  // Quick fell back to its software renderer).
  Q_PROPERTY(QString renderError READ renderError NOTIFY renderErrorChanged)
  // Socket markers of the current frame: [{name, x, y}] in item coordinates.
  Q_PROPERTY(QVariantList sockets READ sockets NOTIFY socketsChanged)
  // The engine's background (render::kViewportBackground): the window clears to it.
  Q_PROPERTY(QColor background READ background CONSTANT)

 public:
  explicit SceneViewportItem(QQuickItem* parent = nullptr);
  ~SceneViewportItem() override;

  QObject* controllerObject() const;
  void setControllerObject(QObject* controller);
  QString tint() const { return m_tint; }
  void setTint(const QString& tint);
  int highlightPart() const { return m_highlightPart; }
  void setHighlightPart(int part);
  bool showGrid() const { return m_showGrid; }
  void setShowGrid(bool show);
  bool showAxes() const { return m_showAxes; }
  void setShowAxes(bool show);
  QString look() const { return m_look; }
  void setLook(const QString& look);
  QString toneMap() const { return m_toneMap; }
  void setToneMap(const QString& toneMap);
  double exposure() const { return m_exposure; }
  void setExposure(double stops);
  QString fileCamera() const { return m_fileCamera; }
  void setFileCamera(const QString& name) { changeView(m_fileCamera, name); }
  QString environment() const;
  double environmentRotation() const { return m_environmentRotation; }
  void setEnvironmentRotation(double degrees);
  bool environmentBackground() const { return m_environmentBackground; }
  void setEnvironmentBackground(bool shown);
  bool remembersView() const { return m_remembersView; }
  void setRemembersView(bool remember);
  // Lights the PBR look with an .hdr or .exr (an empty location or
  // "studio": the studio). Returns {ok, message}: what lights it now and any
  // warning, or why the file was refused (the light stays as it was).
  Q_INVOKABLE QVariantMap loadEnvironment(const QVariant& location);
  double yaw() const { return m_camera.yawDeg(); }
  void setYaw(double deg);
  double pitch() const { return m_camera.pitchDeg(); }
  void setPitch(double deg);
  qint64 gpuBytes() const { return m_gpuBytes; }
  int framesRendered() const { return m_framesRendered; }
  bool uploading() const { return m_uploading; }
  bool shown() const { return m_shown; }
  Q_INVOKABLE QString waitingFor() const;
  QString renderError() const { return m_renderError; }
  QVariantList sockets() const { return m_sockets; }
  QColor background() const;

  Q_INVOKABLE void frameAll();

 signals:
  void controllerChanged();
  void viewChanged();
  void gpuBytesChanged();
  void framesRenderedChanged();
  void uploadingChanged();
  void shownChanged();
  void renderErrorChanged();
  void socketsChanged();

 protected:
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void releaseResources() override;

 private:
  void handleWindowChanged(QQuickWindow* window);
  void sync();
  void showFrameNews(const ViewportFrameNews& news);  // GUI thread
  void updateShown();
  void syncCharacter(CharacterController& character, QRect viewport);
  render::ViewSettings viewSettings() const;
  void publishSockets(const render::FrameState& state, const render::ViewSettings& view, double viewWidth);
  void syncCompare(const render::FrameState& first, const render::ViewSettings& view, QRect viewport, float aspect);
  void cleanup();
  void documentChanged();
  void requestFrame();
  // A view setting changed: stored, announced, drawn.
  template <class T>
  void changeView(T& field, const T& value) {
    if (field == value) return;
    field = value;
    emit viewChanged();
    requestFrame();
  }

  AppController* m_controller = nullptr;
  SceneViewportRenderer* m_renderer = nullptr;  // render thread; deleted there
  core::OrbitCamera m_camera;
  // The camera last handed to the character controller (sync, render thread
  // with the GUI thread blocked; reset with the document).
  std::optional<core::PluckerCamera> m_handedCamera;
  QString m_tint = QStringLiteral("color");
  int m_highlightPart = -1;
  bool m_showGrid = true;
  bool m_showAxes = true;
  QString m_look = QStringLiteral("review");
  QString m_toneMap = QStringLiteral("neutral");
  double m_exposure = 0.0;
  std::shared_ptr<const core::EnvironmentMap> m_environment;  // null: the studio
  double m_environmentRotation = 0.0;
  bool m_environmentBackground = false;
  QString m_environmentPath;  // what loadEnvironment was last given successfully ("studio")
  bool m_remembersView = false;
  void rememberLook() const;
  QString m_fileCamera;
  bool m_modelChanged = false;
  bool m_framed = false;
  QPointF m_lastMouse;
  qint64 m_gpuBytes = 0;
  int m_framesRendered = 0;
  bool m_uploading = false;
  bool m_shown = false;
  std::unique_ptr<ViewportFrameNews> m_news;  // the newest frame's
  QString m_renderError;
  QVariantList m_sockets;
};

}  // namespace riglens::app
