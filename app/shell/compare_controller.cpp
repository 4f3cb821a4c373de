#include "compare_controller.h"

#include <QtConcurrent/QtConcurrent>
#include <QtCore/QFileInfo>
#include <algorithm>

#include "load_guard.h"
#include "locations.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/run_compare.h"

namespace riglens::app {

namespace {

// The panel's sentences come from core::compareRuns, which poses both
// versions' meshes once more: at most this often while A plays.
constexpr int kDifferencesIntervalMs = 250;
// compareRuns' tolerance in the viewer: the CLI's default (a float32
// coordinate's rounding at the scale of a run is far below it).
constexpr double kViewerTolerance = 1e-5;

QColor fromSrgb(glm::vec3 srgb) {
  return QColor::fromRgbF(srgb.x, srgb.y, srgb.z);
}

}  // namespace

CompareController::CompareController(QObject* parent) : ReportingController(parent) {
  connect(&m_load, &QFutureWatcher<core::Expected<core::LoadedRun>>::finished, this, &CompareController::finishLoad);
  m_differencesTimer.setSingleShot(true);
  m_differencesTimer.setInterval(kDifferencesIntervalMs);
  connect(&m_differencesTimer, &QTimer::timeout, this, &CompareController::measureDifferences);
}

CompareController::~CompareController() {
  m_load.waitForFinished();
}

QString CompareController::title() const {
  const QFileInfo info(m_path);
  return info.fileName() == "rig.json" ? info.dir().dirName() : info.fileName();
}

void CompareController::setMode(const QString& mode) {
  const bool overlay = mode == QStringLiteral("overlay");
  if (overlay == m_overlay || (!overlay && mode != QStringLiteral("side"))) return;
  m_overlay = overlay;
  emit modeChanged();
  if (m_overlay) measure();  // the overlay's colours are made only while it shows
  emit viewChanged();
}

double CompareController::scaleMax() const {
  return m_scaleLocked ? m_lockedScale : m_largest;
}

void CompareController::setScaleMax(double distance) {
  if (!(distance > 0.0) || (m_scaleLocked && distance == m_lockedScale)) return;
  m_lockedScale = distance;
  m_scaleLocked = true;
  measure();
}

void CompareController::setScaleLocked(bool locked) {
  if (locked == m_scaleLocked) return;
  m_scaleLocked = locked;
  m_lockedScale = m_largest;
  measure();
}

QVariantList CompareController::legendStops() const {
  QVariantList stops;
  for (const core::DistanceStop& stop : core::distanceScaleStops())
    stops.append(QVariantMap{{"at", stop.at}, {"color", fromSrgb(stop.srgb)}});
  return stops;
}

QColor CompareController::unpairedColor() const {
  return fromSrgb(core::kUnpairedSrgb);
}

void CompareController::open(const QVariant& location) {
  const QString path = localPath(location);
  if (!m_document) {
    emit errorReported(tr("Open a run or a model first, then compare it with %1").arg(path));
    return;
  }
  if (m_loading) m_load.waitForFinished();  // (a second choice replaces the first)
  m_loadingPath = path;
  m_loading = true;
  emit loadingChanged();
  emit statusReported(tr("Loading %1 to compare...").arg(QFileInfo(path).fileName()));
  const std::string target = path.toStdString();
  m_load.setFuture(QtConcurrent::run([target] { return loadGuarded(target, core::loadRun); }));
}

void CompareController::waitForLoad() {
  if (!m_loading) return;
  m_load.waitForFinished();
  finishLoad();
}

void CompareController::finishLoad() {
  if (!m_loading) return;  // (concluded already by waitForLoad)
  m_loading = false;
  emit loadingChanged();
  core::Expected<core::LoadedRun> loaded = m_load.result();
  if (!loaded) {
    emit errorReported(
        tr("Could not compare with %1: %2").arg(m_loadingPath, QString::fromStdString(loaded.error().message)));
    return;
  }
  if (!m_document) return;  // A went while B loaded
  m_other = std::make_unique<Document>(std::make_shared<const core::LoadedRun>(std::move(loaded).value()));
  m_path = m_loadingPath;
  emit errorCleared();
  emit statusReported(tr("Comparing with %1").arg(title()));
  emit compareChanged();
  measure();
  measureDifferences();
}

void CompareController::close() {
  if (!m_other) return;
  m_other.reset();
  m_path.clear();
  m_distances.clear();
  m_tints.reset();
  m_differences.clear();
  m_parts.clear();
  m_largest = 0.0;
  m_pairedVertices = 0;
  m_differencesTimer.stop();
  emit compareChanged();
  emit resultsChanged();
  emit viewChanged();
}

void CompareController::setDocument(Document* document, bool keep) {
  m_document = document;
  if (!document || !keep) {
    close();
    return;
  }
  if (m_other) {
    measure();
    measureDifferences();
  }
}

void CompareController::followPose() {
  if (!m_other || m_measureQueued) return;
  m_measureQueued = true;
  QMetaObject::invokeMethod(
      this,
      [this] {
        m_measureQueued = false;
        measure();
        if (!m_differencesTimer.isActive()) m_differencesTimer.start();
      },
      Qt::QueuedConnection);
}

// B takes A's pose by name (core::RigController::restoreState: caller
// values, clip, clip time, pause, the idle clock; what B lacks is left at
// rest).
void CompareController::followFirst() {
  m_document->controller().evaluate();
  m_other->controller().restoreState(m_document->controller().saveState());
  m_other->controller().evaluate();
}

// Every shared part's vertices measured at A's pose and, for the overlay, coloured.
void CompareController::measure() {
  if (!m_other || !m_document) return;
  followFirst();
  m_distances = core::posedVertexDistances({*m_document->run(), m_document->controller()},
                                           {*m_other->run(), m_other->controller()});
  m_largest = core::largestDistance(m_distances);
  // The colours only when the overlay draws them (a clip playing side by
  // side would otherwise colour every vertex of B each frame for nothing).
  m_tints = nullptr;
  if (m_overlay) {
    std::vector<std::size_t> counts;
    for (const core::PartMesh& mesh : m_other->run()->meshes) counts.push_back(mesh.vertexCount());
    m_tints = std::make_shared<const core::VertexTints>(core::distanceTints(counts, m_distances, float(scaleMax())));
  }
  m_parts.clear();
  m_pairedVertices = 0;
  for (const core::PartDistances& part : m_distances) {
    if (part.topologyMatches) m_pairedVertices += qint64(part.perVertex.size());
    m_parts.append(QVariantMap{{"name", QString::fromStdString(part.part)},
                               {"vertices", qint64(part.perVertex.size())},
                               {"max", part.max},
                               {"mean", part.mean},
                               {"paired", part.topologyMatches}});
  }
  emit resultsChanged();
  emit viewChanged();
}

// The sentences, at A's pose now: the idle clock moves A between measures
// (a spinning radar measured against B's radar of 250 ms before "moved").
void CompareController::measureDifferences() {
  if (!m_other || !m_document) return;
  followFirst();
  const nlohmann::json facts = core::compareRuns({*m_document->run(), m_document->controller()},
                                                 {*m_other->run(), m_other->controller()}, kViewerTolerance);
  QStringList sentences;
  for (const auto& sentence : facts["differences"]) sentences << QString::fromStdString(sentence.get<std::string>());
  if (sentences == m_differences) return;
  m_differences = sentences;
  emit resultsChanged();
}

double CompareController::vertexDistance(const QString& part, int vertex) const {
  for (const core::PartDistances& d : m_distances)
    if (d.part == part.toStdString() && d.topologyMatches && vertex >= 0 && std::size_t(vertex) < d.perVertex.size())
      return d.perVertex[std::size_t(vertex)];
  return -1.0;
}

QVariantList CompareController::vertexTint(const QString& part, int vertex) const {
  if (!m_tints || vertexDistance(part, vertex) < 0) return {};
  const int p = m_other->rig().findPart(part.toStdString());
  const std::vector<float>& rgb = (*m_tints)[std::size_t(p)];
  const std::size_t v = std::size_t(vertex);
  return {rgb[3 * v], rgb[3 * v + 1], rgb[3 * v + 2]};
}

}  // namespace riglens::app
