// The Khronos glTF-Validator (npm gltf-validator, run by node) reads the
// part .glb files core writes and the fixtures the reader's tests build
// (materials with textures, KHR_texture_transform and unlit; a meshopt
// compressed grid): zero errors, so the reader is tested on valid files. A
// truncated file must be reported as broken, which proves the validator
// really ran.
#include <QtTest/QTest>

#include "draco_fixture.h"
#include "gltf_material_fixture.h"
#include "gltf_scene_fixture.h"
#include "interop_clients.h"
#include "meshopt_fixture.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/gltf/glb_writer.h"

using namespace riglens::core;

namespace {

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
    const auto report = riglens::test::validateGltf(path.toStdString());
    QVERIFY2(report.errors == 0, report.messages.c_str());
  }

  void theReadersFixturesAreValid_data() {
    QTest::addColumn<QString>("name");
    QTest::newRow("materials") << "materials";
    QTest::newRow("meshopt") << "meshopt";
    QTest::newRow("character") << "character";
    QTest::newRow("draco") << "draco";  // sparse targets, CUBICSPLINE, matrix node
  }
  void theReadersFixturesAreValid() {
    QFETCH(QString, name);
    std::vector<std::uint8_t> bytes;
    if (name == "materials") {
      bytes = riglens::test::makeMaterialShowcase().glb();
    } else if (name == "draco") {
      const auto terrain = riglens::test::dracoTerrain();
      bytes = riglens::test::assembleGlb(terrain.doc, terrain.bin);
    } else if (name == "character") {
      bytes = riglens::test::makeAnimatedCharacter().glb();
    } else {
      const auto grid = riglens::test::meshoptGrid();
      bytes = riglens::test::assembleGlb(grid.doc, grid.bin);
    }
    const QString path = m_dir.filePath(name + ".glb");
    QVERIFY(writeFileAtomically(path.toStdString(), bytes));
    const auto report = riglens::test::validateGltf(path.toStdString());
    QVERIFY2(report.errors == 0, report.messages.c_str());
  }

  void truncatedGlbIsReportedBroken() {
    auto bytes = encodePartGlb(voxelCube());
    bytes.resize(bytes.size() / 2);
    const QString path = m_dir.filePath("truncated.glb");
    QVERIFY(writeFileAtomically(path.toStdString(), bytes));
    const auto report = riglens::test::validateGltf(path.toStdString());
    QVERIFY2(report.errors > 0,
             qPrintable(QString("errors=%1 %2").arg(report.errors).arg(QString::fromStdString(report.messages))));
  }
};

QTEST_APPLESS_MAIN(TestInteropGltfValidator)
#include "tst_interop_gltf_validator.moc"
