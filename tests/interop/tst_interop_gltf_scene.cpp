// An animated glTF character (tests/support/gltf_scene_fixture.h: hierarchy,
// matrix node, skin, morph targets, unskinned meshes beside the skin, every
// path and interpolation) posed by `riglens-cli pose --play --time-ms --json
// --vertices` and by three.js (GLTFLoader, its keyframe interpolants,
// Mesh.getVertexPosition): every node's world matrix and every posed vertex
// must agree, at the rest pose and across both clips, inside and past their keys.
// A VRM avatar's expressions, set by `riglens-cli pose --expression` and by
// @pixiv/three-vrm, pose the same vertices.
#include <QtCore/QFile>
#include <QtCore/QFloat16>  // QCOMPARE of two json values weighs its qfloat16 overload, which needs the whole type
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtGui/QImage>
#include <QtTest/QTest>
#include <cstring>
#include <fstream>
#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "gltf_scene_fixture.h"
#include "interop_clients.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/gltf/glb_reader.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/scene_bounds.h"
#include "test_checks.h"
#include "test_paths.h"
#include "vrm_fixture.h"

using nlohmann::json;

class TestInteropGltfScene : public QObject {
  Q_OBJECT
  QTemporaryDir m_tmp;

 public:
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

  static json cliInspect(const QString& glb, QString* error) {
    QProcess process;
    process.start(QStringLiteral(RIGLENS_CLI_EXE), {"inspect", glb, "--json"});
    process.waitForFinished(60000);
    if (process.exitCode() != 0) {
      *error = QString::fromUtf8(process.readAllStandardError());
      return {};
    }
    return json::parse(process.readAllStandardOutput().toStdString());
  }

  // three.js's pose of `glb` at each (clip, seconds); an empty clip: the rest pose.
  static std::optional<json> threePosed(const QString& glb, const std::vector<std::pair<QString, double>>& evaluations,
                                        std::string* error) {
    json request{{"glb", glb.toStdString()}, {"vertices", true}, {"evaluations", json::array()}};
    for (const auto& [clip, t] : evaluations)
      request["evaluations"].push_back(clip.isEmpty() ? json::object()
                                                      : json{{"clip", clip.toStdString()}, {"time", t}});
    return riglens::test::runThreeProbe(request, error);
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
    // one), and before and after them (clamped); then 12 times across each
    // clip (wave 1.2 s, bounce 1 s) from before its start to past its end.
    std::vector<std::pair<QString, double>> evaluations{
        {"", 0.0},      {"wave", 0.0}, {"wave", 0.25},   {"wave", 0.4},   {"wave", 0.5},
        {"wave", 0.93}, {"wave", 5.0}, {"bounce", -1.0}, {"bounce", 0.3}, {"bounce", 0.75}};
    for (const auto& [clip, period] : {std::pair<QString, double>{"wave", 1.2}, {"bounce", 1.0}})
      for (int k = 0; k < 12; ++k) evaluations.emplace_back(clip, -0.1 + (period + 0.2) * k / 11.0);
    std::string error;
    const auto three = threePosed(glb, evaluations, &error);
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
          QVERIFY2(std::abs(a - b) <= riglens::core::tolerance::kFloatCoordinate,
                   qPrintable(label + QString(": %1 [%2] %3 vs three.js %4").arg(name.c_str()).arg(k).arg(a).arg(b)));
        }
      }
      // Every posed vertex: body (9, skinned and morphed), hat (3), prop (3).
      const std::vector<float> vertices = readFloats(verticesFile);
      QCOMPARE(vertices.size(), theirs["vertices"].size());
      QCOMPARE(vertices.size(), std::size_t(15 * 3));
      for (std::size_t i = 0; i < vertices.size(); ++i) {
        const double b = theirs["vertices"][i];
        QVERIFY2(std::abs(vertices[i] - b) <= riglens::core::tolerance::kFloatCoordinate,
                 qPrintable(
                     label +
                     QString(": vertex %1 axis %2: %3 vs three.js %4").arg(i / 3).arg(i % 3).arg(vertices[i]).arg(b)));
      }
    }
  }

  // A VRM avatar's expressions (tests/support/vrm_fixture.h, as VRM 0.x and
  // 1.0) set by `riglens-cli pose --expression` and by @pixiv/three-vrm
  // (VRMLoaderPlugin, the expression manager's setValue and update): the
  // same expressions found, and every posed vertex the same, for weights in
  // between, binary snaps, overrides and several expressions on one target.
  void vrmExpressionsLikeThreeVrm_data() {
    QTest::addColumn<int>("version");
    QTest::newRow("VRM 0.x") << 0;
    QTest::newRow("VRM 1.0") << 1;
  }
  void vrmExpressionsLikeThreeVrm() {
    QFETCH(int, version);
    const QString vrm = m_tmp.filePath(QString("face-%1.vrm").arg(version));
    {
      const auto bytes = riglens::test::makeVrmFace(version).glb();
      std::ofstream(vrm.toStdString(), std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    }
    const std::string surprised = version == 0 ? "Surprised" : "surprised";
    const std::vector<json> evaluations = {json::object(),
                                           {{"happy", 0.6}},
                                           {{"happy", 0.6}, {"blink", 1.0}, {"aa", 0.5}, {surprised, 0.5}},
                                           {{"wink", 0.4}, {"blink", 0.25}},
                                           {{"wink", 0.9}, {"happy", 1.0}, {surprised, 1.0}, {"aa", 1.0}}};
    json request{{"glb", vrm.toStdString()}, {"vrm", true}, {"vertices", true}, {"evaluations", json::array()}};
    for (const json& e : evaluations) request["evaluations"].push_back({{"expressions", e}});
    std::string error;
    const auto three = riglens::test::runThreeProbe(request, &error);
    QVERIFY2(three, error.c_str());
    std::set<std::string> theirNames((*three)["expressions"].begin(), (*three)["expressions"].end());
    QCOMPARE(theirNames, (std::set<std::string>{"happy", "blink", "aa", surprised, "wink"}));
    for (std::size_t e = 0; e < evaluations.size(); ++e) {
      QStringList args{"pose", vrm, "--json", "--vertices", m_tmp.filePath(QString("vrm-%1.f32").arg(e))};
      for (const auto& [name, weight] : evaluations[e].items())
        args << "--expression" << QString("%1=%2").arg(name.c_str()).arg(double(weight), 0, 'g', 17);
      QProcess process;
      process.start(QStringLiteral(RIGLENS_CLI_EXE), args);
      QVERIFY(process.waitForFinished(60000));
      QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
      const json ours = json::parse(process.readAllStandardOutput().toStdString());
      for (const auto& [name, weight] : evaluations[e].items())
        QCOMPARE(double(ours["expressions"][name]), double(weight));
      const std::vector<float> vertices = readFloats(args[4]);
      const json& theirs = (*three)["evaluations"][e]["vertices"];
      QCOMPARE(vertices.size(), std::size_t(riglens::test::kVrmFaceVertices + 2 * riglens::test::kVrmBrowVertices) * 3);
      QCOMPARE(vertices.size(), theirs.size());
      for (std::size_t i = 0; i < vertices.size(); ++i)
        QVERIFY2(std::abs(vertices[i] - double(theirs[i])) <= riglens::core::tolerance::kFloatCoordinate,
                 qPrintable(QString("%1: vertex %2 axis %3: %4 vs three-vrm %5")
                                .arg(QString::fromStdString(evaluations[e].dump()))
                                .arg(i / 3)
                                .arg(i % 3)
                                .arg(vertices[i])
                                .arg(double(theirs[i]))));
    }
  }
};

// Files written by three.js's own GLTFExporter (three_export.mjs), read by
// RigLens and by three.js's GLTFLoader: the validator finds them valid, and
// every clip at 12 times (and the rest pose) poses every vertex alike within
// 1e-4 of the model's size.
class TestInteropThreeExported : public QObject {
  Q_OBJECT
  QTemporaryDir m_tmp;
  // How much larger than the posed vertices' box the framed box may be: a
  // bone's box grows by each active target's whole delta box (interval
  // arithmetic, not per vertex), here a few percent. Summing every target at
  // weight 1, as framing did, came to 3.5x on this file.
  static constexpr float kFramingSlack = 1.25f;
  // three.js writes float32: its numbers read back within this.
  static constexpr double kThreeJsFloat = 1e-6;
  // A shape's drawn pixels' centroid vs its projected centre: its visible
  // faces are not centred on it (the box shows its top and two sides; a
  // sphere's silhouette centre shifts under perspective), a few pixels here.
  static constexpr double kCentroidPixels = 6.0;

 private slots:
  void initTestCase() {
    std::string error;
    QVERIFY2(riglens::test::exportWithThreeJs(m_tmp.path().toStdString(), &error), error.c_str());
  }

  void filesAreValid_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"skinned.glb", "morph.glb", "expressions.glb", "viewpoints.glb", "textured.glb"})
      QTest::newRow(f) << f;
  }
  void filesAreValid() {
    QFETCH(QString, file);
    const auto report = riglens::test::validateGltf(m_tmp.filePath(file).toStdString());
    QVERIFY2(report.errors == 0, report.messages.c_str());
  }

  void posedLikeThreeJs_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("skinned: bend and hop, a box on a bone, a cone beside") << "skinned.glb";
    QTest::newRow("morph: two targets, animated weights") << "morph.glb";
    QTest::newRow("expressions: 40 targets, one at a time") << "expressions.glb";
  }
  void posedLikeThreeJs() {
    QFETCH(QString, file);
    const QString glb = m_tmp.filePath(file);
    QString cliError;
    const json summary = TestInteropGltfScene::cliInspect(glb, &cliError);
    QVERIFY2(!summary.is_null(), qPrintable(cliError));
    std::vector<std::pair<QString, double>> evaluations{{"", 0.0}};
    for (const json& clip : summary["gltf"]["animations"]) {
      const double period = clip["durationMs"].get<double>() / 1000.0;
      for (int k = 0; k < 12; ++k)  // from before the first key to past the last
        evaluations.emplace_back(QString::fromStdString(clip["name"]), -0.1 + (period + 0.2) * k / 11.0);
    }
    QVERIFY(evaluations.size() > 12);
    std::string error;
    const auto three = TestInteropGltfScene::threePosed(glb, evaluations, &error);
    QVERIFY2(three, error.c_str());
    double size = 0, largestMove = 0;
    std::vector<float> rest;
    for (std::size_t e = 0; e < evaluations.size(); ++e) {
      const auto& [clip, t] = evaluations[e];
      const QString label = QString("%1 at %2 s").arg(clip.isEmpty() ? "rest" : clip).arg(t);
      const QString verticesFile = m_tmp.filePath(QString("%1-%2.f32").arg(file).arg(e));
      QVERIFY2(!TestInteropGltfScene::cliPose(glb, clip, t, verticesFile, &cliError).is_null(),
               qPrintable(label + ": " + cliError));
      const std::vector<float> ours = TestInteropGltfScene::readFloats(verticesFile);
      const json& theirs = (*three)["evaluations"][e]["vertices"];
      QCOMPARE(ours.size(), theirs.size());
      if (e == 0) {  // the model's size: its rest bounding box's diagonal
        glm::dvec3 lo(1e300), hi(-1e300);
        for (std::size_t i = 0; i < ours.size(); i += 3)
          for (int c = 0; c < 3; ++c)
            lo[c] = std::min(lo[c], double(ours[i + c])), hi[c] = std::max(hi[c], double(ours[i + c]));
        size = glm::length(hi - lo);
        QVERIFY(size > 0.5);
        rest = ours;
      }
      for (std::size_t i = 0; i < ours.size(); ++i)
        largestMove = std::max(largestMove, double(std::abs(ours[i] - rest[i])));
      for (std::size_t i = 0; i < ours.size(); ++i) {
        const double b = theirs[i];
        QVERIFY2(
            std::abs(ours[i] - b) <= riglens::core::tolerance::kFloatChain * size,
            qPrintable(label +
                       QString(": vertex %1 axis %2: %3 vs three.js %4").arg(i / 3).arg(i % 3).arg(ours[i]).arg(b)));
      }
    }
    QVERIFY2(largestMove > 0.1 * size, "the clips moved no vertex: nothing was compared in motion");
  }

  // A model whose only animation drives morph weights is framed on what it
  // shows: the box RigLens frames (core::posedBounds, as the viewer, render
  // and the grid use it) holds every vertex three.js poses, at rest and
  // through the clip, and is not much larger than their box.
  void framedOnTheMorphedGeometry() {
    const QString glb = m_tmp.filePath("expressions.glb");
    auto run = riglens::core::loadRun(glb.toStdString());
    QVERIFY2(run, run ? "" : run.error().message.c_str());
    riglens::core::RigController controller(run->rig, &run->gltf);
    QCOMPARE(controller.clips().size(), std::size_t(1));
    const double period = controller.clips()[0].periodMs / 1000.0;
    std::vector<std::pair<QString, double>> evaluations{{"", 0.0}};
    for (int k = 0; k < 8; ++k) evaluations.emplace_back("talk", period * k / 7.0);
    std::string error;
    const auto three = TestInteropGltfScene::threePosed(glb, evaluations, &error);
    QVERIFY2(three, error.c_str());
    for (std::size_t e = 0; e < evaluations.size(); ++e) {
      if (e == 1) QVERIFY(controller.play("talk"));
      if (e >= 1) controller.seekPlayable(evaluations[e].second * 1000.0);
      controller.evaluate();
      const auto framed = riglens::core::posedBounds(*run, controller.partWorlds(), controller.gltfPose());
      riglens::core::Bounds shown;
      const json& vertices = (*three)["evaluations"][e]["vertices"];
      for (std::size_t i = 0; i + 2 < vertices.size(); i += 3)
        shown.include({vertices[i].get<float>(), vertices[i + 1].get<float>(), vertices[i + 2].get<float>()});
      const QString label = QString("at %1 s").arg(evaluations[e].second);
      const float slack = riglens::core::tolerance::kFloatCoordinate;
      for (int c = 0; c < 3; ++c)
        QVERIFY2(framed.min[c] <= shown.min[c] + slack && framed.max[c] >= shown.max[c] - slack,
                 qPrintable(label + QString(": axis %1: framed %2..%3, three.js %4..%5")
                                        .arg(c)
                                        .arg(framed.min[c])
                                        .arg(framed.max[c])
                                        .arg(shown.min[c])
                                        .arg(shown.max[c])));
      QVERIFY2(
          framed.radius() <= kFramingSlack * shown.radius(),
          qPrintable(label +
                     QString(": framed radius %1, three.js's vertices %2").arg(framed.radius()).arg(shown.radius())));
    }
  }

  // viewpoints.glb's cameras and lights as three.js wrote them, and renders
  // through its cameras: the ball and the box land where the cameras'
  // parameters, as three_export.mjs sets them, project their centres.
  void theFilesCamerasAndLights() {
    const QString glb = m_tmp.filePath("viewpoints.glb");
    QString error;
    const json summary = TestInteropGltfScene::cliInspect(glb, &error);
    QVERIFY2(!summary.is_null(), qPrintable(error));
    const json& cameras = summary["gltf"]["cameras"];
    QCOMPARE(cameras.size(), std::size_t(2));
    QCOMPARE(cameras[0]["node"], "shot");
    QCOMPARE(cameras[0]["type"], "perspective");
    QCOMPARE_NEAR(cameras[0]["yfov"].get<double>(), glm::radians(40.0), kThreeJsFloat);
    QCOMPARE_NEAR(cameras[0]["aspectRatio"].get<double>(), 1.5, kThreeJsFloat);
    QCOMPARE(cameras[1]["type"], "orthographic");
    QCOMPARE_NEAR(cameras[1]["xmag"].get<double>(), 3.0, kThreeJsFloat);
    const json& lights = summary["gltf"]["lights"];
    QCOMPARE(lights.size(), std::size_t(3));
    QCOMPARE(lights[0]["type"], "directional");
    QCOMPARE(lights[1]["type"], "point");
    QCOMPARE_NEAR(lights[1]["range"].get<double>(), 8.0, kThreeJsFloat);
    QCOMPARE(lights[2]["type"], "spot");
    QCOMPARE_NEAR(lights[2]["outerConeAngle"].get<double>(), 0.5, kThreeJsFloat);

    const QSize size(600, 400);
    // shot: at (0.5, 1.5, 3) looking at (0, 0.3, -1), 40 degrees high, 3:2.
    const glm::dmat4 shotView = glm::lookAt(glm::dvec3(0.5, 1.5, 3), glm::dvec3(0, 0.3, -1), glm::dvec3(0, 1, 0));
    const glm::dmat4 shotProjection = glm::perspective(glm::radians(40.0), 1.5, 0.1, 50.0);
    // top: at (0, 8, 0.01) looking at the origin, x -3..3, y -2..2.
    const glm::dmat4 topView = glm::lookAt(glm::dvec3(0, 8, 0.01), glm::dvec3(0), glm::dvec3(0, 1, 0));
    const glm::dmat4 topProjection = glm::ortho(-3.0, 3.0, -2.0, 2.0, 0.5, 20.0);
    const auto pixelOf = [&](const glm::dmat4& view, const glm::dmat4& projection, glm::dvec3 p) {
      const glm::dvec4 clip = projection * view * glm::dvec4(p, 1.0);
      return glm::dvec2((clip.x / clip.w * 0.5 + 0.5) * size.width(), (0.5 - clip.y / clip.w * 0.5) * size.height());
    };
    struct Shot {
      const char* camera;
      glm::dvec2 ball, box;
    };
    const glm::dvec3 ball(-1, 0.25, 0), box(1, 0.5, -2);
    for (const Shot& shot :
         {Shot{"shot", pixelOf(shotView, shotProjection, ball), pixelOf(shotView, shotProjection, box)},
          Shot{"top", pixelOf(topView, topProjection, ball), {-1, -1}}}) {
      const QString png = m_tmp.filePath(QString("%1.png").arg(shot.camera));
      QProcess process;
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.insert("QT_QPA_PLATFORM", "vkkhrdisplay");  // rendering without a display
      process.setProcessEnvironment(env);
      process.start(QStringLiteral(RIGLENS_CLI_EXE), {"render", glb, "--camera", shot.camera, "--size", "600x400",
                                                      "--no-grid", "--no-axes", "--out", png});
      QVERIFY(process.waitForFinished(60000));
      QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
      const QImage image(png);
      image.save(riglens::test::outputPath(QString("three-camera-%1.png").arg(shot.camera)));
      const auto centroid = [&](auto isIt) {
        glm::dvec2 sum(0);
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
          for (int x = 0; x < image.width(); ++x)
            if (isIt(image.pixel(x, y))) sum += glm::dvec2(x + 0.5, y + 0.5), ++n;
        return n > 50 ? sum / double(n) : glm::dvec2(-1);
      };
      // The shape's pixels' centroid at its projected centre (x < 0: not checked).
      const auto lands = [&](const char* what, glm::dvec2 projected, auto isIt) {
        if (projected.x < 0) return true;
        const glm::dvec2 at = centroid(isIt);
        if (glm::distance(at, projected) < kCentroidPixels) return true;
        qWarning("%s: the %s at %g,%g, projected %g,%g", shot.camera, what, at.x, at.y, projected.x, projected.y);
        return false;
      };
      QVERIFY(lands("ball", shot.ball, [](QRgb p) { return qGreen(p) > 120 && qRed(p) < 80 && qBlue(p) < 80; }));
      QVERIFY(lands("box", shot.box, [](QRgb p) { return qRed(p) > 120 && qGreen(p) < 80 && qBlue(p) < 80; }));
    }
  }

  void texturedMaterialsAsWritten() {
    // The cut-out quad: alpha MASK at three.js's alphaTest 0.5, its texture's
    // column x = 1 transparent; the glass: BLEND at opacity 0.5. Both 4 x 4
    // checkers (texel (0, 0) yellow-ish, (1, 0) blue-ish), nearest filtered.
    auto decoded = riglens::core::readGltfFile(m_tmp.filePath("textured.glb").toStdString());
    QVERIFY2(decoded, decoded ? "" : decoded.error().message.c_str());
    QVERIFY(decoded->warnings.empty());
    const auto& m = decoded->materials;
    QCOMPARE(m.materials.size(), std::size_t(2));
    QCOMPARE(m.sections.size(), std::size_t(2));
    for (const auto& material : m.materials) {
      QVERIFY(material.image >= 0);
      const auto& image = m.images[std::size_t(material.image)];
      QCOMPARE(image.width, 4);
      QCOMPARE(image.height, 4);
      QVERIFY(!material.sampler.magLinear && !material.sampler.minLinear);
      const auto texel = [&](int x, int y) { return &image.rgba[std::size_t((y * 4 + x) * 4)]; };
      QCOMPARE(int(texel(0, 0)[0]), 230);
      QCOMPARE(int(texel(1, 0)[2]), 220);
      if (material.alphaMode == riglens::core::AlphaMode::Mask) {
        QCOMPARE(material.alphaCutoff, 0.5f);
        QVERIFY(material.doubleSided);  // side: THREE.DoubleSide
        for (int y = 0; y < 4; ++y) QCOMPARE(int(texel(1, y)[3]), 0);
        QCOMPARE(int(texel(0, 0)[3]), 255);
      } else {
        QCOMPARE(material.alphaMode, riglens::core::AlphaMode::Blend);
        QCOMPARE(material.alphaFactor, 0.5f);
      }
    }
    QVERIFY(m.materials[0].alphaMode != m.materials[1].alphaMode);
  }
};

int main(int argc, char** argv) {
  TestInteropGltfScene scene;
  TestInteropThreeExported exported;
  return QTest::qExec(&scene, argc, argv) | QTest::qExec(&exported, argc, argv);
}
#include "tst_interop_gltf_scene.moc"
