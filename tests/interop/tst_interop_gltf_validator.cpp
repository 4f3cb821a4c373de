// The Khronos glTF-Validator (npm gltf-validator, run by node) reads the
// part .glb files core writes: zero errors. A truncated file must be
// reported as broken, which proves the validator really ran.
#include <QtTest/QtTest>

#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>

#include "riglens/core/file_io.h"
#include "riglens/core/glb_writer.h"

using namespace riglens::core;

namespace {

struct Report {
  int errors = -1;
  QString messages;
};

// Runs validate_gltf.mjs on one file and parses its JSON line.
Report validate(const QString& file) {
  const QString interop = QStringLiteral(RIGLENS_INTEROP_DIR);
  if (!QFileInfo::exists(interop + "/node_modules/gltf-validator")) {
    qWarning("gltf-validator is not installed: run tools/setup.sh --tests (npm ci in tests/interop)");
    return {};
  }
  QProcess node;
  node.setWorkingDirectory(interop);
  node.start(QStringLiteral(RIGLENS_NODE), {interop + "/validate_gltf.mjs", file});
  if (!node.waitForFinished(60000) || node.exitCode() != 0) {
    qWarning("validator run failed: %s", node.readAllStandardError().constData());
    return {};
  }
  const auto json = QJsonDocument::fromJson(node.readAllStandardOutput().trimmed()).object();
  Report report;
  report.errors = json.value("numErrors").toInt(-1);
  for (const auto& m : json.value("messages").toArray()) report.messages += m.toString() + "\n";
  return report;
}

PartMesh voxelCube() {
  // A unit voxel cube: 6 faces x 4 vertices, flat normals, one colour per face.
  PartMesh mesh;
  const float faces[6][4][3] = {
      {{1, 0, 0}, {1, 1, 0}, {1, 1, 1}, {1, 0, 1}}, {{0, 0, 1}, {0, 1, 1}, {0, 1, 0}, {0, 0, 0}},
      {{0, 1, 1}, {1, 1, 1}, {1, 1, 0}, {0, 1, 0}}, {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}},
      {{1, 0, 1}, {1, 1, 1}, {0, 1, 1}, {0, 0, 1}}, {{0, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 0, 0}}};
  const float normals[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (int f = 0; f < 6; ++f) {
    const auto base = static_cast<std::uint32_t>(mesh.vertexCount());
    for (int v = 0; v < 4; ++v) {
      mesh.positions.insert(mesh.positions.end(), faces[f][v], faces[f][v] + 3);
      mesh.normals.insert(mesh.normals.end(), normals[f], normals[f] + 3);
      mesh.colors.insert(mesh.colors.end(), {0.2f * float(f), 0.5f, 1.0f - 0.1f * float(f)});
    }
    mesh.indices.insert(mesh.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
  }
  return mesh;
}

}  // namespace

class TestInteropGltfValidator : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;

 private slots:
  void partGlbHasNoValidatorErrors() {
    const QString path = m_dir.filePath("cube.glb");
    QVERIFY(writePartGlb(voxelCube(), path.toStdString()));
    const Report report = validate(path);
    QVERIFY2(report.errors == 0, qPrintable(report.messages));
  }

  void truncatedGlbIsReportedBroken() {
    auto bytes = encodePartGlb(voxelCube());
    bytes.resize(bytes.size() / 2);
    const QString path = m_dir.filePath("truncated.glb");
    QVERIFY(writeFileAtomically(path.toStdString(), bytes));
    const Report report = validate(path);
    QVERIFY2(report.errors > 0, qPrintable(QString("errors=%1").arg(report.errors)));
  }
};

QTEST_APPLESS_MAIN(TestInteropGltfValidator)
#include "tst_interop_gltf_validator.moc"
