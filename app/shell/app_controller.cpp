#include "app_controller.h"

#include <algorithm>
#include <cmath>

#include <QtConcurrent/QtConcurrent>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QLocale>
#include <QtCore/QSettings>
#include <QtCore/QStandardPaths>
#include <QtGui/QImage>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>

#include "character_controller.h"
#include "problem_list_model.h"
#include "rig_models.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/character/head_ext.h"
#include "riglens/core/base/json_file.h"
#include "riglens/samples/sample_runs.h"

namespace riglens::app {

namespace {
constexpr auto kRecentKey = "recentFiles";

// The loaders return refusals as values and guard their own boundaries; this
// catches what would still escape (memory running out) on the loading
// thread, where it would otherwise end the process through
// QUnhandledException and lose the open document.
template <class Load>
auto loadGuarded(const std::string& path, Load load) -> decltype(load(path)) {
  try {
    return load(path);
  } catch (const std::bad_alloc&) {
    return core::makeError(core::ErrorCode::Invalid, path + ": not enough memory to open it");
  } catch (const std::exception& e) {
    return core::makeError(core::ErrorCode::Invalid, path + ": cannot be opened (" + e.what() + ")");
  }
}
}  // namespace

AppController::AppController(QObject* parent)
    : QObject(parent),
      m_parts(new PartListModel(this)),
      m_joints(new JointListModel(this)),
      m_animations(new AnimationListModel(this)),
      m_problems(new ProblemListModel(this)),
      m_character(new CharacterController(this)) {
  QSettings settings;
  m_recentFiles = settings.value(kRecentKey).toStringList();
  connect(&m_load, &QFutureWatcherBase::finished, this, &AppController::finishLoad);
  connect(&m_characterLoad, &QFutureWatcherBase::finished, this, &AppController::finishCharacterLoad);
  connect(&m_export, &QFutureWatcherBase::finished, this, &AppController::finishExport);
  // Animation clock: ~60 Hz while a model is open (autoPlay idles run by default).
  m_clock.setInterval(16);
  connect(&m_clock, &QTimer::timeout, this, &AppController::tick);
}

AppController::~AppController() {
  m_load.waitForFinished();
  m_characterLoad.waitForFinished();
  m_export.waitForFinished();
}

QObject* AppController::parts() const { return m_parts; }
QObject* AppController::character() const { return m_character; }
bool AppController::hasDocument() const { return m_document != nullptr || m_character->active(); }

QString AppController::mode() const {
  if (m_document) return QStringLiteral("rig");
  return m_character->kind();
}
QObject* AppController::joints() const { return m_joints; }
QObject* AppController::animations() const { return m_animations; }

QStringList AppController::partNames() const {
  QStringList names;
  if (m_document)
    for (const auto& p : m_document->rig().parts()) names << QString::fromStdString(p.name);
  return names;
}

QStringList AppController::jointNames() const {
  QStringList names;
  if (m_document)
    for (const auto& j : m_document->rig().joints()) names << QString::fromStdString(j.name);
  return names;
}

QStringList AppController::animationNames() const {
  QStringList names;
  if (m_document)
    for (const auto& a : m_document->rig().animations()) names << QString::fromStdString(a.name);
  return names;
}

QObject* AppController::problems() const { return m_problems; }

qint64 AppController::triangleCount() const {
  qint64 n = 0;
  if (m_document)
    for (const auto& m : m_document->run()->meshes) n += qint64(m.triangleCount());
  return n;
}

qint64 AppController::cpuBytes() const { return m_document ? qint64(m_document->run()->cpuBytes()) : 0; }

void AppController::setMemoryReport(const QVariantMap& report) {
  if (report == m_memory) return;
  m_memory = report;
  emit memoryChanged();
}

// ------------------------------------------------------------------ loading
QString AppController::toLocalPath(const QVariant& location) {
  if (location.metaType().id() == QMetaType::QUrl) {
    const QUrl url = location.toUrl();
    return url.isLocalFile() ? url.toLocalFile() : url.toString();
  }
  const QString text = location.toString();
  const QUrl url(text);
  return url.isLocalFile() ? url.toLocalFile() : text;
}

void AppController::open(const QVariant& location) {
  const QString path = toLocalPath(location);
  const QFileInfo info(path);
  if (!info.exists()) {
    setError(tr("%1: no such file or folder").arg(path));
    return;
  }
  waitForLoad();  // one load at a time; the newest wins
  m_loadingPath = info.absoluteFilePath();
  m_loading = true;
  emit loadingChanged();
  setStatus(tr("Loading %1…").arg(info.fileName()));
  const std::string target = m_loadingPath.toStdString();
  m_loadingCharacter = core::isCharacterScenePath(target);
  if (m_loadingCharacter)
    m_characterLoad.setFuture(QtConcurrent::run([target] { return loadGuarded(target, core::loadCharacterScene); }));
  else
    m_load.setFuture(QtConcurrent::run([target] { return loadGuarded(target, core::loadRun); }));
}

void AppController::openDefault() {
  const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
  const QString folder = QDir(cache).filePath(QStringLiteral("samples/tank-cubes"));
  if (!QFileInfo::exists(folder + "/rig.json")) {
    auto sample = samples::makeSampleRun("tank-cubes");
    if (!sample || !samples::writeSampleRun(*sample, folder.toStdString())) {
      setError(tr("%1: cannot write the bundled sample").arg(folder));
      return;
    }
  }
  open(folder);
}

void AppController::waitForLoad() {
  if (!m_loading) return;
  if (m_loadingCharacter) {
    m_characterLoad.waitForFinished();
    finishCharacterLoad();
  } else {
    m_load.waitForFinished();
    finishLoad();
  }
}

bool AppController::concludeLoad(const core::Error* error) {
  m_loading = false;
  emit loadingChanged();
  if (error) {
    setError(QString::fromStdString(error->message));
    m_problems->setFailedLoad(*error, m_loadingPath.toStdString());
    setStatus(tr("Could not open %1").arg(QFileInfo(m_loadingPath).fileName()));
    return false;
  }
  clearError();
  return true;
}

void AppController::finishLoad() {
  if (!m_loading || m_loadingCharacter) return;
  auto result = m_load.result();
  if (!concludeLoad(result ? nullptr : &result.error())) return;
  m_character->setScene(nullptr);
  m_document = std::make_unique<Document>(std::make_shared<const core::LoadedRun>(std::move(result).value()));
  m_documentPath = m_loadingPath;
  m_documentTitle = QFileInfo(m_loadingPath).fileName() == "rig.json" ? QFileInfo(m_loadingPath).dir().dirName()
                                                                       : QFileInfo(m_loadingPath).fileName();
  m_selectedPart = -1;
  m_selectedJoint.clear();
  m_hiddenParts.clear();
  m_problems->setDocumentProblems(m_document->run()->warnings);
  rememberRecent(m_loadingPath);
  m_parts->reload();
  m_joints->reload();
  m_animations->reload();
  m_sinceTick.start();
  m_clock.start();
  const int problems = m_problems->count();
  setStatus(problems ? tr("Opened %1 with %n problem(s)", nullptr, problems).arg(m_documentTitle) : tr("Opened %1").arg(m_documentTitle));
  emit documentChanged();
  emit playbackChanged();
  emit selectionChanged();
  posed();
}

bool AppController::saveCharacterControls(const QVariant& location) {
  const QString path = toLocalPath(location);
  const auto& scene = m_character->scene();
  if (!scene || !scene->pack) {
    setError(tr("Save controls: no character is open"));
    return false;
  }
  const std::string text = core::controlsToJson(scene->pack->headExt, m_character->headExt()).dump(2) + "\n";
  const auto bytes = std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  if (auto written = core::writeFileAtomically(path.toStdString(), bytes); !written) {
    setError(QString::fromStdString(written.error().message));
    return false;
  }
  setStatus(tr("Saved the controls to %1").arg(path));
  return true;
}

bool AppController::loadCharacterControls(const QVariant& location) {
  const QString path = toLocalPath(location);
  const auto& scene = m_character->scene();
  if (!scene || !scene->pack) {
    setError(tr("Load controls: no character is open"));
    return false;
  }
  auto doc = core::readJsonFile(path.toStdString());
  if (!doc) {
    setError(QString::fromStdString(doc.error().message));
    return false;
  }
  auto controls = core::controlsFromJson(scene->pack->headExt, *doc, path.toStdString());
  if (controls) {
    if (auto applied = m_character->applyHeadExt(*controls); !applied) controls = applied.error();
  }
  if (!controls) {
    const QString message = QString::fromStdString(controls.error().message);
    setError(message.startsWith(path) ? message : path + ": " + message);
    return false;
  }
  clearError();
  setStatus(tr("Loaded the controls from %1").arg(path));
  return true;
}

void AppController::finishCharacterLoad() {
  if (!m_loading || !m_loadingCharacter) return;
  auto result = m_characterLoad.result();
  if (!concludeLoad(result ? nullptr : &result.error())) return;
  // A character replaces the voxel run: one document at a time.
  m_clock.stop();
  m_document.reset();
  m_selectedPart = -1;
  m_hiddenParts.clear();
  m_parts->reload();
  m_joints->reload();
  m_animations->reload();
  auto scene = std::make_shared<const core::CharacterScene>(std::move(result).value());
  m_selectedJoint.clear();
  m_problems->setDocumentProblems(scene->problems);
  m_documentPath = m_loadingPath;
  m_documentTitle = QString::fromStdString(scene->title);
  m_character->setScene(std::move(scene));
  rememberRecent(m_loadingPath);
  setStatus(tr("Opened %1").arg(m_documentTitle));
  emit documentChanged();
  emit playbackChanged();
  emit selectionChanged();
}

void AppController::tick() {
  if (!m_document) return;
  const double dt = m_sinceTick.isValid() ? m_sinceTick.restart() / 1000.0 : 0.0;
  m_document->controller().update(std::min(dt, 0.1));  // a stalled GUI does not jump the clock
  posed();
}

void AppController::posed() {
  m_joints->refreshValues();
  emit poseChanged();
}

// ------------------------------------------------------------------ joints
bool AppController::setJointValue(const QString& joint, double value) {
  if (!m_document) return false;
  if (auto ok = m_document->controller().setCaller(joint.toStdString(), value); !ok) {
    setError(QString::fromStdString(ok.error().message));
    return false;
  }
  posed();
  return true;
}

void AppController::resetJoint(const QString& joint) {
  if (!m_document) return;
  m_document->controller().resetCaller(joint.toStdString());
  posed();
}

void AppController::resetAllJoints() {
  if (!m_document) return;
  m_document->controller().resetAllCallers();
  posed();
}

double AppController::jointValue(const QString& joint) const {
  if (!m_document) return 0.0;
  const int j = m_document->rig().findJoint(joint.toStdString());
  return j < 0 ? 0.0 : m_document->controller().jointValues()[j];
}

// ------------------------------------------------------------------ playback
QString AppController::playingAnimation() const {
  if (!m_document) return {};
  const auto name = m_document->controller().playing();
  return name ? QString::fromStdString(*name) : QString();
}

double AppController::playTimeMs() const { return m_document ? m_document->controller().playableTimeMs() : 0.0; }

double AppController::playPeriodMs() const {
  if (!m_document || !m_document->controller().playing()) return 0.0;
  return m_document->rig().animations()[m_document->rig().findAnimation(*m_document->controller().playing())].periodMs;
}

bool AppController::paused() const { return m_document && m_document->controller().paused(); }

void AppController::setPaused(bool paused) {
  if (!m_document || paused == this->paused()) return;
  m_document->controller().setPaused(paused);
  emit playbackChanged();
}

bool AppController::loop() const { return m_document && m_document->controller().playableLooping(); }

void AppController::setLoop(bool loop) {
  if (!m_document) return;
  m_document->controller().setLoopOverride(loop);
  emit playbackChanged();
  posed();
}

double AppController::speed() const { return m_document ? m_document->controller().speed() : 1.0; }

void AppController::setSpeed(double speed) {
  if (!m_document) return;
  m_document->controller().setSpeed(speed);
  emit playbackChanged();
}

bool AppController::autoPlayMuted() const { return m_document && !m_document->controller().autoPlayEnabled(); }

void AppController::setAutoPlayMuted(bool muted) {
  if (!m_document) return;
  m_document->controller().setAutoPlayEnabled(!muted);
  emit playbackChanged();
  posed();
}

bool AppController::play(const QString& animation) {
  if (!m_document) return false;
  if (auto ok = m_document->controller().play(animation.toStdString()); !ok) {
    setError(QString::fromStdString(ok.error().message));
    return false;
  }
  m_document->controller().setLoopOverride(std::nullopt);
  m_document->controller().setPaused(false);
  emit playbackChanged();
  posed();
  return true;
}

void AppController::stop() {
  if (!m_document) return;
  (void)m_document->controller().play(std::nullopt);
  m_document->controller().setPaused(false);
  emit playbackChanged();
  posed();
}

void AppController::togglePause() { setPaused(!paused()); }

void AppController::seek(double timeMs) {
  if (!m_document || !m_document->controller().playing()) return;
  m_document->controller().seekPlayable(std::clamp(timeMs, 0.0, playPeriodMs()));
  posed();
}

void AppController::stepFrame(int direction) {
  if (!m_document || !m_document->controller().playing()) return;
  setPaused(true);
  seek(playTimeMs() + (direction < 0 ? -kFrameStepMs : kFrameStepMs));
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
  if (!problem || !m_document || m_problems->data(m_problems->index(row), ProblemListModel::FailedLoadRole).toBool()) return false;
  const core::Rig& rig = m_document->rig();
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
  if (visible) m_hiddenParts.erase(part);
  else m_hiddenParts.insert(part);
  m_parts->refreshFlags();
  emit selectionChanged();
}

std::vector<bool> AppController::hiddenPartFlags() const {
  std::vector<bool> flags;
  if (!m_document) return flags;
  flags.resize(m_document->rig().parts().size(), false);
  for (int p : m_hiddenParts)
    if (p >= 0 && p < int(flags.size())) flags[p] = true;
  return flags;
}

// ------------------------------------------------------------------ export and screenshots
void AppController::exportGlb(const QVariant& location, bool cubic, double tolerance) {
  if (!m_document) {
    setError(tr("%1: nothing to export: no rig is loaded").arg(toLocalPath(location)));
    return;
  }
  if (m_exporting) return;
  QString path = toLocalPath(location);
  if (!path.endsWith(".glb") && !path.endsWith(".gltf")) path += ".glb";
  core::ExportOptions options;
  options.cubic = cubic;
  options.tolerance = tolerance;
  m_exporting = true;
  emit exportingChanged();
  emit documentChanged();  // canExport
  setStatus(tr("Exporting %1…").arg(QFileInfo(path).fileName()));
  auto run = m_document->run();
  const std::string target = path.toStdString();
  m_export.setFuture(QtConcurrent::run([run, target, options] { return core::exportRun(*run, target, options); }));
}

void AppController::waitForExport() {
  if (m_exporting) {
    m_export.waitForFinished();
    finishExport();
  }
}

void AppController::finishExport() {
  if (!m_exporting) return;
  m_exporting = false;
  auto report = m_export.result();
  emit exportingChanged();
  emit documentChanged();
  if (!report) {
    setError(QString::fromStdString(report.error().message));
    setStatus(tr("Export failed"));
    emit exportFinished(false, m_lastError);
    return;
  }
  QString message = tr("Exported %1 (%2)").arg(QString::fromStdString(report->output.string()), formatBytes(qint64(report->bytes)));
  if (!report->interfacePath.empty()) message += tr(" and %1").arg(QString::fromStdString(report->interfacePath.filename().string()));
  setStatus(message);
  emit exportFinished(true, message);
}

bool AppController::saveScreenshot(QQuickWindow* window, const QVariant& location) {
  const QString path = toLocalPath(location);
  if (!window) {
    setError(tr("%1: no window to capture").arg(path));
    return false;
  }
  const QImage image = window->grabWindow();
  if (image.isNull()) {
    setError(tr("%1: the window could not be captured").arg(path));
    return false;
  }
  if (!image.save(path, "PNG")) {
    setError(tr("%1: cannot write the PNG").arg(path));
    return false;
  }
  setStatus(tr("Saved %1").arg(path));
  return true;
}

bool AppController::saveViewportScreenshot(QQuickItem* viewport, const QVariant& location) {
  const QString path = toLocalPath(location);
  if (!viewport || !viewport->window()) {
    setError(tr("%1: no viewport to capture").arg(path));
    return false;
  }
  QQuickWindow* window = viewport->window();
  const QImage image = window->grabWindow();
  const qreal dpr = image.devicePixelRatio();
  const QRectF rect(viewport->mapToScene(QPointF(0, 0)) * dpr, viewport->size() * dpr);
  const QImage cropped = image.copy(rect.toAlignedRect());
  if (cropped.isNull() || !cropped.save(path, "PNG")) {
    setError(tr("%1: cannot write the PNG").arg(path));
    return false;
  }
  setStatus(tr("Saved %1").arg(path));
  return true;
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
  return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

void AppController::setError(const QString& message) {
  m_lastError = message;
  emit lastErrorChanged();
}

void AppController::setStatus(const QString& message) {
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
