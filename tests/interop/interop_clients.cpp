#include "interop_clients.h"

#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>

namespace riglens::test {
namespace {

const QString kNodeDir = QStringLiteral(RIGLENS_INTEROP_NODE_DIR);

bool packagesInstalled(std::string* error) {
  if (QFileInfo::exists(kNodeDir + "/node_modules/gltf-validator") &&
      QFileInfo::exists(kNodeDir + "/node_modules/three") &&
      QFileInfo::exists(kNodeDir + "/node_modules/@pixiv/three-vrm") &&
      QFileInfo::exists(kNodeDir + "/node_modules/puppeteer-core"))
    return true;
  *error = "the interop node packages are not installed in " + kNodeDir.toStdString() +
           ": run tools/setup.sh --tests (npm ci there)";
  return false;
}

bool runNode(const QStringList& args, QByteArray* out, std::string* error) {
  QProcess node;
  node.setWorkingDirectory(kNodeDir);
  node.start(QStringLiteral(RIGLENS_NODE), args);
  if (!node.waitForFinished(180000) || node.exitStatus() != QProcess::NormalExit || node.exitCode() != 0) {
    *error = "node " + args.join(' ').toStdString() + " failed: " + node.readAllStandardError().toStdString();
    return false;
  }
  *out = node.readAllStandardOutput();
  return true;
}

}  // namespace

ValidatorReport validateGltf(const std::string& file) {
  ValidatorReport report;
  if (!packagesInstalled(&report.messages)) return report;
  QByteArray out;
  if (!runNode({kNodeDir + "/validate_gltf.mjs", QString::fromStdString(file)}, &out, &report.messages)) return report;
  const auto json = nlohmann::json::parse(out.toStdString(), nullptr, false);
  if (!json.is_object()) {
    report.messages = "unreadable validator output: " + out.toStdString();
    return report;
  }
  report.errors = json.value("numErrors", -1);
  for (const auto& m : json["messages"]) report.messages += m.get<std::string>() + "\n";
  return report;
}

std::optional<nlohmann::json> runThreeProbe(const nlohmann::json& request, std::string* error) {
  if (!packagesInstalled(error)) return std::nullopt;
  QTemporaryDir dir;
  const QString path = dir.filePath("request.json");
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) {
    *error = "cannot write " + path.toStdString();
    return std::nullopt;
  }
  file.write(QByteArray::fromStdString(request.dump()));
  file.close();
  QByteArray out;
  if (!runNode({kNodeDir + "/three_probe.mjs", path}, &out, error)) return std::nullopt;
  auto json = nlohmann::json::parse(out.toStdString(), nullptr, false);
  if (json.is_discarded()) {
    *error = "unreadable three_probe output";
    return std::nullopt;
  }
  return json;
}

bool exportWithThreeJs(const std::string& folder, std::string* error) {
  if (!packagesInstalled(error)) return false;
  QByteArray out;
  return runNode({kNodeDir + "/three_export.mjs", QString::fromStdString(folder)}, &out, error);
}

std::optional<nlohmann::json> browseReviewPage(const std::string& reportDir, const std::string& screenshot,
                                               std::string* error) {
  if (!packagesInstalled(error)) return std::nullopt;
  QByteArray out;
  if (!runNode({kNodeDir + "/review_page.mjs", QString::fromStdString(reportDir), QString::fromStdString(screenshot)},
               &out, error))
    return std::nullopt;
  auto json = nlohmann::json::parse(out.toStdString(), nullptr, false);
  if (!json.is_object()) {
    *error = "unreadable review_page.mjs output: " + out.toStdString();
    return std::nullopt;
  }
  return json;
}

}  // namespace riglens::test
