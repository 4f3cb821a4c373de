// engine/core foundations: Expected, JSON reading with file-naming errors,
// the matrix op the GPU kernel mirrors, and the per-part .glb writer.
#include <tiny_gltf.h>

#include <QtTest/QTest>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <glm/gtc/matrix_transform.hpp>

#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_file.h"
#include "riglens/core/base/point_transform.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/gltf/glb_writer.h"
#include "riglens/core/open/document_files.h"
#include "test_checks.h"

using namespace riglens::core;
namespace fs = std::filesystem;

namespace {

// One cube face (two triangles) with distinct colours: a minimal part.
PartMesh quadMesh() {
  PartMesh mesh;
  mesh.positions = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  mesh.normals = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
  mesh.colors = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
  mesh.indices = {0, 1, 2, 0, 2, 3};
  return mesh;
}

}  // namespace

class TestCoreFoundation : public QObject {
  Q_OBJECT

 private slots:
  void parsesJsonDocument() {
    auto doc = parseJson(R"({"parts": [{"name": "hull", "pivot": [16, 0, 16]}]})", "rig.json");
    QVERIFY(doc.hasValue());
    QCOMPARE((*doc)["parts"][0]["name"].get<std::string>(), std::string("hull"));
    QCOMPARE((*doc)["parts"][0]["pivot"][2].get<int>(), 16);
  }

  void refusesMalformedJsonNamingTheSource() {
    auto doc = parseJson(R"({"parts": [)", "runs/tank/rig.json");
    QVERIFY(!doc.hasValue());
    QCOMPARE(doc.error().code, ErrorCode::Parse);
    const QString message = QString::fromStdString(doc.error().message);
    QVERIFY2(message.startsWith("runs/tank/rig.json: not valid JSON"), qPrintable(message));
    QVERIFY2(message.contains("line 1"), qPrintable(message));
  }

  void malformedJsonKeepsTheByteWhereParsingStopped() {
    // `{"a": }`: the value is missing; the parser stops at the '}', byte 7 counted from 1.
    auto doc = parseJson(R"({"a": })", "a.json");
    QVERIFY(!doc);
    QCOMPARE(doc.error().file, std::string("a.json"));
    QVERIFY(doc.error().byteOffset.has_value());
    QCOMPARE(*doc.error().byteOffset, std::uint64_t(7));
  }

  void gpuFailuresHaveTheirOwnCode() {
    QCOMPARE(errorCodeName(ErrorCode::Gpu), std::string_view("gpu"));
    QCOMPARE(makeError(ErrorCode::Gpu, "the sort GPU frame failed").describe(),
             std::string("gpu: the sort GPU frame failed"));
  }

  void reportsMissingFileAsIoError() {
    auto doc = readJsonFile("/nonexistent/riglens/rig.json");
    QVERIFY(!doc.hasValue());
    QCOMPARE(doc.error().code, ErrorCode::Io);
    QVERIFY(QString::fromStdString(doc.error().message).contains("/nonexistent/riglens/rig.json"));
  }

  void readsJsonFileFromDisk() {
    QTemporaryDir dir;
    const fs::path path = dir.filePath("rig.json").toStdString();
    const std::string text = R"({"joints": [{"name": "turret_yaw", "min": -3.14159}]})";
    QVERIFY(writeFileAtomically(path, {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()}));
    auto doc = readJsonFile(path);
    QVERIFY(doc.hasValue());
    QCOMPARE((*doc)["joints"][0]["min"].get<double>(), -3.14159);
  }

  void atomicWriteLeavesNothingOnFailure() {
    QTemporaryDir dir;
    const fs::path path = fs::path(dir.path().toStdString()) / "missing-folder" / "out.glb";
    const std::array<std::uint8_t, 3> bytes{1, 2, 3};
    auto written = writeFileAtomically(path, bytes);
    QVERIFY(!written.hasValue());
    QCOMPARE(written.error().code, ErrorCode::Io);
    QVERIFY(QString::fromStdString(written.error().message).contains("out.glb"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size(), 0);
  }

  // Files written together: the second cannot be written (its folder is
  // missing), so the first keeps its previous bytes and no temp is left.
  void filesWrittenTogetherAllOrNone() {
    QTemporaryDir dir;
    const fs::path first = fs::path(dir.path().toStdString()) / "model.glb";
    const std::array<std::uint8_t, 3> previous{9, 9, 9}, bytes{1, 2, 3};
    QVERIFY(writeFileAtomically(first, previous));
    const std::array<FileToWrite, 2> files{
        {{first, bytes}, {fs::path(dir.path().toStdString()) / "missing-folder" / "model.interface.json", bytes}}};
    auto written = writeFilesAtomically(files);
    QVERIFY(!written.hasValue());
    QVERIFY(QString::fromStdString(written.error().message).contains("model.interface.json"));
    QFile kept(QString::fromStdString(first.string()));
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), QByteArray("\x09\x09\x09"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList{"model.glb"});
    const std::array<FileToWrite, 2> both{{{first, bytes}, {fs::path(dir.path().toStdString()) / "b.json", bytes}}};
    QVERIFY(writeFilesAtomically(both));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), (QStringList{"b.json", "model.glb"}));
  }

  void transformsPointsByColumnMajorMatrix() {
    // A quarter turn about +y then a translation: (1,0,0) -> (0,0,-1) + t.
    const glm::mat4 m =
        glm::rotate(glm::translate(glm::mat4(1.0f), {10.0f, 20.0f, 30.0f}), glm::radians(90.0f), glm::vec3(0, 1, 0));
    // Column-major: the translation sits in the fourth column.
    QCOMPARE(m[3][0], 10.0f);
    const std::array<glm::vec4, 2> in{glm::vec4(1, 0, 0, 1), glm::vec4(0, 0, 1, 0)};
    std::array<glm::vec4, 2> out{};
    transformPoints(m, in, out);
    const glm::vec4 expected0(10, 20, 29, 1);
    const glm::vec4 expected1(1, 0, 0, 0);  // w = 0: a direction ignores translation
    for (int c = 0; c < 4; ++c) {
      QCOMPARE_NEAR(out[0][c], expected0[c], tolerance::kPointVoxels);
      QCOMPARE_NEAR(out[1][c], expected1[c], tolerance::kPointVoxels);
    }
  }

  void writesPartGlbThatTinyGltfReadsBack() {
    const PartMesh mesh = quadMesh();
    const auto bytes = encodePartGlb(mesh);
    tinygltf::Model model;
    tinygltf::TinyGLTF loader;
    std::string err, warn;
    QVERIFY2(loader.LoadBinaryFromMemory(&model, &err, &warn, bytes.data(), static_cast<unsigned>(bytes.size())),
             err.c_str());
    QCOMPARE(model.meshes.size(), std::size_t(1));
    const auto& primitive = model.meshes[0].primitives.at(0);
    QCOMPARE(primitive.mode, TINYGLTF_MODE_TRIANGLES);
    const auto& position = model.accessors.at(primitive.attributes.at("POSITION"));
    QCOMPARE(position.count, std::size_t(4));
    QCOMPARE(position.maxValues, (std::vector<double>{1, 1, 0}));
    QCOMPARE(model.accessors.at(primitive.attributes.at("COLOR_0")).type, TINYGLTF_TYPE_VEC3);
    const auto& indices = model.accessors.at(primitive.indices);
    QCOMPARE(indices.componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT);
    QCOMPARE(model.bufferViews.at(indices.bufferView).target, 34963);
    // The colour bytes survive exactly.
    const auto& colors = model.accessors.at(primitive.attributes.at("COLOR_0"));
    const auto& view = model.bufferViews.at(colors.bufferView);
    const float* stored = reinterpret_cast<const float*>(model.buffers[0].data.data() + view.byteOffset);
    for (std::size_t i = 0; i < mesh.colors.size(); ++i) QCOMPARE(stored[i], mesh.colors[i]);
  }

  void writesSocketExactlyAsTheMeshersDo() {
    const auto bytes = encodePartGlb(PartMesh{});
    QVERIFY(bytes.size() > 20);
    QCOMPARE(std::string(bytes.begin(), bytes.begin() + 4), std::string("glTF"));
    // Last 8 bytes: a BIN chunk header of length 0 (what real sockets carry).
    const std::vector<std::uint8_t> tail(bytes.end() - 8, bytes.end());
    QCOMPARE(tail, (std::vector<std::uint8_t>{0, 0, 0, 0, 'B', 'I', 'N', 0}));
    const std::string json(bytes.begin() + 20, bytes.end() - 8);
    auto doc = parseJson(json, "socket.glb");
    QVERIFY(doc.hasValue());
    QVERIFY((*doc)["meshes"].empty());
    QCOMPARE((*doc)["asset"]["generator"].get<std::string>(), std::string("test-cabinet"));
  }

  // The files a document is made of (live reload's watch, review's hash):
  // a folder's files; a rig.json's folder; a .gltf with the buffers and
  // images it names beside itself (percent-encoded, data URIs, escapes and
  // missing files left out); and stamps that change when a file is rewritten.
  void documentFilesListWhatADocumentReads() {
    namespace fs = std::filesystem;
    QTemporaryDir dir;
    const fs::path root = dir.path().toStdString();
    const auto write = [](const fs::path& path, const std::string& text) {
      fs::create_directories(path.parent_path());
      std::ofstream(path, std::ios::binary) << text;
    };
    write(root / "run/rig.json", "{}");
    write(root / "run/meshes/hull.glb", "glb");
    write(root / "model/a b.bin", "bin");
    write(root / "model/tex.png", "png");
    write(root / "outside.bin", "no");
    write(root / "model/scene.gltf",
          R"({"buffers":[{"uri":"a%20b.bin"},{"uri":"data:application/octet-stream;base64,AAAA"},)"
          R"({"uri":"../outside.bin"},{"uri":"gone.bin"}],"images":[{"uri":"tex.png"}]})");
    const std::vector<fs::path> run{root / "run/meshes/hull.glb", root / "run/rig.json"};
    QCOMPARE(riglens::core::documentFiles(root / "run"), run);
    QCOMPARE(riglens::core::documentFiles(root / "run/rig.json"), run);
    const std::vector<fs::path> model{root / "model/a b.bin", root / "model/scene.gltf", root / "model/tex.png"};
    QCOMPARE(riglens::core::documentFiles(root / "model/scene.gltf"), model);
    QCOMPARE(riglens::core::documentFiles(root / "outside.bin"), std::vector<fs::path>{root / "outside.bin"});

    const auto before = riglens::core::stampFiles(run);
    QVERIFY(before[1].exists && before[1].size == 2);
    QCOMPARE(riglens::core::stampFiles(run), before);
    write(root / "run/rig.json", "{ }");
    const auto after = riglens::core::stampFiles(run);
    QVERIFY(after[1].size == 3 && after != before);
    fs::remove(root / "run/meshes/hull.glb");
    QVERIFY(!riglens::core::stampFiles(run)[0].exists);
  }
};

QTEST_APPLESS_MAIN(TestCoreFoundation)
#include "tst_core_foundation.moc"
