#include "export_controller.h"

#include <QtConcurrent/QtConcurrent>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtGui/QImage>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>

#include "document.h"
#include "locations.h"
#include "riglens/core/base/file_io.h"
#include "riglens/render/device/png_image.h"

namespace riglens::app {

ExportController::ExportController(QObject* parent) : ReportingController(parent) {
  connect(&m_export, &QFutureWatcherBase::finished, this, &ExportController::finishExport);
}

void ExportController::setDocument(const Document* document) {
  m_doc = document;
  emit canExportChanged();
}

ExportController::~ExportController() {
  m_export.waitForFinished();
}

bool ExportController::canExport() const {
  return m_doc != nullptr && !m_exporting;
}

void ExportController::exportGlb(const QVariant& location, bool cubic, double tolerance) {
  if (!m_doc) {
    emit errorReported(tr("%1: nothing to export: no rig is loaded").arg(localPath(location)));
    return;
  }
  if (m_exporting) return;
  QString path = localPath(location);
  if (!path.endsWith(".glb") && !path.endsWith(".gltf")) path += ".glb";
  core::ExportOptions options;
  options.cubic = cubic;
  options.tolerance = tolerance;
  m_exporting = true;
  emit exportingChanged();
  emit canExportChanged();
  emit statusReported(tr("Exporting %1…").arg(QFileInfo(path).fileName()));
  auto run = m_doc->run();
  const std::string target = path.toStdString();
  m_export.setFuture(QtConcurrent::run([run, target, options] { return core::exportRun(*run, target, options); }));
}

void ExportController::waitForExport() {
  if (m_exporting) {
    m_export.waitForFinished();
    finishExport();
  }
}

void ExportController::finishExport() {
  if (!m_exporting) return;
  m_exporting = false;
  auto report = m_export.result();
  emit exportingChanged();
  emit canExportChanged();
  if (!report) {
    const QString error = QString::fromStdString(report.error().message);
    emit errorReported(error);
    emit statusReported(tr("Export failed"));
    emit exportFinished(false, error);
    return;
  }
  QString message =
      tr("Exported %1 (%2)").arg(QString::fromStdString(report->output.string()), formatBytes(qint64(report->bytes)));
  if (!report->interfacePath.empty())
    message += tr(" and %1").arg(QString::fromStdString(report->interfacePath.filename().string()));
  emit statusReported(message);
  emit exportFinished(true, message);
}

bool ExportController::savePng(const QImage& image, const QString& path) {
  // Encoded in memory (render/device/png_image.h), then written whole or not
  // at all (core/base/file_io.h).
  const auto png = render::encodePng(image);
  if (!png) {
    emit errorReported(tr("%1: cannot encode the PNG (%2)").arg(path, QString::fromStdString(png.error().message)));
    return false;
  }
  if (auto written = core::writeFileAtomically(QFile::encodeName(path).toStdString(), png.value()); !written) {
    emit errorReported(QString::fromStdString(written.error().message));
    return false;
  }
  emit statusReported(tr("Saved %1").arg(path));
  return true;
}

bool ExportController::saveScreenshot(QQuickWindow* window, const QVariant& location) {
  const QString path = localPath(location);
  if (!window) {
    emit errorReported(tr("%1: no window to capture").arg(path));
    return false;
  }
  const QImage image = window->grabWindow();
  if (image.isNull()) {
    emit errorReported(tr("%1: the window could not be captured").arg(path));
    return false;
  }
  return savePng(image, path);
}

bool ExportController::saveViewportScreenshot(QQuickItem* viewport, const QVariant& location) {
  const QString path = localPath(location);
  if (!viewport || !viewport->window()) {
    emit errorReported(tr("%1: no viewport to capture").arg(path));
    return false;
  }
  const QImage image = viewport->window()->grabWindow();
  const qreal dpr = image.devicePixelRatio();
  const QRectF rect(viewport->mapToScene(QPointF(0, 0)) * dpr, viewport->size() * dpr);
  return savePng(image.copy(rect.toAlignedRect()), path);
}

}  // namespace riglens::app
