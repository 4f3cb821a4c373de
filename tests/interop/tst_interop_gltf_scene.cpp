// An animated glTF character (tests/support/gltf_scene_fixture.h: hierarchy,
// matrix node, skin, morph targets, unskinned meshes beside the skin, every
// path and interpolation) posed by `riglens-cli pose --play --time-ms --json
// --vertices` and by three.js (GLTFLoader, its keyframe interpolants,
// Mesh.getVertexPosition): every node's world matrix and every posed vertex
// must agree, at the rest pose and across both clips, inside and past their keys.
#include <QtCore/QFile>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "gltf_scene_fixture.h"
#include "interop_clients.h"

using nlohmann::json;

class TestInteropGltfScene : public QObject {
  Q_OBJECT
  QTemporaryDir m_tmp;

  static json cliPose(const QString& glb, const QString& clip, double seconds, const QString& verticesFile,
                      QString* error) {
    QStringList args{"pose", glb, "--json", "--vertices", verticesFile};
    if (!clip.isEmpty()) args << "--play" << clip << "--time-ms" << QString::number(seconds * 1000.0, 'g', 17);
    QProcess process;
    process.start(QStringLiteral(RIGLENS_CLI_EXE), args);
    process.waitForFinished(60000);
    if (process.exitCode() != 0) {
      *error = QString::fromUtf8(process.readAllStandardError());
      return {};
    }
    return json::parse(process.readAllStandardOutput().toStdString());
  }

  static std::vector<float> readFloats(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QByteArray bytes = file.readAll();
    std::vector<float> out(std::size_t(bytes.size()) / 4);
    std::memcpy(out.data(), bytes.constData(), out.size() * 4);
    return out;
  }

 private slots:
  void posedLikeThreeJs() {
    const QString glb = m_tmp.filePath("character.glb");
    {
      const auto bytes = riglens::test::makeAnimatedCharacter().glb();
      std::ofstream(glb.toStdString(), std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    }
    // (clip, seconds): the rest pose, inside the keys (between them and on
    // one), and before and after them (clamped).
    const std::vector<std::pair<QString, double>> evaluations{
        {"", 0.0},      {"wave", 0.0}, {"wave", 0.25},   {"wave", 0.4},   {"wave", 0.5},
        {"wave", 0.93}, {"wave", 5.0}, {"bounce", -1.0}, {"bounce", 0.3}, {"bounce", 0.75}};
    json request{{"glb", glb.toStdString()}, {"vertices", true}, {"evaluations", json::array()}};
    for (const auto& [clip, t] : evaluations)
      request["evaluations"].push_back(clip.isEmpty() ? json::object()
                                                      : json{{"clip", clip.toStdString()}, {"time", t}});
    std::string error;
    const auto three = riglens::test::runThreeProbe(request, &error);
    QVERIFY2(three, error.c_str());
    QCOMPARE((*three)["animations"], json({"wave", "bounce"}));

    for (std::size_t e = 0; e < evaluations.size(); ++e) {
      const auto& [clip, t] = evaluations[e];
      const QString label = QString("%1 at %2 s").arg(clip.isEmpty() ? "rest" : clip).arg(t);
      QString cliError;
      const QString verticesFile = m_tmp.filePath(QString("vertices-%1.f32").arg(e));
      const json ours = cliPose(glb, clip, t, verticesFile, &cliError);
      QVERIFY2(!ours.is_null(), qPrintable(label + ": " + cliError));
      const json& theirs = (*three)["evaluations"][e];
      // Every node's world matrix.
      QCOMPARE(ours["nodes"].size(), std::size_t(7));
      for (const json& node : ours["nodes"]) {
        const std::string name = node["name"];
        QVERIFY2(theirs["worlds"].contains(name), name.c_str());
        for (int k = 0; k < 16; ++k) {
          const double a = node["world"][k], b = theirs["worlds"][name][k];
          QVERIFY2(std::abs(a - b) <= 1e-5,
                   qPrintable(label + QString(": %1 [%2] %3 vs three.js %4").arg(name.c_str()).arg(k).arg(a).arg(b)));
        }
      }
      // Every posed vertex: body (9, skinned and morphed), hat (3), prop (3).
      const std::vector<float> vertices = readFloats(verticesFile);
      QCOMPARE(vertices.size(), theirs["vertices"].size());
      QCOMPARE(vertices.size(), std::size_t(15 * 3));
      for (std::size_t i = 0; i < vertices.size(); ++i) {
        const double b = theirs["vertices"][i];
        QVERIFY2(std::abs(vertices[i] - b) <= 1e-5,
                 qPrintable(
                     label +
                     QString(": vertex %1 axis %2: %3 vs three.js %4").arg(i / 3).arg(i % 3).arg(vertices[i]).arg(b)));
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestInteropGltfScene)
#include "tst_interop_gltf_scene.moc"
