// The exported GLB as real clients read it:
// - the Khronos glTF-Validator: 0 errors for every sample, .gltf, --cubic,
//   a static model and a socket-only rig;
// - three.js GLTFLoader (node): for every sample and clip at 24 times, every
//   vertex placed by three's node world x the file's baked geometry equals the
//   engine's posed vertex within 1e-4 of the model's size; and driving each
//   caller joint through interface.json reproduces `riglens-cli pose --set`;
// - Assimp: node names and hierarchy, mesh and animation counts;
// - the engine's own loader: triangle counts and colours unchanged.
#include <assimp/scene.h>
#include <tiny_gltf.h>

#include <QtCore/QProcess>
#include <QtTest/QTest>
#include <algorithm>
#include <array>
#include <assimp/Importer.hpp>
#include <filesystem>
#include <fstream>

#include "interop_clients.h"
#include "riglens/core/export/export_plan.h"
#include "riglens/core/export/gltf_export.h"
#include "riglens/core/gltf/glb_writer.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/pose.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/samples/sample_runs.h"
#include "test_checks.h"

using namespace riglens::core;
using namespace riglens::samples;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// The model's size: the diagonal of its rest bounds. Tolerances are relative to it.
double modelSize(const LoadedRun& run) {
  glm::dvec3 lo(1e30), hi(-1e30);
  for (const auto& m : run.meshes)
    for (std::size_t v = 0; v < m.vertexCount(); ++v)
      for (int c = 0; c < 3; ++c) {
        lo[c] = std::min(lo[c], double(m.positions[v * 3 + c]));
        hi[c] = std::max(hi[c], double(m.positions[v * 3 + c]));
      }
  return glm::length(hi - lo);
}

// node name -> baked positions, read back from the exported file with tinygltf.
std::map<std::string, std::vector<float>> bakedGeometry(const fs::path& glb) {
  tinygltf::Model model;
  tinygltf::TinyGLTF loader;
  std::string err, warn;
  std::map<std::string, std::vector<float>> out;
  if (!loader.LoadBinaryFromFile(&model, &err, &warn, glb.string())) return out;
  for (const auto& node : model.nodes) {
    if (node.mesh < 0) continue;
    const auto& acc = model.accessors[model.meshes[node.mesh].primitives[0].attributes.at("POSITION")];
    const auto& view = model.bufferViews[acc.bufferView];
    const float* data =
        reinterpret_cast<const float*>(model.buffers[view.buffer].data.data() + view.byteOffset + acc.byteOffset);
    out[node.name].assign(data, data + acc.count * 3);
  }
  return out;
}

glm::dmat4 matrixFrom(const json& elements) {
  glm::dmat4 m;
  for (int k = 0; k < 16; ++k) m[k / 4][k % 4] = elements[k].get<double>();
  return m;
}

// Largest distance between three's placement and the engine's, over every vertex.
double worstVertexError(const LoadedRun& run, const std::map<std::string, std::vector<float>>& baked,
                        const json& worlds, const std::vector<glm::mat4>& engineWorlds) {
  double worst = 0;
  for (std::size_t p = 0; p < run.meshes.size(); ++p) {
    const auto& mesh = run.meshes[p];
    if (mesh.empty()) continue;
    const std::string& name = run.rig.parts()[p].name;
    const auto geometry = baked.find(name);
    if (geometry == baked.end() || !worlds.contains(name)) return 1e30;
    const glm::dmat4 three = matrixFrom(worlds[name]);
    const glm::dmat4 engine(engineWorlds[p]);
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
      const glm::dvec4 a =
          three * glm::dvec4(geometry->second[v * 3], geometry->second[v * 3 + 1], geometry->second[v * 3 + 2], 1);
      const glm::dvec4 b =
          engine * glm::dvec4(mesh.positions[v * 3], mesh.positions[v * 3 + 1], mesh.positions[v * 3 + 2], 1);
      worst = std::max(worst, glm::length(glm::dvec3(a - b)));
    }
  }
  return worst;
}

struct CliRun {
  int exitCode = -1;
  QString out, err;
};

CliRun cli(const QStringList& args) {
  QProcess process;
  process.start(QStringLiteral(RIGLENS_CLI_EXE), args);
  process.waitForFinished(120000);
  return {process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
          QString::fromUtf8(process.readAllStandardError())};
}

}  // namespace

class TestInteropExport : public QObject {
  Q_OBJECT
  QTemporaryDir m_tmp;
  fs::path root() const { return m_tmp.path().toStdString(); }

 private slots:
  void initTestCase() {
    for (const auto& name : bundledSampleNames()) QVERIFY(writeSampleRun(*makeSampleRun(name), root() / "runs" / name));
    fs::create_directories(root() / "out");
  }

  void samplesValidateAndPlayInThreeJs_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<bool>("cubic");
    for (const auto& name : bundledSampleNames()) {
      QTest::newRow(name.c_str()) << QString::fromStdString(name) << false;
      QTest::newRow((name + " cubic").c_str()) << QString::fromStdString(name) << true;
    }
  }
  void samplesValidateAndPlayInThreeJs() {
    QFETCH(QString, sample);
    QFETCH(bool, cubic);
    auto run = loadRun(root() / "runs" / sample.toStdString());
    QVERIFY(run);
    const fs::path glb = root() / "out" / (sample.toStdString() + (cubic ? "-cubic" : "") + ".glb");
    ExportOptions options;
    options.cubic = cubic;
    auto report = exportRun(*run, glb, options);
    QVERIFY_OK(report);

    const auto validation = riglens::test::validateGltf(glb.string());
    QVERIFY2(validation.errors == 0, validation.messages.c_str());

    // Every clip at 24 times over its period, the clip alone (as a glTF
    // engine plays one animation): the engine poses the same clip with no
    // caller values and no autoPlay layer underneath.
    json request = {
        {"glb", glb.string()}, {"interface", report->interfacePath.string()}, {"evaluations", json::array()}};
    struct Expected {
      int clip;
      double timeMs;
    };
    std::vector<Expected> expectations;
    for (std::size_t a = 0; a < run->rig.animations().size(); ++a) {
      const auto& anim = run->rig.animations()[a];
      for (int i = 0; i < 24; ++i) {
        const double t = anim.periodMs * i / 23.0;
        request["evaluations"].push_back({{"clip", anim.name}, {"time", t / 1000.0}});
        expectations.push_back({int(a), t});
      }
    }
    std::string error;
    auto answer = riglens::test::runThreeProbe(request, &error);
    QVERIFY2(answer, error.c_str());
    QCOMPARE((*answer)["animations"].size(), run->rig.animations().size());
    const auto baked = bakedGeometry(glb);
    QVERIFY(!baked.empty());
    const double tolerance = 1e-4 * modelSize(*run);
    for (std::size_t e = 0; e < expectations.size(); ++e) {
      const auto values = layeredJointValues(run->rig, {}, 0, false, expectations[e].clip, expectations[e].timeMs);
      const auto worlds = poseRig(run->rig, values);
      const double worst = worstVertexError(*run, baked, (*answer)["evaluations"][e]["worlds"], worlds);
      QVERIFY2(worst <= tolerance,
               qPrintable(QString("%1 at %2 ms: %3 > %4")
                              .arg(QString::fromStdString(run->rig.animations()[expectations[e].clip].name))
                              .arg(expectations[e].timeMs)
                              .arg(worst)
                              .arg(tolerance)));
    }
  }

  void interfaceDrivesReproduceCliPose_data() {
    QTest::addColumn<QString>("sample");
    for (const auto& name : bundledSampleNames()) QTest::newRow(name.c_str()) << QString::fromStdString(name);
  }
  void interfaceDrivesReproduceCliPose() {
    QFETCH(QString, sample);
    const fs::path runPath = root() / "runs" / sample.toStdString();
    const fs::path glb = root() / "out" / (sample.toStdString() + "-drive.glb");
    const CliRun exported =
        cli({"export", QString::fromStdString(runPath.string()), "--out", QString::fromStdString(glb.string())});
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
    const fs::path ifacePath = root() / "out" / (sample.toStdString() + "-drive.interface.json");
    std::ifstream ifaceFile(ifacePath);
    const json iface = json::parse(ifaceFile);
    QVERIFY(!iface["joints"].empty());
    auto run = loadRun(runPath);
    QVERIFY(run);
    // Each caller joint alone at min, max and a point inside; then all at once.
    std::vector<std::vector<std::pair<std::string, double>>> drives;
    for (const auto& j : iface["joints"]) {
      const double lo = j["min"], hi = j["max"];
      for (double f : {0.0, 1.0, 0.37}) drives.push_back({{j["name"].get<std::string>(), lo + (hi - lo) * f}});
    }
    std::vector<std::pair<std::string, double>> all;
    for (const auto& j : iface["joints"])
      all.emplace_back(j["name"].get<std::string>(), 0.8 * double(j["max"]) + 0.2 * double(j["min"]));
    drives.push_back(all);

    json request = {{"glb", glb.string()}, {"interface", ifacePath.string()}, {"evaluations", json::array()}};
    for (const auto& drive : drives) {
      json d = json::object();
      for (const auto& [name, value] : drive) d[name] = value;
      request["evaluations"].push_back({{"drive", d}});
    }
    std::string error;
    auto answer = riglens::test::runThreeProbe(request, &error);
    QVERIFY2(answer, error.c_str());
    const auto baked = bakedGeometry(glb);
    const double tolerance = 1e-4 * modelSize(*run);
    for (std::size_t e = 0; e < drives.size(); ++e) {
      QStringList args{"pose", QString::fromStdString(runPath.string()), "--json"};
      for (const auto& [name, value] : drives[e])
        args << "--set" << QString("%1=%2").arg(QString::fromStdString(name)).arg(value, 0, 'g', 17);
      const CliRun pose = cli(args);
      QVERIFY2(pose.exitCode == 0, qPrintable(pose.err));
      const json doc = json::parse(pose.out.toStdString());
      std::vector<glm::mat4> worlds;
      for (const auto& part : doc["parts"]) {
        glm::mat4 m;
        for (int k = 0; k < 16; ++k) m[k / 4][k % 4] = part["world"][k].get<float>();
        worlds.push_back(m);
      }
      const double worst = worstVertexError(*run, baked, (*answer)["evaluations"][e]["worlds"], worlds);
      QVERIFY2(worst <= tolerance, qPrintable(QString("drive %1: %2 > %3").arg(e).arg(worst).arg(tolerance)));
    }
  }

  void assimpSeesTheSameTree() {
    auto run = loadRun(root() / "runs" / "walker-cubes");
    QVERIFY(run);
    const fs::path glb = root() / "out" / "walker-assimp.glb";
    QVERIFY(exportRun(*run, glb));
    const ExportPlan plan = planExport(*run, {});
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(glb.string(), 0);
    QVERIFY2(scene, importer.GetErrorString());
    QCOMPARE(scene->mNumAnimations, unsigned(plan.animations.size()));
    QCOMPARE(scene->mNumMeshes, unsigned(run->meshes.size()));
    for (const auto& node : plan.nodes) {
      const aiNode* found = scene->mRootNode->FindNode(node.name.c_str());
      QVERIFY2(found, node.name.c_str());
      const std::string parent = node.parent >= 0 ? plan.nodes[node.parent].name : std::string();
      if (!parent.empty()) QCOMPARE(std::string(found->mParent->mName.C_Str()), parent);
      QCOMPARE(found->mNumMeshes > 0, node.part >= 0 && !plan.partMeshes[node.part].empty());
    }
    for (unsigned a = 0; a < scene->mNumAnimations; ++a)
      QCOMPARE(std::string(scene->mAnimations[a]->mName.C_Str()), plan.animations[a].name);
  }

  void roundTripKeepsTrianglesAndColours() {
    for (const auto& name : bundledSampleNames()) {
      auto run = loadRun(root() / "runs" / name);
      QVERIFY(run);
      const fs::path glb = root() / "out" / (name + "-roundtrip.glb");
      QVERIFY(exportRun(*run, glb));
      auto back = loadRun(glb);
      QVERIFY_OK(back);
      std::size_t triangles = 0;
      std::vector<std::array<float, 3>> before, after;
      for (const auto& m : run->meshes) {
        triangles += m.triangleCount();
        for (std::size_t v = 0; v < m.vertexCount(); ++v)
          before.push_back({m.colors[v * 3], m.colors[v * 3 + 1], m.colors[v * 3 + 2]});
      }
      QCOMPARE(back->meshes[0].triangleCount(), triangles);
      const auto& m = back->meshes[0];
      for (std::size_t v = 0; v < m.vertexCount(); ++v)
        after.push_back({m.colors[v * 3], m.colors[v * 3 + 1], m.colors[v * 3 + 2]});
      std::sort(before.begin(), before.end());
      std::sort(after.begin(), after.end());
      QVERIFY(before == after);
    }
  }

  void staticModelSocketsAndGltfPairValidate() {
    // A static mesh.glb exports one mesh and no animation.
    auto tank = loadRun(root() / "runs" / "tank-cubes");
    const fs::path staticDir = root() / "static";
    fs::create_directories(staticDir);
    QVERIFY(writePartGlb(tank->meshes[0], staticDir / "mesh.glb"));
    auto staticRun = loadRun(staticDir / "mesh.glb");
    QVERIFY(staticRun);
    auto staticReport = exportRun(*staticRun, root() / "out" / "static.glb");
    QVERIFY(staticReport);
    QCOMPARE(staticReport->meshes, std::size_t(1));
    QCOMPARE(staticReport->animations, std::size_t(0));
    QVERIFY(staticReport->interfacePath.empty());
    // A rig whose only part is a socket: a node with extras.socket, no buffers.
    const fs::path socketDir = root() / "socket";
    fs::create_directories(socketDir / "meshes");
    std::ofstream(socketDir / "rig.json") << R"({"parts":[{"name":"muzzle","pivot":[0,0,0]}],"joints":[]})";
    QVERIFY(writePartGlb(PartMesh{}, socketDir / "meshes" / "muzzle.glb"));
    auto socketRun = loadRun(socketDir);
    QVERIFY(socketRun);
    QVERIFY(exportRun(*socketRun, root() / "out" / "socket.glb"));
    // .gltf + .bin
    auto gltfReport = exportRun(*tank, root() / "out" / "tank.gltf");
    QVERIFY_OK(gltfReport);
    QVERIFY(fs::exists(root() / "out" / "tank.bin"));
    for (const char* file : {"static.glb", "socket.glb", "tank.gltf"}) {
      const auto validation = riglens::test::validateGltf((root() / "out" / file).string());
      QVERIFY2(validation.errors == 0, (std::string(file) + ": " + validation.messages).c_str());
    }
    // Nothing temporary is left beside the outputs.
    for (const auto& entry : fs::directory_iterator(root() / "out"))
      QVERIFY2(entry.path().filename().string().find("tmp") == std::string::npos, entry.path().c_str());
  }
};

QTEST_APPLESS_MAIN(TestInteropExport)
#include "tst_interop_export.moc"
