// The export plan and writer without external clients: key reduction keeps
// its error bound, channel kinds (STEP, CUBICSPLINE where exact, LINEAR
// otherwise), the drive claim (one node per caller joint, rotated about
// axisVector from its default, reproduces the engine's pose), scale, names,
// and refusals that leave no file behind.
#include <QtTest/QTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <glm/gtc/matrix_transform.hpp>
#include <numbers>
#include <set>

#include "rig_fixtures.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/export/curve_reduction.h"
#include "riglens/core/export/export_plan.h"
#include "riglens/core/export/gltf_export.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/pose.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/samples/sample_runs.h"

using namespace riglens::core;
using namespace riglens::samples;
namespace fs = std::filesystem;

namespace {
// The slerp check below lets consecutive unit quaternions be a quarter turn
// apart (a half turn of rotation); float32 keys move that angle by far less
// than 1e-3 rad.
constexpr double kKeyAngleMargin = 1e-3;

glm::dmat4 nodeLocal(const PlannedNode& n) {
  return glm::translate(glm::dmat4(1.0), n.translation) * glm::mat4_cast(n.rotation);
}

// World of every planned node with some joint nodes overridden.
std::vector<glm::dmat4> nodeWorlds(const ExportPlan& plan, const std::vector<PlannedNode>& nodes) {
  std::vector<glm::dmat4> worlds(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i)
    worlds[i] = nodes[i].parent < 0 ? nodeLocal(nodes[i]) : worlds[nodes[i].parent] * nodeLocal(nodes[i]);
  (void)plan;
  return worlds;
}

double worstVertexError(const LoadedRun& run, const ExportPlan& plan, const std::vector<glm::dmat4>& worlds,
                        const std::vector<glm::mat4>& engine, double scale) {
  double worst = 0;
  for (std::size_t p = 0; p < run.meshes.size(); ++p)
    for (std::size_t v = 0; v < run.meshes[p].vertexCount(); ++v) {
      const auto& baked = plan.partMeshes[p].positions;
      const auto& src = run.meshes[p].positions;
      const glm::dvec4 a = worlds[plan.partNode[p]] * glm::dvec4(baked[v * 3], baked[v * 3 + 1], baked[v * 3 + 2], 1);
      const glm::dvec4 b = glm::dmat4(engine[p]) * glm::dvec4(src[v * 3], src[v * 3 + 1], src[v * 3 + 2], 1);
      worst = std::max(worst, glm::length(glm::dvec3(a) - glm::dvec3(b) * scale));
    }
  return worst;
}

LoadedRun loadSample(const std::string& name, const fs::path& root) {
  const fs::path dir = root / name;
  if (!fs::exists(dir)) (void)writeSampleRun(*makeSampleRun(name), dir);
  auto run = loadRun(dir);
  if (!run) qFatal("%s", run.error().message.c_str());
  return std::move(run).value();
}

}  // namespace

class TestExport : public QObject {
  Q_OBJECT
  QTemporaryDir m_tmp;
  fs::path root() const { return m_tmp.path().toStdString(); }

 private slots:
  void reductionKeepsItsErrorBound() {
    std::vector<double> t, v;
    for (int i = 0; i <= 2000; ++i) {
      t.push_back(i);
      v.push_back(std::sin(i * 0.005) + 0.3 * std::sin(i * 0.021));
    }
    for (double tol : {1e-2, 1e-3, 1e-4, 1e-6}) {
      const auto kept = reduceLinearKeys(t, v, tol, 1e9);
      QCOMPARE(kept.front(), std::size_t(0));
      QCOMPARE(kept.back(), t.size() - 1);
      QVERIFY(reconstructionError(t, v, kept) <= tol);
      QVERIFY(kept.size() < t.size());
    }
    // A straight line needs two keys; a step cap splits it.
    std::vector<double> line(t.size());
    for (std::size_t i = 0; i < t.size(); ++i) line[i] = 0.01 * t[i];
    QCOMPARE(reduceLinearKeys(t, line, 1e-6, 1e9).size(), std::size_t(2));
    const auto capped = reduceLinearKeys(t, line, 1e-6, 1.5);
    for (std::size_t k = 0; k + 1 < capped.size(); ++k) QVERIFY(line[capped[k + 1]] - line[capped[k]] <= 1.5);
  }

  void callerJointsDriveOneNodeEach() {
    // The claim behind interface.json, on every sample: set the caller
    // joints, rotate/translate only their nodes from the default TRS as the
    // interface says, and every vertex lands where the engine poses it.
    for (const auto& name : bundledSampleNames()) {
      const LoadedRun run = loadSample(name, root());
      const ExportPlan plan = planExport(run, {});
      RigController controller(run.rig);
      std::vector<PlannedNode> nodes = plan.nodes;
      int driven = 0;
      for (const auto& entry : plan.interface["joints"]) {
        const double value = 0.7 * double(entry["max"]) + 0.3 * double(entry["min"]);
        QVERIFY(controller.setCaller(entry["name"].get<std::string>(), value));
        const int j = run.rig.findJoint(entry["name"].get<std::string>());
        PlannedNode& node = nodes[plan.jointNode[j]];
        QCOMPARE(node.name, entry["node"].get<std::string>());
        const glm::dvec3 axis(entry["axisVector"][0], entry["axisVector"][1], entry["axisVector"][2]);
        const double delta = value - double(entry["rest"]);
        if (entry["kind"] == "rotation")
          node.rotation = node.rotation * glm::angleAxis(delta, axis);
        else
          node.translation += axis * delta;
        ++driven;
      }
      QVERIFY(driven > 0);
      controller.setAutoPlayEnabled(false);
      controller.evaluate();
      const double worst = worstVertexError(run, plan, nodeWorlds(plan, nodes), controller.partWorlds(), 1.0);
      QVERIFY2(worst < riglens::core::tolerance::kPointVoxels,
               qPrintable(QString("%1: %2").arg(QString::fromStdString(name)).arg(worst)));
      // Default transforms alone reproduce the rest pose.
      RigController rest(run.rig);
      rest.setAutoPlayEnabled(false);
      rest.evaluate();
      QVERIFY(worstVertexError(run, plan, nodeWorlds(plan, plan.nodes), rest.partWorlds(), 1.0) <
              riglens::core::tolerance::kPointVoxels);
    }
  }

  void channelKinds() {
    const LoadedRun large = loadSample("large", root());
    ExportOptions cubic;
    cubic.cubic = true;
    const ExportPlan plan = planExport(large, cubic);
    QCOMPARE(plan.animations.front().name, std::string("spin"));  // the autoPlay idle first
    QVERIFY(plan.animations.front().autoPlay);
    for (const auto& anim : plan.animations)
      for (const auto& ch : anim.channels) {
        if (anim.name == "steps") QCOMPARE(ch.interpolation, ChannelInterpolation::Step);
        // Rotations are never cubic (not exact for quaternions).
        if (anim.name == "wave") QCOMPARE(ch.interpolation, ChannelInterpolation::Linear);
        if (ch.path == ChannelPath::Rotation && ch.interpolation == ChannelInterpolation::Linear) {
          // slerp takes the short way: consecutive keys must stay under pi apart.
          for (std::size_t k = 0; k + 1 < ch.times.size(); ++k) {
            const glm::quat a(ch.values[k * 4 + 3], ch.values[k * 4], ch.values[k * 4 + 1], ch.values[k * 4 + 2]);
            const glm::quat b(ch.values[k * 4 + 7], ch.values[k * 4 + 4], ch.values[k * 4 + 5], ch.values[k * 4 + 6]);
            QVERIFY(std::abs(glm::dot(a, b)) > std::cos(std::numbers::pi / 2 / 2 + kKeyAngleMargin));
          }
        }
      }
    // The linear spin (0 -> 2 pi over 4 s) needs a handful of keys, not 4001.
    const auto& spin = plan.animations.front().channels.front();
    QVERIFY2(spin.times.size() <= 6, qPrintable(QString::number(spin.times.size())));
    QVERIFY(spin.denseSamples > 4000);
    // The walker's bob (translation, auto-tangent Bezier) is exactly cubic.
    const LoadedRun walker = loadSample("walker-cubes", root());
    const ExportPlan walkerPlan = planExport(walker, cubic);
    bool sawCubic = false;
    for (const auto& anim : walkerPlan.animations)
      for (const auto& ch : anim.channels) {
        if (ch.interpolation == ChannelInterpolation::CubicSpline) {
          sawCubic = true;
          QCOMPARE(ch.path, ChannelPath::Translation);
          QCOMPARE(ch.values.size(), ch.times.size() * 9);
          QCOMPARE(ch.times.size(), std::size_t(5));  // 4 keys + the wrap end at the period
        }
      }
    QVERIFY(sawCubic);
  }

  void scaleMultipliesLengths() {
    const LoadedRun run = loadSample("tank-cubes", root());
    ExportOptions half;
    half.scale = 0.5;
    const ExportPlan plan = planExport(run, half);
    RigController controller(run.rig);
    controller.setAutoPlayEnabled(false);
    controller.evaluate();
    QVERIFY(worstVertexError(run, plan, nodeWorlds(plan, plan.nodes), controller.partWorlds(), 0.5) <
            riglens::core::tolerance::kPointVoxels);
    for (const auto& entry : plan.interface["joints"]) {
      const int j = run.rig.findJoint(entry["name"].get<std::string>());
      QCOMPARE(double(entry["pivot"][1]), run.rig.joints()[j].pivot[1] * 0.5);
      if (entry["kind"] == "rotation") QCOMPARE(double(entry["max"]), run.rig.joints()[j].max);  // radians stay
    }
  }

  void nodeNamesStayUnique() {
    const fs::path dir = root() / "clash";
    fs::create_directories(dir / "meshes");
    std::ofstream(dir / "rig.json") << R"({"parts":[{"name":"arm"},{"name":"hand","parent":"arm"}],"joints":[
      {"name":"hand","part":"hand","kind":"rotation","axis":"z","pivot":[1,0,0],"min":-1,"max":1,"rest":0,"drive":"caller"}]})";
    auto run = loadRun(dir);
    QVERIFY(run);
    const ExportPlan plan = planExport(*run, {});
    std::set<std::string> names;
    for (const auto& n : plan.nodes) QVERIFY2(names.insert(n.name).second, n.name.c_str());
    QCOMPARE(plan.interface["joints"][0]["node"].get<std::string>(), std::string("hand_2"));
  }

  void refusalsLeaveNothingBehind() {
    const LoadedRun run = loadSample("tank-cubes", root());
    auto badExtension = exportRun(run, root() / "out.obj");
    QVERIFY(!badExtension);
    QCOMPARE(badExtension.error().code, ErrorCode::Usage);
    ExportOptions badScale;
    badScale.scale = -1;
    QVERIFY(!exportRun(run, root() / "x.glb", badScale));
    auto missingFolder = exportRun(run, root() / "no" / "such" / "dir" / "x.glb");
    QVERIFY(!missingFolder);
    QCOMPARE(missingFolder.error().code, ErrorCode::Io);
    auto missingGltfFolder = exportRun(run, root() / "no" / "x.gltf");
    QVERIFY(!missingGltfFolder);
    QVERIFY(!fs::exists(root() / "no"));
    // A rig without caller joints writes no interface.
    const LoadedRun large = loadSample("walker-cubes", root());
    auto report = exportRun(large, root() / "walker.glb");
    QVERIFY(report);
    QVERIFY(fs::exists(report->interfacePath));
    const fs::path staticDir = root() / "static";
    fs::create_directories(staticDir);
    fs::copy_file(root() / "tank-cubes" / "meshes" / "hull.glb", staticDir / "mesh.glb");
    auto staticReport = exportRun(*loadRun(staticDir / "mesh.glb"), root() / "static.glb");
    QVERIFY(staticReport);
    QVERIFY(staticReport->interfacePath.empty());
    QVERIFY(!fs::exists(root() / "static.interface.json"));
  }
};

QTEST_APPLESS_MAIN(TestExport)
#include "tst_core_export.moc"
