// The generated sample runs and the two meshers: deterministic output, the
// real on-disk layout that loads without a warning, closed surfaces wound
// outward (signed volume), and the structure the docs promise.
#include <QtTest/QtTest>
#include <map>

#include "riglens/core/base/file_io.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/rig/pose.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/samples/sample_runs.h"
#include "riglens/samples/voxel_meshers.h"
#include "test_checks.h"

using namespace riglens::core;
using namespace riglens::samples;
namespace fs = std::filesystem;

namespace {

// Signed volume by the divergence theorem: positive when triangles wind
// counter-clockwise seen from outside.
double signedVolume(const PartMesh& m) {
  double v = 0;
  for (std::size_t t = 0; t < m.indices.size(); t += 3) {
    const float* a = &m.positions[m.indices[t] * 3];
    const float* b = &m.positions[m.indices[t + 1] * 3];
    const float* c = &m.positions[m.indices[t + 2] * 3];
    v += (double(a[0]) * (double(b[1]) * c[2] - double(b[2]) * c[1]) -
          double(a[1]) * (double(b[0]) * c[2] - double(b[2]) * c[0]) +
          double(a[2]) * (double(b[0]) * c[1] - double(b[1]) * c[0])) /
         6.0;
  }
  return v;
}

// Every directed edge appears once and its reverse once: closed and
// consistently oriented.
bool watertight(const PartMesh& m) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
  for (std::size_t t = 0; t < m.indices.size(); t += 3)
    for (int e = 0; e < 3; ++e) ++edges[{m.indices[t + e], m.indices[t + (e + 1) % 3]}];
  for (const auto& [edge, count] : edges)
    if (count != 1 || edges.count({edge.second, edge.first}) == 0) return false;
  return true;
}

VoxelVolume blob() {
  VoxelVolume v(12, 10, 9);
  v.fillEllipsoid({6, 5, 4.5}, {5, 4, 3.5}, 0x884422);
  v.fillBox({2, 0, 2}, {4, 3, 4}, 0x224488);  // a leg touching the body
  v.fillBox({5, 4, 0}, {7, 6, 2}, 0x448822);  // a two-voxel snout
  return v;
}

}  // namespace

class TestSamples : public QObject {
  Q_OBJECT
  QTemporaryDir m_tmp;

 private slots:
  void cubeMesherEnclosesExactlyTheVoxels() {
    const VoxelVolume v = blob();
    const PartMesh m = meshCubes(v);
    QVERIFY(std::abs(signedVolume(m) - double(v.filledCount())) < riglens::core::tolerance::kFloatUnit);
    QCOMPARE(m.colors.size(), m.positions.size());
    // Interior faces are culled: a 2x1x1 bar has 10 faces, not 12.
    VoxelVolume bar(2, 1, 1);
    bar.fillBox({0, 0, 0}, {2, 1, 1}, 0xffffff);
    QCOMPARE(meshCubes(bar).triangleCount(), std::size_t(20));
  }

  void surfaceNetsIsClosedAndWoundOutward() {
    const VoxelVolume v = blob();
    const PartMesh m = meshSurfaceNets(v);
    QVERIFY(m.triangleCount() > 100);
    QVERIFY(watertight(m));
    const double volume = signedVolume(m);
    QVERIFY2(volume > 0.7 * double(v.filledCount()) && volume < 1.1 * double(v.filledCount()),
             qPrintable(QString("%1 vs %2 voxels").arg(volume).arg(v.filledCount())));
  }

  void bundledSamplesLoadCleanly() {
    const fs::path root = m_tmp.path().toStdString();
    for (const auto& name : bundledSampleNames()) {
      auto sample = makeSampleRun(name);
      QVERIFY(sample);
      QVERIFY(writeSampleRun(*sample, root / name));
      auto run = loadRun(root / name);
      QVERIFY_OK(run);
      QVERIFY2(run->warnings.empty(), run->warnings.empty() ? "" : run->warnings[0].describe().c_str());
      QCOMPARE(run->meshes.size(), run->rig.parts().size());
      for (std::size_t i = 0; i < run->meshes.size(); ++i) {
        const bool socket = run->rig.parts()[i].name == "muzzle";
        QCOMPARE(run->meshes[i].empty(), socket);
        if (!socket && name.find("smooth") != std::string::npos) QVERIFY(watertight(run->meshes[i]));
        if (!socket) QVERIFY(signedVolume(run->meshes[i]) > 0);
      }
      // Poses stay finite over a whole walk cycle with everything playing.
      RigController controller(run->rig);
      if (run->rig.findAnimation("walk") != kNoIndex) QVERIFY(controller.play("walk"));
      if (run->rig.findAnimation("fire") != kNoIndex) QVERIFY(controller.play("fire"));
      for (int step = 0; step < 40; ++step) {
        controller.update(0.031);
        for (const auto& m : controller.partWorlds())
          for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) QVERIFY(std::isfinite(m[c][r]));
      }
    }
  }

  void tankHasTheDocumentedRig() {
    auto tank = loadRun(fs::path(m_tmp.path().toStdString()) / "tank-cubes");
    QVERIFY(tank);
    const Rig& rig = tank->rig;
    QCOMPARE(rig.jointNames(Drive::Caller), (std::vector<std::string>{"turret_yaw", "gun_pitch"}));
    QCOMPARE(rig.jointNames(Drive::Auto), (std::vector<std::string>{"gun_recoil", "radar_spin"}));
    const auto& fire = rig.animations()[rig.findAnimation("fire")];
    QVERIFY(!fire.looping && !fire.autoPlay);
    bool explicitHandles = false, easePreset = false;
    for (const auto& track : fire.tracks)
      for (const auto& key : track.keyframes) {
        explicitHandles |= key.outHandle.has_value() && key.inHandle.has_value();
        easePreset |= key.interp == Interp::EaseOut || key.interp == Interp::EaseInOut;
      }
    QVERIFY(explicitHandles && easePreset);
    QVERIFY(rig.animations()[rig.findAnimation("radar")].autoPlay);
    auto walker = loadRun(fs::path(m_tmp.path().toStdString()) / "walker-smooth");
    QVERIFY(walker);
    const int lower = walker->rig.findPart("leg_l_lower"), upper = walker->rig.findPart("leg_l_upper");
    QVERIFY(lower < upper);  // declared before its parent
    QCOMPARE(walker->rig.parts()[lower].parent, upper);
    QVERIFY(walker->rig.animations()[walker->rig.findAnimation("walk")].looping);
  }

  void generationIsDeterministic() {
    const fs::path a = fs::path(m_tmp.path().toStdString()) / "a", b = fs::path(m_tmp.path().toStdString()) / "b";
    QVERIFY(writeSampleRun(*makeSampleRun("walker-smooth"), a));
    QVERIFY(writeSampleRun(*makeSampleRun("walker-smooth"), b));
    for (const auto& entry : fs::recursive_directory_iterator(a)) {
      if (!entry.is_regular_file()) continue;
      const auto rel = fs::relative(entry.path(), a);
      QCOMPARE(*readFileBytes(entry.path()), *readFileBytes(b / rel));
    }
    QVERIFY(!makeSampleRun("nope"));
  }
};

QTEST_APPLESS_MAIN(TestSamples)
#include "tst_core_samples.moc"
