// CharacterController: the QObject the character panels talk to while a
// splat character (bundle / .aosrig) or a splat scene (.ply) is open. Holds
// the controls the viewport turns into a render::CharacterFrame each frame:
// expression channels (GNM coefficients by region, or ARKit-52 through the
// space's ARKit map), gaze and look-at, joint overrides, the look (tint,
// sigma, opacity). The viewport reports back what the GPU holds (memory) and
// whether it can draw characters at all (renderError). GUI thread.
#pragma once

#include <QtCore/QObject>
#include <QtCore/QStringList>
#include <QtCore/QVariant>
#include <QtCore/QVariantList>
#include <QtCore/QVariantMap>
#include <glm/vec3.hpp>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <vector>

#include "orl_channels.h"
#include "qml_owned.h"
#include "reporting_controller.h"
#include "riglens/core/character/body_pose.h"
#include "riglens/core/character/character_scene.h"
#include "riglens/core/decoded/decoded_character.h"
#include "riglens/render/character/character_renderer.h"

namespace riglens::app {

class DecodeWorker;
class ExpressionChannelModel;

class CharacterController : public ReportingController {
  Q_OBJECT
  RIGLENS_QML_OWNED_BY_CONTROLLER
  Q_PROPERTY(bool active READ active NOTIFY sceneChanged)
  Q_PROPERTY(QString kind READ kind NOTIFY sceneChanged)  // "character", "splats" or ""
  Q_PROPERTY(QVariantMap info READ info NOTIFY sceneChanged)
  Q_PROPERTY(QObject* channels READ channels CONSTANT)
  // "gnm" or "arkit" (GNM); "gui", "raw" or "arkit" (ORL)
  Q_PROPERTY(QString channelMode READ channelMode NOTIFY channelModeChanged)
  Q_PROPERTY(QString rigBackend READ rigBackend NOTIFY sceneChanged)  // "gnm", "orl", or empty
  // A splat scene's up axis in its own coordinates, "+y" or "-y" (core::SplatUp); "" otherwise.
  Q_PROPERTY(QString splatUp READ splatUp NOTIFY splatUpChanged)
  Q_PROPERTY(bool arkitAvailable READ arkitAvailable NOTIFY sceneChanged)
  Q_PROPERTY(QString refusal READ refusal NOTIFY refusalChanged)
  Q_PROPERTY(QString filter READ filter WRITE setFilter NOTIFY filterChanged)
  Q_PROPERTY(QStringList tints READ tints CONSTANT)
  Q_PROPERTY(QString tint READ tint WRITE setTint NOTIFY lookChanged)
  Q_PROPERTY(double sigma READ sigma WRITE setSigma NOTIFY lookChanged)
  Q_PROPERTY(double opacity READ opacity WRITE setOpacity NOTIFY lookChanged)
  Q_PROPERTY(QVariantList gaze READ gaze NOTIFY controlsChanged)  // radians: pitch L, yaw L, pitch R, yaw R
  Q_PROPERTY(QStringList jointNames READ jointNames NOTIFY sceneChanged)
  Q_PROPERTY(QVariantMap memoryReport READ memoryReport NOTIFY memoryChanged)
  // An ORL character: the DNA's tables on the CPU, [{name, rows, columns, values, bytes}].
  Q_PROPERTY(QVariantList dnaMatrices READ dnaMatrices NOTIFY sceneChanged)
  // The newest drawn frame: {available, why, passes: [{pass, ms}], totalMs, cpuMs,
  // splats, raster ("compute"/"quads"/"cpu"), tileKeys} (GPU times on Vulkan only).
  Q_PROPERTY(QVariantMap frameReport READ frameReport NOTIFY frameReportChanged)
  Q_PROPERTY(QString renderError READ renderError NOTIFY renderErrorChanged)
  // Why renderError is set, as a fact rather than words: the device has no
  // compute shaders (voxel rigs still draw; characters need a Vulkan or
  // OpenGL 4.3 device).
  Q_PROPERTY(bool computeMissing READ computeMissing NOTIFY renderErrorChanged)
  // A bundle with decoders: the decoded character (default) or the debug
  // preview. decodedAvailable once its decoders are open on the worker.
  Q_PROPERTY(bool decodedAvailable READ decodedAvailable NOTIFY decodedChanged)
  Q_PROPERTY(bool showDecoded READ showDecoded WRITE setShowDecoded NOTIFY decodedChanged)
  // {pass, totalMs, trunkMs, geomMs, apprMs, trunkRuns, geomRuns, apprRuns,
  // decodes, decoderBytes, branches: [{name, slots}]} of the latest decode.
  Q_PROPERTY(QVariantMap decodeStats READ decodeStats NOTIFY decodeStatsChanged)
  Q_PROPERTY(QString decodeError READ decodeError NOTIFY decodedChanged)

 public:
  static constexpr double kMaxGazeRadians = 0.7;  // about 40 degrees: past it the eyelids no longer follow

  explicit CharacterController(QObject* parent);
  ~CharacterController() override;

  bool active() const { return m_scene != nullptr; }
  QString kind() const;
  QVariantMap info() const;
  QObject* channels() const;
  QString channelMode() const;
  QString rigBackend() const;
  bool arkitAvailable() const;
  QString refusal() const { return m_refusal; }
  QString filter() const { return m_filter; }
  void setFilter(const QString& filter);
  QStringList tints() const;
  QString tint() const;
  void setTint(const QString& tint);
  double sigma() const { return m_look.sigma; }
  void setSigma(double sigma);
  double opacity() const { return m_look.opacity; }
  void setOpacity(double opacity);
  QVariantList gaze() const;
  QStringList jointNames() const;
  QVariantMap memoryReport() const { return m_memory; }
  QVariantMap frameReport() const { return m_frameReport; }
  QString renderError() const { return m_renderError; }
  bool computeMissing() const { return m_computeMissing; }
  bool decodedAvailable() const;
  bool showDecoded() const { return m_showDecoded; }
  void setShowDecoded(bool show);
  QVariantMap decodeStats() const { return m_decodeStats; }
  QString decodeError() const { return m_decodeError; }
  // For the viewport: the decoded layout and the latest finished decode
  // (null until there is one), what the camera frames in the current mode,
  // and the camera the appearance decoders should see (sync(), queued to here).
  std::shared_ptr<const render::DecodedLayout> decodedLayout() const;
  std::shared_ptr<const core::DecodedOutputs> decodedOutputs() const;
  core::Bounds viewBounds() const;
  bool decodable() const;   // the open bundle has decoders that did not fail
  bool decodeBusy() const;  // a decode for the current controls or camera has not come back yet
  void setViewCamera(const core::PluckerCamera& camera);

  // "gnm" or "arkit" (GNM), "gui", "raw" or "arkit" (ORL). ARKit on a GNM
  // space without an ARKit map is refused and `refusal` says why (the
  // core's reason); the channels stay as they were.
  Q_INVOKABLE bool setChannelMode(const QString& mode);
  Q_INVOKABLE void setChannel(int channel, double value);  // `channel`: the model's channel role
  Q_INVOKABLE double channelValue(int channel) const;
  Q_INVOKABLE int findChannel(const QString& name) const;  // -1 when absent
  Q_INVOKABLE void resetChannels();
  Q_INVOKABLE void setGaze(int component, double radians);  // 0..3, clamped to kMaxGazeRadians
  // Both eyes at a head-space point (metres, the pack's frame: +Z forward, +Y up).
  Q_INVOKABLE void lookAt(double x, double y, double z);
  Q_INVOKABLE void resetGaze();
  // Degrees about the joint's local x, y, z on top of its rest rotation.
  Q_INVOKABLE void setJointRotation(const QString& joint, double pitchDeg, double yawDeg, double rollDeg);
  Q_INVOKABLE QVariantList jointRotation(const QString& joint) const;
  Q_INVOKABLE void resetJoints();
  // ORL: a joint's live outputs (translation, rotation, scale deltas) as text; empty otherwise.
  Q_INVOKABLE QString jointOutputText(const QString& joint) const;
  QVariantList dnaMatrices() const;
  Q_INVOKABLE void clearRefusal();
  // Turns a splat scene over (+y <-> -y) and remembers the choice for its
  // file (QSettings): opened again, it stands as it was left.
  Q_INVOKABLE void flipSplatUp();
  QString splatUp() const;
  // The scene's coordinates to the world's: a splat scene's up as flipped
  // (core::splatToWorld); the identity for a character.
  glm::mat4 sceneToWorld() const;

  // nullptr closes it. `reload`: the same file read again (File > Reload, a
  // live reload), which keeps what the user set that still exists: the
  // expression by channel name, the gaze, the channel modes, the joints' and
  // the body pose's overrides, the hidden branches and the up axis (so the
  // viewport keeps its camera too).
  void setScene(std::shared_ptr<const core::CharacterScene> scene, bool reload = false);
  // The pack's controls as the frame carries them, and the inverse: a
  // head_ext (e.g. read from a controls JSON) put back on the sliders — the
  // GNM channels and the gaze, values kept as given (not clamped to the
  // sliders' range), so a saved face comes back exactly. Switches to GNM
  // mode: a head_ext cannot be turned back into ARKit weights.
  const std::vector<float>& headExt() const { return m_headExt; }
  core::Expected<void> applyHeadExt(std::span<const float> headExt);
  // The controls as {name: value} JSON (what `riglens-cli render --controls`
  // reads), and back. Errors are reported (errorReported).
  Q_INVOKABLE bool saveControls(const QVariant& location);
  Q_INVOKABLE bool loadControls(const QVariant& location);
  // A body pose JSON (core::BodyPose): its bones become joint overrides under
  // the Head joints panel's rotations, its rootPos moves the character. A
  // broken file is refused naming it and keeps the pose that was loaded.
  Q_INVOKABLE bool loadBodyPose(const QVariant& location);
  Q_INVOKABLE void clearBodyPose();
  // Per-branch visibility of the decoded character.
  Q_INVOKABLE void setBranchVisible(const QString& branch, bool visible);
  Q_INVOKABLE bool branchVisible(const QString& branch) const;
  const core::BodyPose& bodyPose() const { return m_bodyPose; }
  const std::shared_ptr<const core::CharacterScene>& scene() const { return m_scene; }
  render::CharacterFrame frame() const;  // the current controls, for the viewport
  // From the viewport, with the news of a frame that drew the open scene.
  void setRenderReport(const QVariantMap& memory, const QString& error, bool computeMissing);

 signals:
  void splatUpChanged();
  void sceneChanged();
  void channelModeChanged();
  void refusalChanged();
  void filterChanged();
  void lookChanged();
  void controlsChanged();  // channels, gaze or joints: the face moves
  void memoryChanged();
  void frameReportChanged();
  void renderErrorChanged();
  void decodedChanged();  // decoders opened/closed/failed, or the decoded/preview switch
  void decodedFrame();    // a decode finished: the viewport lifts it
  void decodeStatsChanged();

 private:
  // The JSON file a Load… action reads; none, with the error reported, when
  // no character is open or the file cannot be read as JSON.
  std::optional<nlohmann::json> readCharacterJson(const QString& path, const QString& action);
  void rebuildChannels();
  bool loadOrlControls(const nlohmann::json& doc, const QString& path);
  void setRefusal(const QString& refusal);
  struct Carried;
  Carried carried() const;
  void restore(const Carried& carried);
  void recompute();  // channel values -> head_ext
  void requestDecode();
  void decodeOpened(const core::Diagnostics& notes);
  void decodeFinished();

  std::shared_ptr<const core::CharacterScene> m_scene;
  core::SplatUp m_splatUp = core::SplatUp::PlusY;
  ExpressionChannelModel* m_channels;
  bool m_arkitMode = false;
  OrlChannelMode m_orlMode = OrlChannelMode::Gui;  // an ORL character's channels
  std::unique_ptr<core::OrlPoser> m_orlPoser;      // the DNA evaluated here too, for the joints panel
  std::vector<float> m_values;                     // per channel of the current mode
  std::vector<int> m_channelSlot;                  // GNM mode: head_ext index per channel
  std::vector<float> m_headExt;  // what the frame carries: the GNM head_ext, or the ORL GUI/raw controls
  // An ORL bundle with decoders: the rig vector in the bundle's control order
  // (what its decoders take), carried from the DNA values by m_bundleRig.
  std::unique_ptr<core::OrlBundleRig> m_bundleRig;
  std::vector<float> m_decodeRig;
  std::array<float, 4> m_gaze{};
  std::map<QString, glm::vec3> m_jointDegrees;
  render::CharacterLook m_look;
  QString m_refusal, m_filter, m_renderError;
  bool m_computeMissing = false;
  QVariantMap m_memory;
  QVariantMap m_frameReport;
  DecodeWorker* m_decode;
  bool m_showDecoded = true;
  std::optional<core::PluckerCamera> m_camera;  // the viewport's, once it drew
  QVariantMap m_decodeStats;
  core::BodyPose m_bodyPose;
  std::vector<std::string> m_hiddenBranches;
  QString m_decodeError;
};

}  // namespace riglens::app
