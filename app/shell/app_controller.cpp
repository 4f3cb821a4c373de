#include "app_controller.h"

#include <QtConcurrent/QtConcurrent>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "load_guard.h"
#include "locations.h"
#include "name_lists.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/open/reader_listings.h"
#include "riglens/core/rig/model_nodes.h"
#include "riglens/samples/sample_runs.h"

namespace riglens::app {

namespace {
constexpr auto kRecentKey = "recentFiles";
constexpr auto kWatchKey = "file/watch";
}  // namespace

AppController::AppController(QObject* parent)
    : QObject(parent),
      m_parts(new PartListModel(this)),
      m_joints(new JointListModel(this)),
      m_problems(new ProblemListModel(this)),
      m_character(new CharacterController(this)),
      m_playback(new PlaybackController(this)),
      m_exporter(new ExportController(this)),
      m_avatar(new AvatarController(this)),
      m_compare(new CompareController(this)),
      m_watcher(new watch::DocumentWatcher(this)) {
  QSettings settings;
  m_recentFiles = settings.value(kRecentKey).toStringList();
  m_watching = settings.value(kWatchKey, true).toBool();
  connect(m_watcher, &watch::DocumentWatcher::settled, this, &AppController::liveReload);
  connect(&m_load, &QFutureWatcherBase::finished, this, &AppController::finishLoad);
  for (ReportingController* controller :
       std::initializer_list<ReportingController*>{m_character, m_playback, m_exporter, m_avatar, m_compare})
    adopt(controller);
  connect(this, &AppController::poseChanged, m_playback, &PlaybackController::timeChanged);
  connect(this, &AppController::poseChanged, m_compare, &CompareController::followPose);
}

void AppController::adopt(ReportingController* controller) {
  connect(controller, &ReportingController::errorReported, this, &AppController::reportError);
  connect(controller, &ReportingController::errorCleared, this, &AppController::clearError);
  connect(controller, &ReportingController::statusReported, this, &AppController::reportStatus);
  connect(controller, &ReportingController::problemsFound, m_problems, &ProblemListModel::addDocumentProblems);
  connect(controller, &ReportingController::posed, this, &AppController::notifyPosed);
}

void AppController::handOverDocument() {
  m_playback->setDocument(m_document.get());
  m_exporter->setDocument(m_document.get());
  m_avatar->setDocument(m_document.get());
  // A reload keeps the version it is compared with; another document does not.
  m_compare->setDocument(m_document.get(), m_loadKind != LoadKind::Open);
}

AppController::~AppController() {
  m_load.waitForFinished();
}

bool AppController::hasDocument() const {
  return m_document != nullptr || m_character->active();
}

AppController::Mode AppController::mode() const {
  if (m_document) return Mode::Rig;
  if (!m_character->active()) return Mode::None;
  return m_character->scene()->kind == core::SceneKind::Splats ? Mode::Splats : Mode::Character;
}

bool AppController::partsAreNodes() const {
  return m_document && core::listsNodesAsParts(*m_document->run());
}

QStringList AppController::partNames() const {
  QStringList names;
  if (!m_document) return names;
  const core::LoadedRun& run = *m_document->run();
  if (core::listsNodesAsParts(run)) {  // a model opened by itself: its nodes, by index
    for (int n = 0; n < int(run.gltf.nodes.size()); ++n) names << QString::fromStdString(core::nodeLabel(run.gltf, n));
    return names;
  }
  return namesOf(m_document->rig().parts());
}

QStringList AppController::cameraNames() const {
  QStringList names;
  if (m_document)
    for (const core::GltfCamera& camera : m_document->run()->gltf.cameras) names << QString::fromStdString(camera.name);
  return names;
}

QStringList AppController::jointNames() const {
  return m_document ? namesOf(m_document->rig().joints()) : QStringList{};
}

qint64 AppController::triangleCount() const {
  qint64 n = 0;
  if (m_document)
    for (const auto& m : m_document->run()->meshes) n += qint64(m.triangleCount());
  return n;
}

qint64 AppController::cpuBytes() const {
  return m_document ? qint64(m_document->run()->cpuBytes()) : 0;
}

void AppController::setFrameReport(const void* document, bool character, const QVariantMap& report,
                                   const QString& failure, bool computeMissing) {
  if (!character) {
    if (!m_character->active()) setMemoryReport(report);
    return;
  }
  if (m_character->active() && document == m_character->scene().get())
    m_character->setRenderReport(report, failure, computeMissing);
}

void AppController::setMemoryReport(const QVariantMap& report) {
  if (report == m_memory) return;
  m_memory = report;
  emit memoryChanged();
}

// ------------------------------------------------------------------ loading
void AppController::open(const QVariant& location) {
  const QString path = localPath(location);
  if (!QFileInfo::exists(path)) {
    reportError(tr("%1: no such file or folder").arg(path));
    return;
  }
  startLoad(QFileInfo(path).absoluteFilePath(), LoadKind::Open);
}

void AppController::reload() {
  if (!hasDocument() || m_documentPath.isEmpty()) return;
  if (!QFileInfo::exists(m_documentPath)) {
    reportError(tr("%1: no longer exists; still showing what was read last").arg(m_documentPath));
    return;
  }
  startLoad(m_documentPath, LoadKind::Reload);
}

void AppController::liveReload() {
  if (!m_watching || !hasDocument() || !QFileInfo::exists(m_documentPath)) return;
  // Another document is loading: the change is read once it has ended, if
  // this document is still the one shown (the load failed).
  if (m_loading) return void(m_reloadAfterLoad = true);
  startLoad(m_documentPath, LoadKind::LiveReload);
}

// A live reload that brings an error the shown document did not have (a
// part mesh cut short mid-write loads as an empty part with an error) read a
// file still being written: it is refused like a failed read, and the
// finished write triggers the next. File > Reload shows such a load.
std::optional<core::Error> AppController::halfWritten(const core::OpenedAsset& loaded) const {
  const auto* run = std::get_if<core::LoadedRun>(&loaded);
  const core::Diagnostics& now = run ? run->warnings : std::get<core::CharacterScene>(loaded).problems;
  const core::Diagnostics none;
  const core::Diagnostics& shown = m_document              ? m_document->run()->warnings
                                   : m_character->active() ? m_character->scene()->problems
                                                           : none;
  const auto problem = core::firstNewError(now, shown);
  if (!problem) return std::nullopt;
  return core::Error{core::ErrorCode::Invalid, problem->message, problem->source, problem->pointer, {}};
}

void AppController::startLoad(const QString& path, LoadKind kind) {
  waitForLoad();  // one load at a time; the newest wins
  m_loadingPath = path;
  m_loadKind = kind;
  m_loading = true;
  emit loadingChanged();
  reportStatus((kind == LoadKind::Open ? tr("Loading %1…") : tr("Reloading %1…")).arg(QFileInfo(path).fileName()));
  // Stamped before the read: a write while it loads is noticed afterwards.
  // (Only while watching: a folder's stamps are a walk of it.)
  m_loadStamps = m_watching ? watch::DocumentWatcher::stampsOf(path) : std::vector<core::FileStamp>{};
  const std::string target = path.toStdString();
  m_load.setFuture(QtConcurrent::run([target] { return loadGuarded(target, core::openAsset); }));
}

void AppController::setWatching(bool watching) {
  QSettings().setValue(kWatchKey, watching);
  setWatchingThisSession(watching);
}

void AppController::setWatchingThisSession(bool watching) {
  if (watching == m_watching) return;
  m_watching = watching;
  // Turned on after a load that was not stamped: from the files as they are now.
  if (m_watching && hasDocument() && m_shownStamps.empty())
    m_shownStamps = watch::DocumentWatcher::stampsOf(m_documentPath);
  m_watcher->watch(m_watching && hasDocument() ? m_documentPath : QString(), m_shownStamps);
  emit watchingChanged();
}

bool AppController::canOpen(const QVariant& location) const {
  return core::pickReader(localPath(location).toStdString()) != nullptr;
}

QStringList AppController::openNameFilters() {
  QStringList filters;
  for (const std::string& f : core::dialogNameFilters()) filters << QString::fromStdString(f);
  return filters;
}

void AppController::openDefault() {
  const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
  const QString folder = QDir(cache).filePath(QStringLiteral("samples/tank-cubes"));
  if (!QFileInfo::exists(folder + "/rig.json")) {
    auto sample = samples::makeSampleRun("tank-cubes");
    if (!sample || !samples::writeSampleRun(*sample, folder.toStdString())) {
      reportError(tr("%1: cannot write the bundled sample").arg(folder));
      return;
    }
  }
  open(folder);
}

void AppController::waitForLoad() {
  if (!m_loading) return;
  m_load.waitForFinished();
  finishLoad();
}

bool AppController::concludeLoad(const core::Error* error) {
  m_loading = false;
  emit loadingChanged();
  if (error) {
    reportError(QString::fromStdString(error->message));
    m_problems->setFailedLoad(*error, m_loadingPath.toStdString());
    const QString name = QFileInfo(m_loadingPath).fileName();
    reportStatus(m_loadKind != LoadKind::Open ? tr("Could not reload %1: still showing what was read last").arg(name)
                                              : tr("Could not open %1").arg(name));
    return false;
  }
  clearError();
  return true;
}

void AppController::finishLoad() {
  if (!m_loading) return;
  auto result = m_load.result();
  const bool reload = m_loadKind != LoadKind::Open;
  std::optional<core::Error> partial;
  if (result && m_loadKind == LoadKind::LiveReload) partial = halfWritten(*result);
  const bool loaded = concludeLoad(!result ? &result.error() : partial ? &*partial : nullptr);
  m_loadKind = LoadKind::Open;
  const bool reloadNext = std::exchange(m_reloadAfterLoad, false);
  if (!loaded) {
    if (reloadNext) QMetaObject::invokeMethod(this, &AppController::liveReload, Qt::QueuedConnection);
    return;
  }
  m_reloaded = reload;
  m_shownStamps = std::move(m_loadStamps);
  if (auto* run = std::get_if<core::LoadedRun>(&*result)) {
    std::optional<CarriedView> carried;
    if (reload && m_document) carried = carriedView();
    showRun(std::move(*run), carried ? &*carried : nullptr);
  } else {
    showScene(std::get<core::CharacterScene>(std::move(*result)));
  }
  m_watcher->watch(m_watching ? m_documentPath : QString(), m_shownStamps);
}

void AppController::showRun(core::LoadedRun run, const CarriedView* carried) {
  m_character->setScene(nullptr);
  m_document = std::make_unique<Document>(std::make_shared<const core::LoadedRun>(std::move(run)));
  std::vector<std::string> dropped;
  if (carried) dropped = m_document->controller().restoreState(carried->rig);
  handOverDocument();  // before anything can ask them about the old one
  m_documentPath = m_loadingPath;
  m_documentTitle = QFileInfo(m_loadingPath).fileName() == "rig.json" ? QFileInfo(m_loadingPath).dir().dirName()
                                                                      : QFileInfo(m_loadingPath).fileName();
  m_problems->setDocumentProblems(m_document->run()->warnings);  // before the part list reads it
  resetSelection();
  if (carried) restoreParts(*carried);
  if (!m_reloaded) rememberRecent(m_loadingPath);
  const int problems = m_problems->count();
  const QString verb = m_reloaded ? tr("Reloaded") : tr("Opened");
  QString status = problems ? tr("%1 %2 with %n problem(s)", nullptr, problems).arg(verb, m_documentTitle)
                            : tr("%1 %2").arg(verb, m_documentTitle);
  if (!dropped.empty()) {
    QStringList gone;
    for (const std::string& name : dropped) gone << QString::fromStdString(name);
    status += tr("; no longer in it: %1").arg(gone.join(", "));
  }
  reportStatus(status);
  emit documentChanged();
  emit selectionChanged();
  notifyPosed();
}

AppController::CarriedView AppController::carriedView() const {
  CarriedView view{m_document->controller().saveState(), {}, {}};
  const QStringList names = partNames();
  for (int p : m_hiddenParts) view.hiddenParts << names.value(p);
  view.selectedPart = names.value(m_selectedPart);
  return view;
}

// The hidden and selected parts of the run a reload replaced that still
// exist, by name.
void AppController::restoreParts(const CarriedView& carried) {
  const QStringList names = partNames();
  for (const QString& name : carried.hiddenParts)
    if (const int p = names.indexOf(name); p >= 0) m_hiddenParts.insert(p);
  m_selectedPart = carried.selectedPart.isEmpty() ? -1 : int(names.indexOf(carried.selectedPart));
  m_parts->refreshFlags();
}

void AppController::showScene(core::CharacterScene opened) {
  // A character replaces the voxel run: one document at a time.
  m_document.reset();
  handOverDocument();
  auto scene = std::make_shared<const core::CharacterScene>(std::move(opened));
  m_problems->setDocumentProblems(scene->problems);
  resetSelection();
  m_documentPath = m_loadingPath;
  m_documentTitle = QString::fromStdString(scene->title);
  m_character->setScene(std::move(scene), m_reloaded);
  if (!m_reloaded) rememberRecent(m_loadingPath);
  reportStatus((m_reloaded ? tr("Reloaded %1") : tr("Opened %1")).arg(m_documentTitle));
  emit documentChanged();
  emit selectionChanged();
}

// The document changed: nothing selected or hidden, the lists re-read.
void AppController::resetSelection() {
  m_selectedPart = -1;
  m_selectedJoint.clear();
  m_hiddenParts.clear();
  m_parts->reload();
  m_joints->reload();
}

void AppController::notifyPosed() {
  if (m_document) m_document->controller().evaluate();  // the models and panels read this pose
  m_joints->refreshValues();
  emit poseChanged();
}

// ------------------------------------------------------------------ joints
bool AppController::setJointValue(const QString& joint, double value) {
  if (!m_document) return false;
  if (auto ok = m_document->controller().setCaller(joint.toStdString(), value); !ok) {
    reportError(QString::fromStdString(ok.error().message));
    return false;
  }
  notifyPosed();
  return true;
}

void AppController::resetJoint(const QString& joint) {
  if (!m_document) return;
  m_document->controller().resetCaller(joint.toStdString());
  notifyPosed();
}

void AppController::resetAllJoints() {
  if (!m_document) return;
  m_document->controller().resetAllCallers();
  notifyPosed();
}

double AppController::jointValue(const QString& joint) const {
  if (!m_document) return 0.0;
  const int j = m_document->rig().findJoint(joint.toStdString());
  return j < 0 ? 0.0 : m_document->controller().jointValues()[j];
}

// ------------------------------------------------------------------ parts
void AppController::selectPart(int part) {
  if (part == m_selectedPart) return;
  m_selectedJoint.clear();  // a part chosen elsewhere ends a problem's joint selection
  m_selectedPart = part;
  m_parts->refreshFlags();
  emit selectionChanged();
}

bool AppController::selectProblem(int row) {
  const core::Diagnostic* problem = m_problems->at(row);
  if (!problem || !m_document || m_problems->data(m_problems->index(row), ProblemListModel::FailedLoadRole).toBool())
    return false;
  const core::Rig& rig = m_document->rig();
  if (core::listsNodesAsParts(*m_document->run())) return false;  // its problems name no node
  int part = problem->part.empty() ? core::kNoIndex : rig.findPart(problem->part);
  const int joint = problem->joint.empty() ? core::kNoIndex : rig.findJoint(problem->joint);
  if (joint != core::kNoIndex && part == core::kNoIndex) part = rig.joints()[std::size_t(joint)].part;
  if (part == core::kNoIndex && joint == core::kNoIndex) return false;
  m_selectedJoint = joint == core::kNoIndex ? QString() : QString::fromStdString(problem->joint);
  m_selectedPart = part == core::kNoIndex ? -1 : part;
  m_parts->refreshFlags();
  emit selectionChanged();
  return true;
}

void AppController::setPartVisible(int part, bool visible) {
  if (visible)
    m_hiddenParts.erase(part);
  else
    m_hiddenParts.insert(part);
  m_parts->refreshFlags();
  emit selectionChanged();
}

std::vector<bool> AppController::hiddenPartFlags() const {
  std::vector<bool> flags;
  if (!m_document) return flags;
  // A model opened by itself: the parts the Scene panel lists are its nodes.
  const core::LoadedRun& run = *m_document->run();
  flags.resize(core::listsNodesAsParts(run) ? run.gltf.nodes.size() : m_document->rig().parts().size(), false);
  for (int p : m_hiddenParts)
    if (p >= 0 && p < int(flags.size())) flags[p] = true;
  return flags;
}

// ------------------------------------------------------------------ misc
void AppController::clearRecentFiles() {
  m_recentFiles.clear();
  QSettings().setValue(kRecentKey, m_recentFiles);
  emit recentFilesChanged();
}

void AppController::clearError() {
  if (m_lastError.isEmpty()) return;
  m_lastError.clear();
  emit lastErrorChanged();
}

QString AppController::formatBytes(qint64 bytes) const {
  return app::formatBytes(bytes);
}

void AppController::reportError(const QString& message) {
  m_lastError = message;
  emit lastErrorChanged();
}

void AppController::reportStatus(const QString& message) {
  m_statusMessage = message;
  emit statusMessageChanged();
}

void AppController::rememberRecent(const QString& path) {
  m_recentFiles.removeAll(path);
  m_recentFiles.prepend(path);
  while (m_recentFiles.size() > kMaxRecentFiles) m_recentFiles.removeLast();
  QSettings().setValue(kRecentKey, m_recentFiles);
  emit recentFilesChanged();
}

}  // namespace riglens::app
