// ExportController (controller.exporter): writes the open rig as one glTF
// (off the GUI thread; the app stays usable and one export runs at a time)
// and saves screenshots of the window or the viewport. Exports the Document
// it is handed (setDocument); reports by ReportingController's signals.
// GUI thread.
#pragma once

#include <QtCore/QFutureWatcher>
#include <QtCore/QObject>
#include <QtCore/QVariant>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>

#include "qml_owned.h"
#include "reporting_controller.h"
#include "riglens/core/base/expected.h"
#include "riglens/core/export/gltf_export.h"

namespace riglens::app {

class Document;

class ExportController : public ReportingController {
  Q_OBJECT
  RIGLENS_QML_OWNED_BY_CONTROLLER
  Q_PROPERTY(bool canExport READ canExport NOTIFY canExportChanged)
  Q_PROPERTY(bool exporting READ exporting NOTIFY exportingChanged)

 public:
  explicit ExportController(QObject* parent);
  ~ExportController() override;

  bool canExport() const;
  void setDocument(const Document* document);  // the open rig; null: none (or a character)
  bool exporting() const { return m_exporting; }

  // `location`: a QUrl or a local path; ".glb" is added when it names neither
  // .glb nor .gltf. `tolerance` bounds the curve reduction's error.
  Q_INVOKABLE void exportGlb(const QVariant& location, bool cubic = false, double tolerance = 1e-4);
  void waitForExport();  // blocks until no export runs (tests, --export)
  Q_INVOKABLE bool saveScreenshot(QQuickWindow* window, const QVariant& location);
  Q_INVOKABLE bool saveViewportScreenshot(QQuickItem* viewport, const QVariant& location);

 signals:
  void canExportChanged();
  void exportingChanged();
  void exportFinished(bool ok, const QString& message);

 private:
  void finishExport();
  bool savePng(const QImage& image, const QString& path);

  const Document* m_doc = nullptr;
  QFutureWatcher<core::Expected<core::ExportReport>> m_export;
  bool m_exporting = false;
};

}  // namespace riglens::app
