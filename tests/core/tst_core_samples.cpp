// The generated sample runs and the four meshers: deterministic output, the
// real on-disk layout that loads without a warning, closed surfaces wound
// outward (signed volume), the character each mesher promises (flat facets,
// sharp corners) and the structure the docs promise.
#include <QtTest/QTest>
#include <map>

#include "riglens/core/base/file_io.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/gltf/closed_surface.h"
#include "riglens/core/gltf/flat_faces.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/pose.h"
#include "riglens/core/rig/rig_controller.h"
#include "riglens/core/rig/run_loader.h"
#include "riglens/core/rig/scene_bounds.h"
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

// Empty when the mesh encloses between lo and hi times the volume's filled
// voxels (a smooth surface cuts corners and bulges a little); else why not.
QString volumeOutside(const PartMesh& m, const VoxelVolume& v, double lo, double hi) {
  const double volume = signedVolume(m), voxels = double(v.filledCount());
  return volume > lo * voxels && volume < hi * voxels ? QString() : QString("%1 vs %2 voxels").arg(volume).arg(voxels);
}

// The same test on positions instead of indices, for meshes whose facets
// each have their own vertices (Marching Cubes): crossings shared by two
// cubes are computed from the same samples, so they weld exactly. Facets of
// no area (a crossing on a sample) are left out.
bool watertightWelded(const PartMesh& m) {
  std::map<std::array<float, 3>, std::uint32_t> ids;
  PartMesh welded;
  for (std::size_t t = 0; t < m.indices.size(); t += 3) {
    std::uint32_t tri[3];
    for (int e = 0; e < 3; ++e) {
      const float* p = &m.positions[m.indices[t + e] * 3];
      tri[e] = ids.emplace(std::array<float, 3>{p[0], p[1], p[2]}, std::uint32_t(ids.size())).first->second;
    }
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) continue;
    welded.indices.insert(welded.indices.end(), tri, tri + 3);
  }
  return watertight(welded);
}

// How a mesher's surface is checked for holes: by index, or by position for
// meshes whose facets each have their own vertices.
enum class Joined { ByIndex, ByPosition };

// Empty when a mesher's surface of `v` is closed and wound outward: more than
// 100 triangles, watertight, and enclosing lo..hi times the filled voxels;
// else what is wrong.
QString closedAroundVolume(const PartMesh& m, const VoxelVolume& v, Joined joined, double lo, double hi) {
  if (m.triangleCount() <= 100) return QString("only %1 triangles").arg(m.triangleCount());
  if (!(joined == Joined::ByIndex ? watertight(m) : watertightWelded(m))) return "not watertight";
  return volumeOutside(m, v, lo, hi);
}

// The distance from `corner` to the nearest vertex of the mesh.
double nearestVertex(const PartMesh& m, std::array<double, 3> corner) {
  double best = 1e300;
  for (std::size_t v = 0; v < m.vertexCount(); ++v) {
    double d = 0;
    for (int a = 0; a < 3; ++a) d += std::pow(double(m.positions[v * 3 + a]) - corner[a], 2);
    best = std::min(best, std::sqrt(d));
  }
  return best;
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
    QCOMPARE_NEAR(signedVolume(m), double(v.filledCount()), riglens::core::tolerance::kFloatUnit);
    QCOMPARE(m.colors.size(), m.positions.size());
    // Interior faces are culled: a 2x1x1 bar has 10 faces, not 12.
    VoxelVolume bar(2, 1, 1);
    bar.fillBox({0, 0, 0}, {2, 1, 1}, 0xffffff);
    QCOMPARE(meshCubes(bar).triangleCount(), std::size_t(20));
  }

  void surfaceNetsIsClosedAndWoundOutward() {
    const VoxelVolume v = blob();
    const PartMesh m = meshSurfaceNets(v);
    const QString wrong = closedAroundVolume(m, v, Joined::ByIndex, 0.7, 1.1);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
  }

  void marchingCubesIsClosedFacetedAndWoundOutward() {
    const VoxelVolume v = blob();
    const PartMesh m = meshMarchingCubes(v);
    const QString wrong = closedAroundVolume(m, v, Joined::ByPosition, 0.7, 1.1);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    // Flat facets: each triangle's three vertices carry its own normal and one colour.
    QCOMPARE(m.vertexCount(), m.indices.size());
    for (std::size_t t = 0; t < m.indices.size(); t += 3) {
      const float* a = &m.positions[m.indices[t] * 3];
      const float* b = &m.positions[m.indices[t + 1] * 3];
      const float* c = &m.positions[m.indices[t + 2] * 3];
      const double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, ac[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
      const double n[3] = {ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2], ab[0] * ac[1] - ab[1] * ac[0]};
      const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      for (int e = 0; e < 3; ++e)
        for (int k = 0; k < 3; ++k) {
          QCOMPARE_NEAR(m.normals[m.indices[t + e] * 3 + k], n[k] / len, riglens::core::tolerance::kFloatChain);
          QCOMPARE(m.colors[m.indices[t + e] * 3 + k], m.colors[m.indices[t] * 3 + k]);
        }
    }
  }

  void dualContouringIsClosedAndKeepsCornersSharp() {
    const VoxelVolume v = blob();
    const PartMesh m = meshDualContouring(v);
    const QString wrong = closedAroundVolume(m, v, Joined::ByIndex, 0.8, 1.1);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    // A box's eight corners: the planes through the crossings near each meet
    // there, so a vertex sits near it; Surface Nets' averaging rounds it off.
    VoxelVolume box(8, 6, 7);
    box.fillBox({1, 1, 1}, {7, 5, 6}, 0x336699);
    const PartMesh dc = meshDualContouring(box), sn = meshSurfaceNets(box);
    QVERIFY(watertight(dc));
    for (int c = 0; c < 8; ++c) {
      const std::array<double, 3> corner = {c & 1 ? 7.0 : 1.0, c & 2 ? 5.0 : 1.0, c & 4 ? 6.0 : 1.0};
      const double sharp = nearestVertex(dc, corner), round = nearestVertex(sn, corner);
      QVERIFY2(sharp < 0.35 && sharp < 0.5 * round,
               qPrintable(QString("corner %1: dual contouring %2, surface nets %3").arg(c).arg(sharp).arg(round)));
    }
    // The faces stay flat: every vertex away from the box's edges lies on a face.
    for (std::size_t i = 0; i < dc.vertexCount(); ++i) {
      const float* p = &dc.positions[i * 3];
      const double lo[3] = {1, 1, 1}, hi[3] = {7, 5, 6};
      int onFace = 0, interior = 0;
      for (int a = 0; a < 3; ++a) {
        onFace += std::abs(p[a] - lo[a]) < riglens::core::tolerance::kPointVoxels ||
                  std::abs(p[a] - hi[a]) < riglens::core::tolerance::kPointVoxels;
        interior += p[a] > lo[a] + 1 && p[a] < hi[a] - 1;
      }
      if (interior == 2) QVERIFY2(onFace == 1, qPrintable(QString("%1 %2 %3").arg(p[0]).arg(p[1]).arg(p[2])));
    }
  }

  // isClosedOutwardSurface (hashed weld, sorted edges) against this file's
  // own checks (ordered maps, the signed volume), on every mesher and on
  // broken copies.
  void closedSurfaceCheckAgreesWithTheMeshers() {
    const VoxelVolume v = blob();
    VoxelVolume box(8, 6, 7);
    box.fillBox({1, 1, 1}, {7, 5, 6}, 0x336699);
    VoxelVolume diagonal(2, 2, 1);  // two voxels meeting along an edge: four faces on it
    diagonal.set(0, 0, 0, 0xffffff);
    diagonal.set(1, 1, 0, 0xffffff);
    const std::pair<const char*, PartMesh> meshes[] = {{"surface nets", meshSurfaceNets(v)},
                                                       {"marching cubes", meshMarchingCubes(v)},
                                                       {"dual contouring", meshDualContouring(v)},
                                                       {"cubes, blob", meshCubes(v)},
                                                       {"cubes, box", meshCubes(box)},
                                                       {"cubes, diagonal", meshCubes(diagonal)}};
    int closed = 0;
    for (const auto& [name, mesh] : meshes) {
      const bool expected = watertightWelded(mesh) && signedVolume(mesh) > 0;
      QVERIFY2(isClosedOutwardSurface(mesh) == expected, name);
      closed += expected;
    }
    QVERIFY(closed >= 4);  // the smooth meshers and the box at least
    QVERIFY(!isClosedOutwardSurface(meshCubes(diagonal)));
    PartMesh open = meshCubes(box), inside = open, flipped = open;
    open.indices.resize(open.indices.size() - 3);  // a triangle missing: a hole
    QVERIFY(!isClosedOutwardSurface(open));
    for (std::size_t t = 0; t < inside.indices.size(); t += 3) std::swap(inside.indices[t], inside.indices[t + 1]);
    QVERIFY(!isClosedOutwardSurface(inside));  // closed, but wound inward
    std::swap(flipped.indices[0], flipped.indices[1]);
    QVERIFY(!isClosedOutwardSurface(flipped));  // one triangle against its neighbours
    QVERIFY(!isClosedOutwardSurface(PartMesh{}));
  }

  // hasFlatFaces: the cube mesher gives each face its own corners (one
  // normal, one colour), the smooth meshers share vertices whose normals
  // average their faces'; copies with one corner changed are not flat.
  void flatFacesCheckAgreesWithTheMeshers() {
    const VoxelVolume v = blob();
    const PartMesh cubes = meshCubes(v);
    QVERIFY(hasFlatFaces(cubes));
    QVERIFY(!hasFlatFaces(meshSurfaceNets(v)));
    QVERIFY(!hasFlatFaces(meshDualContouring(v)));
    QVERIFY(!hasFlatFaces(PartMesh{}));
    const std::uint32_t corner = cubes.indices[1];
    PartMesh normal = cubes, color = cubes, signedZero = cubes, outOfRange = cubes;
    normal.normals[corner * 3] += 0.5f;
    color.colors[corner * 3 + 2] += 0.25f;
    for (std::size_t c = 0; c < 3; ++c)  // a zero component made -0: equal values, different bits
      if (signedZero.normals[corner * 3 + c] == 0.0f) signedZero.normals[corner * 3 + c] = -0.0f;
    outOfRange.indices.back() = std::uint32_t(cubes.vertexCount());
    QVERIFY(!hasFlatFaces(normal));
    QVERIFY(!hasFlatFaces(color));
    QVERIFY(!hasFlatFaces(signedZero));
    QVERIFY(!hasFlatFaces(outOfRange));
    // The run loader sets the flag on the parts it loads.
    auto sample = makeSampleRun("tank-cubes");
    QVERIFY(sample);
    const fs::path root = m_tmp.path().toStdString();
    QVERIFY(writeSampleRun(*sample, root / "flat-tank"));
    auto run = loadRun(root / "flat-tank");
    QVERIFY_OK(run);
    for (const PartMesh& mesh : run->meshes) QCOMPARE(mesh.flatFaces, !mesh.empty());
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
        const bool smooth = name.ends_with("-smooth") || name.ends_with("-dc");
        if (!socket && smooth) QVERIFY(watertight(run->meshes[i]));
        if (!socket && name.ends_with("-mc")) QVERIFY(watertightWelded(run->meshes[i]));
        if (!socket) QVERIFY(signedVolume(run->meshes[i]) > 0);
        // The loader marks the parts the renderer may cull (PartMesh::closed).
        const bool closed = !socket && watertightWelded(run->meshes[i]) && signedVolume(run->meshes[i]) > 0;
        QCOMPARE(run->meshes[i].closed, closed);
        if (smooth) QCOMPARE(run->meshes[i].closed, !socket);
      }
      // Poses stay finite over a whole walk cycle with everything playing.
      RigController controller(run->rig);
      if (run->rig.findAnimation("walk") != kNoIndex) QVERIFY(controller.play("walk"));
      if (run->rig.findAnimation("fire") != kNoIndex) QVERIFY(controller.play("fire"));
      for (int step = 0; step < 40; ++step) {
        controller.update(0.031);
        controller.evaluate();
        for (const auto& m : controller.partWorlds())
          for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) QVERIFY(std::isfinite(m[c][r]));
      }
    }
  }

  // posedBounds' tight loop against Bounds::include of every vertex as glm
  // places it: the same box to the bit, posed and with a mirroring part.
  void posedBoundsIsEveryVertexPlaced() {
    auto run = loadRun(fs::path(m_tmp.path().toStdString()) / "tank-cubes");
    QVERIFY_OK(run);
    RigController controller(run->rig);
    QVERIFY(controller.play("fire"));
    controller.update(0.1);
    controller.evaluate();
    std::vector<glm::mat4> worlds(controller.partWorlds().begin(), controller.partWorlds().end());
    worlds[1] = glm::mat4(-1, 0, 0, 0, 0, 0.5f, 0.25f, 0, 0, -0.25f, 0.5f, 0, 3, 4, 5, 1) * worlds[1];
    Bounds expected;
    for (std::size_t p = 0; p < run->meshes.size(); ++p) {
      const auto& pos = run->meshes[p].positions;
      for (std::size_t v = 0; v < pos.size(); v += 3)
        expected.include(glm::vec3(worlds[p] * glm::vec4(pos[v], pos[v + 1], pos[v + 2], 1.0f)));
      const auto& pivot = run->rig.parts()[p].pivot;
      expected.include(glm::vec3(worlds[p] * glm::vec4(float(pivot[0]), float(pivot[1]), float(pivot[2]), 1.0f)));
    }
    const Bounds bounds = posedBounds(*run, worlds);
    for (int a = 0; a < 3; ++a) {
      QVERIFY(bounds.min[a] == expected.min[a]);  // exactly, not QCOMPARE's fuzzy float compare
      QVERIFY(bounds.max[a] == expected.max[a]);
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
