// CompareController (controller.compare): File > Compare With... and
// `riglens A --compare B`. Holds the second version B of the open run or
// model and poses it as the open one A is posed (the same caller joint
// values, clip and clip time, by name, every time A's pose changes), so the
// viewport can show both side by side under one camera, or B alone in the
// overlay, each vertex coloured by its distance to the same vertex of A
// (core::distanceTints) on a scale with a legend. The differences panel
// reads `differences` (core::compareRuns' sentences, as `riglens-cli
// compare` prints them) and `parts` (each shared part's max and mean vertex
// distance at the current pose). GUI thread.
#pragma once

#include <QtCore/QFutureWatcher>
#include <QtCore/QObject>
#include <QtCore/QTimer>
#include <QtCore/QVariantList>
#include <QtGui/QColor>
#include <memory>

#include "document.h"
#include "qml_owned.h"
#include "reporting_controller.h"
#include "riglens/core/rig/distance_tint.h"

namespace riglens::app {

class CompareController : public ReportingController {
  Q_OBJECT
  RIGLENS_QML_OWNED_BY_CONTROLLER
  Q_PROPERTY(bool active READ active NOTIFY compareChanged)
  Q_PROPERTY(bool loading READ loading NOTIFY loadingChanged)
  Q_PROPERTY(QString path READ path NOTIFY compareChanged)
  Q_PROPERTY(QString title READ title NOTIFY compareChanged)
  // "side" (A left, B right, one camera) or "overlay" (B coloured by distance).
  Q_PROPERTY(QString mode READ mode WRITE setMode NOTIFY modeChanged)
  Q_PROPERTY(QStringList differences READ differences NOTIFY resultsChanged)
  // [{name, vertices, max, mean, paired}] per part both have, in B's order.
  Q_PROPERTY(QVariantList parts READ parts NOTIFY resultsChanged)
  Q_PROPERTY(double largestDistance READ largestDistance NOTIFY resultsChanged)
  // How many of B's vertices are paired with A's (0: no shared part has A's
  // topology, so the overlay has nothing to colour and the legend says so).
  Q_PROPERTY(qint64 pairedVertices READ pairedVertices NOTIFY resultsChanged)
  // The colour scale's top, in the runs' length unit: the largest distance
  // at the current pose unless locked (then what it was locked at, or set).
  Q_PROPERTY(double scaleMax READ scaleMax WRITE setScaleMax NOTIFY resultsChanged)
  Q_PROPERTY(bool scaleLocked READ scaleLocked WRITE setScaleLocked NOTIFY resultsChanged)
  // The legend's gradient: [{at, color}] (core::distanceScaleStops) and the unpaired grey.
  Q_PROPERTY(QVariantList legendStops READ legendStops CONSTANT)
  Q_PROPERTY(QColor unpairedColor READ unpairedColor CONSTANT)

 public:
  explicit CompareController(QObject* parent);
  ~CompareController() override;

  bool active() const { return m_other != nullptr; }
  bool loading() const { return m_loading; }
  QString path() const { return m_path; }
  QString title() const;
  QString mode() const { return m_overlay ? QStringLiteral("overlay") : QStringLiteral("side"); }
  void setMode(const QString& mode);
  bool overlay() const { return m_overlay; }
  QStringList differences() const { return m_differences; }
  QVariantList parts() const { return m_parts; }
  double largestDistance() const { return m_largest; }
  qint64 pairedVertices() const { return m_pairedVertices; }
  double scaleMax() const;
  void setScaleMax(double distance);
  bool scaleLocked() const { return m_scaleLocked; }
  void setScaleLocked(bool locked);
  QVariantList legendStops() const;
  QColor unpairedColor() const;

  // Loads B (a run folder, rig.json, run record or model) on a worker
  // thread; the open one is compared with it once it is in. Refused, with
  // the reason on the banner, when nothing is open or B is not a run or model.
  Q_INVOKABLE void open(const QVariant& location);
  Q_INVOKABLE void close();
  // Blocks until a load open() started has ended, and concludes it (riglens
  // --compare with --screenshot).
  void waitForLoad();
  // Tests and the status line: the distance of B's vertex `vertex` of part
  // `part` (by name) from A's at the current pose (-1: not paired), and the
  // overlay's colour for it (linear RGB, [r, g, b]; empty when not paired).
  Q_INVOKABLE double vertexDistance(const QString& part, int vertex) const;
  Q_INVOKABLE QVariantList vertexTint(const QString& part, int vertex) const;

  // The open rig A (null: none, or a character). B is kept when A is only
  // reloaded (`keep`); another document closes the comparison.
  void setDocument(Document* document, bool keep);
  // A was posed: B follows, the distances are measured again (coalesced:
  // once per event loop turn however many poses came).
  void followPose();

  // The render side (sync, GUI thread blocked): B and its controller, and
  // the overlay's colours (null outside the overlay).
  const Document* other() const { return m_other.get(); }
  std::shared_ptr<const core::VertexTints> tints() const { return m_overlay ? m_tints : nullptr; }

 signals:
  void compareChanged();
  void loadingChanged();
  void modeChanged();
  void resultsChanged();
  void viewChanged();  // what the viewport draws of B changed: a frame is wanted

 private:
  void finishLoad();
  void followFirst();
  void measure();
  void measureDifferences();

  Document* m_document = nullptr;  // A, owned by the AppController
  std::unique_ptr<Document> m_other;
  QString m_path, m_loadingPath;
  bool m_loading = false;
  bool m_overlay = false;
  QFutureWatcher<core::Expected<core::LoadedRun>> m_load;
  bool m_measureQueued = false;
  QTimer m_differencesTimer;  // the panel's sentences, at most 4 times a second
  std::vector<core::PartDistances> m_distances;
  std::shared_ptr<const core::VertexTints> m_tints;
  QStringList m_differences;
  QVariantList m_parts;
  double m_largest = 0.0;
  qint64 m_pairedVertices = 0;
  double m_lockedScale = 0.0;
  bool m_scaleLocked = false;
};

}  // namespace riglens::app
