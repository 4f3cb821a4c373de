// OBJ, STL, mesh PLY and COLLADA read through Assimp (assimp_model.h): each
// hand-written fixture's geometry, materials, node tree, skin and clip as
// the file says, checked against values worked out here from the file's
// own numbers; a 3DGS .ply still a splat scene; malformed files refused
// with the file named, the process still up.
#include <QtCore/QTemporaryDir>
#include <QtTest/QTest>
#include <array>
#include <cmath>
#include <fstream>
#include <map>

#include "model_format_fixtures.h"
#include "riglens/core/character/character_scene.h"
#include "riglens/core/gltf/glb_reader.h"
#include "riglens/core/gltf/gltf_scene.h"
#include "riglens/core/model_import/assimp_model.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/core/splats/gaussian_ply.h"
#include "test_checks.h"

using namespace riglens;

class TestCoreModelFormats : public QObject {
  Q_OBJECT
  QTemporaryDir m_tmp;

  std::filesystem::path write(const char* name, const std::string& text) {
    const std::filesystem::path path = m_tmp.filePath(name).toStdString();
    std::ofstream(path, std::ios::binary).write(text.data(), std::streamsize(text.size()));
    return path;
  }
  static bool near(const float* a, std::array<double, 3> b, double tolerance = 1e-6) {
    return std::abs(a[0] - b[0]) <= tolerance && std::abs(a[1] - b[1]) <= tolerance &&
           std::abs(a[2] - b[2]) <= tolerance;
  }

 private slots:
  void objObjectsBecomeNodesWithTheirMaterialColours() {
    write("cube.mtl", test::kCubeMtl);
    const auto path = write("cube.obj", test::kCubeObj);
    QCOMPARE(core::pickReader(path)->id, std::string_view("obj"));
    auto decoded = core::readGltfFile(path);
    QVERIFY_OK(decoded);
    std::vector<std::string> names;
    for (const auto& node : decoded->outline.nodes) names.push_back(node.name);
    QVERIFY(std::find(names.begin(), names.end(), "box") != names.end());
    QVERIFY(std::find(names.begin(), names.end(), "roof") != names.end());
    const core::PartMesh& mesh = decoded->mesh;
    QCOMPARE(mesh.indices.size(), std::size_t(13 * 3));  // 6 quads and a triangle
    // Every triangle: its corners among the file's vertices, its colour the
    // material's Kd (red on the z and y faces, blue on the x faces and the
    // roof), and (no normals in the file) flat normals along its face.
    int red = 0, blue = 0;
    for (std::size_t t = 0; t < mesh.indices.size(); t += 3) {
      const float* p[3];
      for (int c = 0; c < 3; ++c) p[c] = &mesh.positions[mesh.indices[t + std::size_t(c)] * 3];
      const float* color = &mesh.colors[mesh.indices[t] * 3];
      if (near(color, {0.8, 0.1, 0.1})) ++red;
      if (near(color, {0.1, 0.2, 0.9})) ++blue;
      const bool roof = p[0][1] >= 1 && p[1][1] >= 1 && p[2][1] >= 1 && (p[0][1] > 1 || p[1][1] > 1 || p[2][1] > 1);
      const bool xFace = !roof && p[0][0] == p[1][0] && p[1][0] == p[2][0];
      QVERIFY2(xFace || roof ? near(color, {0.1, 0.2, 0.9}) : near(color, {0.8, 0.1, 0.1}), "colour of its face");
      const std::array<double, 3> u{p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]},
          v{p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
      std::array<double, 3> n{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
      const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      for (double& x : n) x /= len;
      for (int c = 0; c < 3; ++c)
        QVERIFY2(near(&mesh.normals[mesh.indices[t + std::size_t(c)] * 3], n, 1e-5), "a flat normal");
    }
    QCOMPARE(red, 8);
    QCOMPARE(blue, 5);
    // The viewer's loader takes it as a model opened by itself.
    auto run = core::loadRun(path);
    QVERIFY_OK(run);
    QCOMPARE(run->kind, core::RunKind::StaticMesh);
    QVERIFY2(run->warnings.empty(), run->warnings.empty() ? "" : run->warnings[0].message.c_str());
  }

  void stlAndPlyMeshesReadAsWritten() {
    const auto stl = write("tet.stl", test::kTetrahedronStl);
    auto tet = core::readGltfFile(stl);
    QVERIFY_OK(tet);
    QCOMPARE(tet->mesh.indices.size(), std::size_t(12));
    for (std::size_t v = 0; v < tet->mesh.vertexCount(); ++v) {
      const float* p = &tet->mesh.positions[v * 3];
      QVERIFY(near(p, {0, 0, 0}) || near(p, {1, 0, 0}) || near(p, {0, 1, 0}) || near(p, {0, 0, 1}));
    }
    const auto ply = write("quad.ply", test::kColouredQuadPly);
    QVERIFY(core::plyDeclaresFaces(ply) && !core::opensAsCharacterScene(ply));
    QCOMPARE(core::pickReader(ply)->id, std::string_view("ply-mesh"));
    auto quad = core::readGltfFile(ply);
    QVERIFY_OK(quad);
    QCOMPARE(quad->mesh.indices.size(), std::size_t(6));
    // Each corner's colour, from the file's bytes (255 -> 1).
    const std::map<std::pair<int, int>, std::array<double, 3>> colours{
        {{0, 0}, {1, 0, 0}}, {{1, 0}, {0, 1, 0}}, {{1, 1}, {0, 0, 1}}, {{0, 1}, {1, 1, 0}}};
    for (std::size_t v = 0; v < quad->mesh.vertexCount(); ++v) {
      const float* p = &quad->mesh.positions[v * 3];
      const auto corner = colours.find({int(std::lround(p[0])), int(std::lround(p[1]))});
      QVERIFY(corner != colours.end() && p[2] == 0.0f);
      QVERIFY(near(&quad->mesh.colors[v * 3], corner->second, 1e-6));
    }
  }

  void aGaussianPlyStaysASplatScene() {
    core::RawGaussian g;
    g.position = {1, 2, 3};
    const auto bytes = core::encodeGaussianPly(std::span(&g, 1));
    const auto path = write("gaussians.ply", std::string(bytes.begin(), bytes.end()));
    QVERIFY(!core::plyDeclaresFaces(path));
    QCOMPARE(core::pickReader(path)->id, std::string_view("ply-splats"));
    QVERIFY(core::opensAsCharacterScene(path));
    auto scene = core::loadCharacterScene(path);
    QVERIFY_OK(scene);
    QCOMPARE(scene->kind, core::SceneKind::Splats);
  }

  void colladaSkinAndClipPoseAsTheFileSays_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("clip");
    // An animation without a name: Assimp calls the file's clip "animation".
    QTest::newRow("plain") << QString(test::kBendingStripDae) << "animation";
    // As Blender's COLLADA exporter writes it: the joints under an armature
    // object, and the clip an animation named after that object holding the
    // channel's animation. Assimp's glTF exporter failed on the name clash
    // (animation and node both "Armature") and the file did not open; the
    // clip is renamed "Armature animation".
    QString blender = QString(test::kBendingStripDae);
    blender.replace(
        R"(<node id="root" sid="root" name="root" type="JOINT">)",
        R"(<node id="Armature" name="Armature" type="NODE"><node id="root" sid="root" name="root" type="JOINT">)");
    blender.replace(R"(      <node id="strip" name="strip" type="NODE">)", R"(      </node>
      <node id="strip" name="strip" type="NODE">)");
    blender.replace(
        R"(<animation id="bend">)",
        R"(<animation id="action_container-Armature" name="Armature"><animation id="bend" name="Armature">)");
    blender.replace(R"(</animation>
  </library_animations>)",
                    R"(</animation></animation>
  </library_animations>)");
    QTest::newRow("Blender's exporter") << blender << "Armature animation";
    // With a shape key as well: Blender writes a morph controller over the
    // mesh and skins the controller. Assimp 5.2.5 cannot read morph
    // controllers and dropped the mesh (the file was refused: no meshes);
    // the mesh opens, skinned and posed, without its shape key.
    QTest::newRow("Blender's exporter, with a shape key")
        << QString::fromStdString(test::colladaWithShapeKey(blender.toStdString())) << "Armature animation";
  }

  // A mesh with one shape key and no armature: a morph controller
  // instanced by the node. It opens, at its base shape, and the Problems
  // panel says the shape key was left out.
  void colladaShapeKeysOpenAtTheBaseShape() {
    const auto path = write("keyed.dae", test::colladaShapeKeyWithoutSkin());
    auto run = core::loadRun(path);
    QVERIFY_OK(run);
    QCOMPARE(run->meshes.size(), std::size_t(1));
    std::vector<float> ys;
    for (std::size_t v = 0; v < run->meshes[0].vertexCount(); ++v) ys.push_back(run->meshes[0].positions[v * 3 + 1]);
    QCOMPARE(*std::max_element(ys.begin(), ys.end()), 2.0f);  // the base shape's top, not the key's (3)
    QVERIFY(std::any_of(run->warnings.begin(), run->warnings.end(), [](const core::Diagnostic& d) {
      return d.message.find("shape keys of 'strip-morph'") != std::string::npos;
    }));
  }

  void colladaSkinAndClipPoseAsTheFileSays() {
    QFETCH(QString, text);
    QFETCH(QString, clip);
    const auto path = write("strip.dae", text.toStdString());
    auto scene = core::readGltfScene(path);
    QVERIFY_OK(scene);
    QCOMPARE(scene->animations.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(scene->animations[0].name), clip);
    auto run = core::loadRun(path);
    QVERIFY_OK(run);
    QCOMPARE(run->kind, core::RunKind::SkinnedMesh);
    const std::vector<float> rest = core::gltfPosedVertices(*scene, core::gltfRestPose(*scene));
    QCOMPARE(rest.size(), std::size_t(6 * 3));
    for (double t : {0.0, 0.25, 0.5, 0.75, 1.0}) {
      // tip turns 90t degrees about z at (0, 1, 0); the upper corners (y = 2
      // at rest, bound to tip) turn with it, the lower ones stay.
      const double a = t * M_PI / 2;
      const auto posed = core::gltfPosedVertices(*scene, core::gltfSamplePose(*scene, 0, t));
      for (std::size_t v = 0; v < 6; ++v) {
        const double x = rest[v * 3], y = rest[v * 3 + 1];
        const std::array<double, 3> expected =
            y > 1 ? std::array<double, 3>{-std::sin(a) * (y - 1) + std::cos(a) * x,
                                          1 + std::cos(a) * (y - 1) + std::sin(a) * x, 0}
                  : std::array<double, 3>{x, y, 0};
        QVERIFY2(near(&posed[v * 3], expected, 1e-5), qPrintable(QString("t %1 vertex %2: (%3, %4, %5)")
                                                                     .arg(t)
                                                                     .arg(v)
                                                                     .arg(posed[v * 3])
                                                                     .arg(posed[v * 3 + 1])
                                                                     .arg(posed[v * 3 + 2])));
      }
    }
  }

  void malformedFilesAreRefusedNamingTheFile_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("expected");
    QTest::newRow("OBJ index past its vertices") << "bad.obj"
                                                 << "v 0 0 0\nv 1 0 0\nf 1 2 99\n"
                                                 << "vertex index out of range";
    QTest::newRow("empty STL") << "empty.stl"
                               << ""
                               << "File is empty";
    QTest::newRow("cut STL") << "cut.stl"
                             << "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0\n"
                             << "Assimp cannot read it";
    QTest::newRow("not FBX") << "junk.fbx"
                             << "\x01\x02 not an FBX file at all \xff"
                             << "Assimp cannot read it";
    QTest::newRow("COLLADA without a mesh") << "empty.dae"
                                            << "<COLLADA version=\"1.4.1\"></COLLADA>"
                                            << "Assimp cannot read it";
  }
  void malformedFilesAreRefusedNamingTheFile() {
    QFETCH(QString, name);
    QFETCH(QString, content);
    QFETCH(QString, expected);
    const auto path = write(qPrintable(name), content.toStdString());
    auto decoded = core::readGltfFile(path);
    QVERIFY(!decoded);
    const QString message = QString::fromStdString(decoded.error().message);
    QVERIFY2(message.contains(expected) && message.contains(QString::fromStdString(path.string())),
             qPrintable(message));
  }
};

QTEST_APPLESS_MAIN(TestCoreModelFormats)
#include "tst_core_model_formats.moc"
