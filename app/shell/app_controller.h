// AppController: the QObject the QML panels talk to. Owns the open Document
// (loaded off the GUI thread), the models the panels list, playback and joint
// edits, selection and visibility, export and screenshots, the recent-files
// list (QSettings) and the last error shown in the banner. GUI thread.
#pragma once

#include <QtCore/QElapsedTimer>
#include <QtCore/QFutureWatcher>
#include <QtCore/QObject>
#include <QtCore/QStringList>
#include <QtCore/QTimer>
#include <QtCore/QUrl>
#include <QtCore/QVariantMap>

#include <memory>
#include <set>

#include "document.h"
#include "riglens/core/character/character_scene.h"
#include "riglens/core/base/expected.h"
#include "riglens/core/export/gltf_export.h"

class QQuickItem;
class QQuickWindow;

namespace riglens::app {

class PartListModel;
class JointListModel;
class AnimationListModel;
class ProblemListModel;
class CharacterController;

class AppController : public QObject {
  Q_OBJECT
  // The document
  Q_PROPERTY(QString documentTitle READ documentTitle NOTIFY documentChanged)
  Q_PROPERTY(QString documentPath READ documentPath NOTIFY documentChanged)
  Q_PROPERTY(bool hasDocument READ hasDocument NOTIFY documentChanged)
  // "rig" (a voxel run), "character" (a GNM splat character), "splats" (a .ply scene) or "".
  Q_PROPERTY(QString mode READ mode NOTIFY documentChanged)
  Q_PROPERTY(QObject* character READ character CONSTANT)
  Q_PROPERTY(bool canExport READ canExport NOTIFY documentChanged)
  Q_PROPERTY(QStringList partNames READ partNames NOTIFY documentChanged)
  Q_PROPERTY(QStringList jointNames READ jointNames NOTIFY documentChanged)
  Q_PROPERTY(QStringList animationNames READ animationNames NOTIFY documentChanged)
  // Every warning and error of the open document (and a load that failed).
  Q_PROPERTY(QObject* problems READ problems CONSTANT)
  Q_PROPERTY(qint64 triangleCount READ triangleCount NOTIFY documentChanged)
  Q_PROPERTY(QObject* parts READ parts CONSTANT)
  Q_PROPERTY(QObject* joints READ joints CONSTANT)
  Q_PROPERTY(QObject* animations READ animations CONSTANT)
  Q_PROPERTY(bool loading READ loading NOTIFY loadingChanged)
  // Memory: CPU from the run, GPU from the viewport's renderer report
  Q_PROPERTY(qint64 cpuBytes READ cpuBytes NOTIFY documentChanged)
  Q_PROPERTY(qint64 gpuBytes READ gpuBytes NOTIFY memoryChanged)
  Q_PROPERTY(QVariantMap memoryReport READ memoryReport NOTIFY memoryChanged)
  // Playback
  Q_PROPERTY(QString playingAnimation READ playingAnimation NOTIFY playbackChanged)
  Q_PROPERTY(double playTimeMs READ playTimeMs NOTIFY poseChanged)
  Q_PROPERTY(double playPeriodMs READ playPeriodMs NOTIFY playbackChanged)
  Q_PROPERTY(bool paused READ paused WRITE setPaused NOTIFY playbackChanged)
  Q_PROPERTY(bool loop READ loop WRITE setLoop NOTIFY playbackChanged)
  Q_PROPERTY(double speed READ speed WRITE setSpeed NOTIFY playbackChanged)
  Q_PROPERTY(bool autoPlayMuted READ autoPlayMuted WRITE setAutoPlayMuted NOTIFY playbackChanged)
  // Selection and visibility
  Q_PROPERTY(int selectedPart READ selectedPart WRITE selectPart NOTIFY selectionChanged)
  // The joint a problem concerns, selected from the Problems panel (the
  // Joints panel shows it); empty when none.
  Q_PROPERTY(QString selectedJoint READ selectedJoint NOTIFY selectionChanged)
  // Files and messages
  Q_PROPERTY(QStringList recentFiles READ recentFiles NOTIFY recentFilesChanged)
  Q_PROPERTY(QString lastError READ lastError NOTIFY lastErrorChanged)
  Q_PROPERTY(QString statusMessage READ statusMessage NOTIFY statusMessageChanged)
  Q_PROPERTY(bool exporting READ exporting NOTIFY exportingChanged)

 public:
  static constexpr int kMaxRecentFiles = 10;
  static constexpr double kFrameStepMs = 1000.0 / 30.0;

  explicit AppController(QObject* parent = nullptr);
  ~AppController() override;

  QString documentTitle() const { return m_documentTitle; }
  QString documentPath() const { return m_documentPath; }
  bool hasDocument() const;
  QString mode() const;
  QObject* character() const;
  CharacterController* characterController() const { return m_character; }
  bool canExport() const { return m_document != nullptr && !m_exporting; }
  QStringList partNames() const;
  QStringList jointNames() const;
  QStringList animationNames() const;
  qint64 triangleCount() const;
  QObject* parts() const;
  QObject* problems() const;
  ProblemListModel* problemList() const { return m_problems; }
  QObject* joints() const;
  QObject* animations() const;
  bool loading() const { return m_loading; }
  qint64 cpuBytes() const;
  qint64 gpuBytes() const { return m_memory.value("gpuBytes").toLongLong(); }
  QVariantMap memoryReport() const { return m_memory; }
  QString playingAnimation() const;
  double playTimeMs() const;
  double playPeriodMs() const;
  bool paused() const;
  void setPaused(bool paused);
  bool loop() const;
  void setLoop(bool loop);
  double speed() const;
  void setSpeed(double speed);
  bool autoPlayMuted() const;
  void setAutoPlayMuted(bool muted);
  int selectedPart() const { return m_selectedPart; }
  void selectPart(int part);
  QString selectedJoint() const { return m_selectedJoint; }
  // Selects what the Problems panel's row concerns: its part, or its joint
  // (and the joint's part). Returns false when the row concerns neither.
  Q_INVOKABLE bool selectProblem(int row);
  bool isPartVisible(int part) const { return !m_hiddenParts.count(part); }
  std::vector<bool> hiddenPartFlags() const;
  QStringList recentFiles() const { return m_recentFiles; }
  QString lastError() const { return m_lastError; }
  QString statusMessage() const { return m_statusMessage; }
  bool exporting() const { return m_exporting; }
  Document* document() { return m_document.get(); }

  // `location` is a QUrl (from dialogs and drops) or a local path string: a
  // voxel run (rig.json, run folder or record, .glb), a splat character
  // (bundle folder, .aosrig) or a .ply scene. Loads off the GUI thread; the
  // current model stays until the new one is ready, and stays if it fails
  // (lastError says why).
  Q_INVOKABLE void open(const QVariant& location);
  Q_INVOKABLE void openDefault();  // the bundled sample, generated once into the cache folder
  void waitForLoad();              // blocks until no load runs (--screenshot, tests)

  // Joints
  Q_INVOKABLE bool setJointValue(const QString& joint, double value);
  Q_INVOKABLE void resetJoint(const QString& joint);
  Q_INVOKABLE void resetAllJoints();
  Q_INVOKABLE double jointValue(const QString& joint) const;

  // Playback
  Q_INVOKABLE bool play(const QString& animation);  // from 0
  Q_INVOKABLE void stop();
  Q_INVOKABLE void togglePause();
  Q_INVOKABLE void seek(double timeMs);
  Q_INVOKABLE void stepFrame(int direction);  // +1 / -1 frame at 30 fps, pauses

  // Parts
  Q_INVOKABLE void setPartVisible(int part, bool visible);

  // Export (off the GUI thread) and screenshots
  Q_INVOKABLE void exportGlb(const QVariant& location, bool cubic = false, double tolerance = 1e-4);
  void waitForExport();
  Q_INVOKABLE bool saveScreenshot(QQuickWindow* window, const QVariant& location);
  Q_INVOKABLE bool saveViewportScreenshot(QQuickItem* viewport, const QVariant& location);

  // The open character's controls as {name: value} JSON (what `riglens-cli
  // render --controls` reads), and back. Errors go to the banner.
  Q_INVOKABLE bool saveCharacterControls(const QVariant& location);
  Q_INVOKABLE bool loadCharacterControls(const QVariant& location);

  Q_INVOKABLE void clearRecentFiles();
  Q_INVOKABLE void clearError();
  Q_INVOKABLE QString formatBytes(qint64 bytes) const;

  void setMemoryReport(const QVariantMap& report);  // from the viewport, on sync
  static QString toLocalPath(const QVariant& location);

 signals:
  void documentChanged();
  void recentFilesChanged();
  void lastErrorChanged();
  void loadingChanged();
  void poseChanged();       // joint values / part worlds changed
  void playbackChanged();
  void selectionChanged();  // selection or visibility
  void memoryChanged();
  void statusMessageChanged();
  void exportingChanged();
  void exportFinished(bool ok, const QString& message);

 private:
  void setError(const QString& message);
  void setStatus(const QString& message);
  void rememberRecent(const QString& path);
  // The end of a load: false (the error shown, the open model kept) when it failed.
  bool concludeLoad(const core::Error* error);
  void finishLoad();
  void finishCharacterLoad();
  void opened(const QString& path, const QString& title);
  void finishExport();
  void tick();
  void posed();

  std::unique_ptr<Document> m_document;
  PartListModel* m_parts;
  JointListModel* m_joints;
  AnimationListModel* m_animations;
  ProblemListModel* m_problems;
  CharacterController* m_character;
  QFutureWatcher<core::Expected<core::LoadedRun>> m_load;
  QFutureWatcher<core::Expected<core::CharacterScene>> m_characterLoad;
  QFutureWatcher<core::Expected<core::ExportReport>> m_export;
  QString m_loadingPath;
  bool m_loading = false;
  bool m_loadingCharacter = false;  // which watcher the running load uses
  bool m_exporting = false;
  QVariantMap m_memory;
  QTimer m_clock;
  QElapsedTimer m_sinceTick;
  int m_selectedPart = -1;
  QString m_selectedJoint;
  std::set<int> m_hiddenParts;
  QString m_documentPath;
  QString m_documentTitle;
  QStringList m_recentFiles;
  QString m_lastError;
  QString m_statusMessage;
};

}  // namespace riglens::app
