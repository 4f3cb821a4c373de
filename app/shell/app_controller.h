// AppController: the QObject the QML window talks to. Owns the open document
// (a voxel run's Document, or a character scene held by controller.character;
// loaded off the GUI thread), what the panels list of it (parts, joints,
// problems), joint edits, selection and visibility, the recent-files list
// (QSettings), the last error shown in the banner and the status line.
// Playback (controller.playback), export and screenshots (controller.exporter)
// and the character's controls (controller.character) are their own objects:
// they are handed the document and report by signal (ReportingController),
// connected here once (adopt). GUI thread.
#pragma once

#include <QtQml/qqmlregistration.h>

#include <QtCore/QFutureWatcher>
#include <QtCore/QObject>
#include <QtCore/QStringList>
#include <QtCore/QUrl>
#include <QtCore/QVariantMap>
#include <memory>
#include <optional>
#include <set>

#include "avatar_controller.h"
#include "character_controller.h"
#include "compare_controller.h"
#include "document.h"
#include "export_controller.h"
#include "playback_controller.h"
#include "problem_list_model.h"
#include "rig_models.h"
#include "riglens/core/base/expected.h"
#include "riglens/core/character/character_scene.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/watch/document_watcher.h"

namespace riglens::app {

class AppController : public QObject {
  Q_OBJECT
  QML_ELEMENT
  QML_UNCREATABLE("created by the application, given to Main.qml")
  // The document
  Q_PROPERTY(QString documentTitle READ documentTitle NOTIFY documentChanged)
  Q_PROPERTY(QString documentPath READ documentPath NOTIFY documentChanged)
  Q_PROPERTY(bool hasDocument READ hasDocument NOTIFY documentChanged)
  // What is open: QML compares it with AppController.Rig and the others.
  Q_PROPERTY(riglens::app::AppController::Mode mode READ mode NOTIFY documentChanged)
  Q_PROPERTY(riglens::app::CharacterController* character READ characterController CONSTANT)
  Q_PROPERTY(riglens::app::PlaybackController* playback READ playback CONSTANT)
  Q_PROPERTY(riglens::app::ExportController* exporter READ exporter CONSTANT)
  Q_PROPERTY(riglens::app::AvatarController* avatar READ avatar CONSTANT)
  Q_PROPERTY(riglens::app::CompareController* compare READ compare CONSTANT)
  Q_PROPERTY(QStringList partNames READ partNames NOTIFY documentChanged)
  // A glTF model's own cameras (View > Camera), by name.
  Q_PROPERTY(QStringList cameraNames READ cameraNames NOTIFY documentChanged)
  // A model opened by itself: the parts listed are its glTF nodes.
  Q_PROPERTY(bool partsAreNodes READ partsAreNodes NOTIFY documentChanged)
  Q_PROPERTY(QStringList jointNames READ jointNames NOTIFY documentChanged)
  // Every warning and error of the open document (and a load that failed).
  Q_PROPERTY(riglens::app::ProblemListModel* problems READ problemList CONSTANT)
  Q_PROPERTY(qint64 triangleCount READ triangleCount NOTIFY documentChanged)
  Q_PROPERTY(riglens::app::PartListModel* parts READ parts CONSTANT)
  Q_PROPERTY(riglens::app::JointListModel* joints READ joints CONSTANT)
  Q_PROPERTY(bool loading READ loading NOTIFY loadingChanged)
  // Live reload (File > Watch for Changes): the open document is read again
  // when its files are rewritten and the writes settle, keeping the view,
  // the joint values, clip and time, and the hidden parts. Remembered.
  Q_PROPERTY(bool watching READ watching WRITE setWatching NOTIFY watchingChanged)
  // Memory: CPU from the run, GPU from the viewport's renderer report
  Q_PROPERTY(qint64 cpuBytes READ cpuBytes NOTIFY documentChanged)
  Q_PROPERTY(qint64 gpuBytes READ gpuBytes NOTIFY memoryChanged)
  Q_PROPERTY(QVariantMap memoryReport READ memoryReport NOTIFY memoryChanged)
  // Selection and visibility
  Q_PROPERTY(int selectedPart READ selectedPart WRITE selectPart NOTIFY selectionChanged)
  // The joint a problem concerns, selected from the Problems panel (the
  // Joints panel shows it); empty when none.
  Q_PROPERTY(QString selectedJoint READ selectedJoint NOTIFY selectionChanged)
  // Files and messages
  Q_PROPERTY(QStringList recentFiles READ recentFiles NOTIFY recentFilesChanged)
  Q_PROPERTY(QString lastError READ lastError NOTIFY lastErrorChanged)
  Q_PROPERTY(QString statusMessage READ statusMessage NOTIFY statusMessageChanged)
  // The graphics API the window draws with and its device ("Vulkan on
  // llvmpipe (…)"), and why it was chosen (graphics_backend.h); set once,
  // before the window exists.
  // The file dialog's filters and what a drop may carry, from the reader table (core/open/).
  Q_PROPERTY(QStringList openNameFilters READ openNameFilters CONSTANT)
  Q_PROPERTY(QString graphics READ graphics CONSTANT)
  Q_PROPERTY(QString graphicsReason READ graphicsReason CONSTANT)

 public:
  static constexpr int kMaxRecentFiles = 10;

  explicit AppController(QObject* parent = nullptr);
  ~AppController() override;

  QString documentTitle() const { return m_documentTitle; }
  QString documentPath() const { return m_documentPath; }
  bool hasDocument() const;
  // Nothing, a rig or model (run, glTF, other formats), a splat character
  // (bundle, .aosrig, ORL pack) or a splat scene (.ply).
  enum class Mode { None, Rig, Character, Splats };
  Q_ENUM(Mode)
  Mode mode() const;
  CharacterController* characterController() const { return m_character; }
  PlaybackController* playback() const { return m_playback; }
  ExportController* exporter() const { return m_exporter; }
  AvatarController* avatar() const { return m_avatar; }
  CompareController* compare() const { return m_compare; }
  QStringList partNames() const;
  QStringList cameraNames() const;
  bool partsAreNodes() const;
  QStringList jointNames() const;
  qint64 triangleCount() const;
  PartListModel* parts() const { return m_parts; }
  ProblemListModel* problemList() const { return m_problems; }
  JointListModel* joints() const { return m_joints; }
  bool loading() const { return m_loading; }
  qint64 cpuBytes() const;
  qint64 gpuBytes() const { return m_memory.value("gpuBytes").toLongLong(); }
  QVariantMap memoryReport() const { return m_memory; }
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
  QString graphics() const { return m_graphics; }
  QString graphicsReason() const { return m_graphicsReason; }
  void setGraphics(const QString& summary, const QString& reason) {
    m_graphics = summary;
    m_graphicsReason = reason;
  }
  Document* document() const { return m_document.get(); }

  // `location` is a QUrl (from dialogs and drops) or a local path string: a
  // voxel run (rig.json, run folder or record, .glb), a splat character
  // (bundle folder, .aosrig) or a .ply scene. Loads off the GUI thread; the
  // current model stays until the new one is ready, and stays if it fails
  // (lastError says why).
  Q_INVOKABLE void open(const QVariant& location);
  // Whether a reader claims the location (a drop is accepted only then).
  Q_INVOKABLE bool canOpen(const QVariant& location) const;
  static QStringList openNameFilters();
  Q_INVOKABLE void openDefault();  // the bundled sample, generated once into the cache folder
  void waitForLoad();              // blocks until no load runs (--screenshot, tests)
  // Reads the open document again (File > Reload, and live reload): what is
  // shown stays if the new read fails (lastError says why); otherwise the
  // view, joint values, clip and time and hidden parts carry over by name.
  Q_INVOKABLE void reload();
  bool watching() const { return m_watching; }
  void setWatching(bool watching);             // and remembers it
  void setWatchingThisSession(bool watching);  // --watch / --no-watch: not remembered
  // The newest documentChanged came from a reload of the same document
  // (the viewport keeps its camera then).
  bool documentReloaded() const { return m_reloaded; }

  // Joints
  Q_INVOKABLE bool setJointValue(const QString& joint, double value);
  Q_INVOKABLE void resetJoint(const QString& joint);
  Q_INVOKABLE void resetAllJoints();
  Q_INVOKABLE double jointValue(const QString& joint) const;

  // Parts
  Q_INVOKABLE void setPartVisible(int part, bool visible);

  Q_INVOKABLE void clearRecentFiles();
  Q_INVOKABLE void clearError();
  Q_INVOKABLE QString formatBytes(qint64 bytes) const;

  // The viewport's newest frame drew `document` (a run or a character scene,
  // by address): its report goes to the Memory panel of the rig, or
  // (`character`) to the character controller's Memory and Frame panels with
  // why it cannot be drawn, when the frame is the open document's.
  void setFrameReport(const void* document, bool character, const QVariantMap& report, const QString& failure,
                      bool computeMissing);

 signals:
  void documentChanged();
  void recentFilesChanged();
  void lastErrorChanged();
  void loadingChanged();
  void watchingChanged();
  void poseChanged();       // joint values / part worlds changed
  void selectionChanged();  // selection or visibility
  void memoryChanged();
  void statusMessageChanged();

 private:
  void rememberRecent(const QString& path);
  // The end of a load: false (the error shown, the open model kept) when it failed.
  bool concludeLoad(const core::Error* error);
  void finishLoad();
  // How a load came: a new document, File > Reload (shows what is on disk,
  // whatever it holds) or live reload (refuses what looks half-written).
  enum class LoadKind { Open, Reload, LiveReload };
  void startLoad(const QString& path, LoadKind kind);
  void liveReload();
  std::optional<core::Error> halfWritten(const core::OpenedAsset& loaded) const;
  // What the user set on a run that a reload replaces, carried by name.
  struct CarriedView {
    core::RigControllerState rig;
    QStringList hiddenParts;
    QString selectedPart;
  };
  CarriedView carriedView() const;
  void showRun(core::LoadedRun run, const CarriedView* carried);
  void restoreParts(const CarriedView& carried);
  void showScene(core::CharacterScene scene);
  void resetSelection();
  // What the sub-controllers report (ReportingController's signals) reaches
  // the banner, the status line, the Problems panel and poseChanged here.
  void adopt(ReportingController* controller);
  // The open rig (or none) handed to the controllers that work on it.
  void handOverDocument();
  Q_INVOKABLE void reportError(const QString& message);
  Q_INVOKABLE void reportStatus(const QString& message);
  void notifyPosed();  // joint values refreshed, poseChanged emitted
  void setMemoryReport(const QVariantMap& report);

  std::unique_ptr<Document> m_document;
  PartListModel* m_parts;
  JointListModel* m_joints;
  ProblemListModel* m_problems;
  CharacterController* m_character;
  PlaybackController* m_playback;
  ExportController* m_exporter;
  AvatarController* m_avatar;
  CompareController* m_compare;
  QFutureWatcher<core::Expected<core::OpenedAsset>> m_load;  // through the reader table, on a worker thread
  QString m_loadingPath;
  bool m_loading = false;
  LoadKind m_loadKind = LoadKind::Open;  // the running load's
  bool m_reloadAfterLoad = false;        // the shown document changed while another loaded
  bool m_reloaded = false;               // the shown document came from a reload
  watch::DocumentWatcher* m_watcher;
  bool m_watching = true;
  std::vector<core::FileStamp> m_loadStamps;   // the loading document's files, before it read them
  std::vector<core::FileStamp> m_shownStamps;  // the shown document's
  QVariantMap m_memory;
  int m_selectedPart = -1;
  QString m_selectedJoint;
  std::set<int> m_hiddenParts;
  QString m_documentPath;
  QString m_documentTitle;
  QStringList m_recentFiles;
  QString m_lastError;
  QString m_statusMessage;
  QString m_graphics, m_graphicsReason;
};

}  // namespace riglens::app
