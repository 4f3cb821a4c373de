// riglens-cli compare: two generated runs that differ in one part's
// geometry (the hull moved 2 units up in its own space), one joint's range
// and one clip's duration; `compare --json` lists exactly those, each part's
// vertex distances equal the ones this test computes from the two meshes,
// and the exit code gates (0 same, 1 different, 2 usage).
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "riglens/core/gltf/glb_writer.h"
#include "riglens/core/open/asset_readers.h"
#include "run_program.h"

using riglens::test::ProgramRun;
using riglens::test::runProgram;
namespace fs = std::filesystem;

namespace {

const QString kCli = QStringLiteral(RIGLENS_CLI_EXE);

// The hull's vertices are float32 up to ~40 units from the origin: moving
// them by 2 and back rounds each coordinate by at most half an ulp at 64
// (4e-6); the distances agree to a few of those.
constexpr double kFloatDistance = 2e-5;
constexpr double kHullShift = 2.0;

QJsonObject compareJson(const QStringList& args, int* exitCode) {
  const ProgramRun run = runProgram(kCli, QStringList{"compare"} + args + QStringList{"--json"});
  *exitCode = run.exitCode;
  return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

QStringList strings(const QJsonValue& value) {
  QStringList out;
  for (const auto& v : value.toArray()) out << v.toString();
  return out;
}

}  // namespace

class TestAppCompare : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  QString m_a, m_b;
  double m_hullMax = 0, m_hullMean = 0;  // computed here from the two meshes

 private slots:
  void initTestCase() {
    QVERIFY(runProgram(kCli, {"samples", "--out", m_dir.filePath("a"), "--name", "tank-cubes"}).exitCode == 0);
    m_a = m_dir.filePath("a/tank-cubes");
    m_b = m_dir.filePath("b");
    fs::copy(m_a.toStdString(), m_b.toStdString(), fs::copy_options::recursive);
    // B: the hull moved up in its own space, turret_yaw's max narrowed, fire lengthened.
    auto run = riglens::core::loadRun(m_a.toStdString());
    QVERIFY(run);
    riglens::core::PartMesh hull = run->meshes[0];
    double sum = 0;
    for (std::size_t v = 1; v < hull.positions.size(); v += 3) {
      const float before = hull.positions[v];
      hull.positions[v] = float(before + kHullShift);
      const double moved = double(hull.positions[v]) - double(before);
      m_hullMax = std::max(m_hullMax, moved);
      sum += moved;
    }
    m_hullMean = sum / double(hull.positions.size() / 3);
    QVERIFY(riglens::core::writePartGlb(hull, (fs::path(m_b.toStdString()) / "meshes/hull.glb")));
    const fs::path rigPath = fs::path(m_b.toStdString()) / "rig.json";
    auto rig = nlohmann::json::parse(std::ifstream(rigPath));
    for (auto& joint : rig["joints"])
      if (joint["name"] == "turret_yaw") joint["max"] = 1.0;
    for (auto& clip : rig["animations"])
      if (clip["name"] == "fire") clip["periodMs"] = 900;
    std::ofstream(rigPath) << rig.dump(1);
  }

  void listsExactlyWhatDiffers() {
    int code = 0;
    const QJsonObject facts = compareJson({m_a, m_b}, &code);
    QCOMPARE(code, 1);
    QCOMPARE(strings(facts["parts"]["added"]), QStringList{});
    QCOMPARE(strings(facts["parts"]["removed"]), QStringList{});
    QCOMPARE(facts["parts"]["triangles"].toArray().size(), 0);
    const QJsonArray joints = facts["joints"]["changed"].toArray();
    QCOMPARE(joints.size(), 1);
    QCOMPARE(joints[0]["joint"].toString(), QString("turret_yaw"));
    QCOMPARE(joints[0]["field"].toString(), QString("max"));
    QCOMPARE(joints[0]["b"].toDouble(), 1.0);
    const QJsonArray clips = facts["clips"]["changed"].toArray();
    QCOMPARE(clips.size(), 1);
    QCOMPARE(clips[0]["clip"].toString(), QString("fire"));
    QCOMPARE(clips[0]["field"].toString(), QString("periodMs"));
    QCOMPARE(clips[0]["a"].toDouble(), 600.0);
    QCOMPARE(clips[0]["b"].toDouble(), 900.0);
    for (const auto& value : facts["distances"].toArray()) {
      const QJsonObject part = value.toObject();
      const bool hull = part["part"].toString() == "hull";
      QVERIFY2(std::abs(part["max"].toDouble() - (hull ? m_hullMax : 0.0)) < kFloatDistance,
               qPrintable(part["part"].toString()));
      QVERIFY2(std::abs(part["mean"].toDouble() - (hull ? m_hullMean : 0.0)) < kFloatDistance,
               qPrintable(part["part"].toString()));
    }
    // No corner of the box can move further than the furthest vertex did.
    const double corner = facts["bounds"]["cornerDistance"].toDouble();
    QVERIFY2(corner <= m_hullMax + kFloatDistance, qPrintable(QString::number(corner)));
    const QStringList differences = strings(facts["differences"]);
    // The joint, the clip, the hull's vertices (and the box, if it moved).
    QCOMPARE(differences.size(), corner > 0 ? 4 : 3);
    QVERIFY(differences.filter("turret_yaw").size() == 1 && differences.filter("fire").size() == 1 &&
            differences.filter("hull").size() == 1 && differences.filter("bounds").size() == (corner > 0 ? 1 : 0));
  }

  void theSameRunIsTheSame() {
    int code = -1;
    const QJsonObject facts = compareJson({m_a, m_a, "--play", "fire", "--time-ms", "300"}, &code);
    QCOMPARE(code, 0);
    QCOMPARE(strings(facts["differences"]), QStringList{});
    QVERIFY(!facts["differs"].toBool());
  }

  // Distances at or under --tolerance do not count; structure always does.
  void theToleranceGatesDistancesOnly() {
    int code = 0;
    const QJsonObject facts = compareJson({m_a, m_b, "--tolerance", "3"}, &code);
    QCOMPARE(code, 1);
    QCOMPARE(strings(facts["differences"]).filter("hull").size(), 0);
    QCOMPARE(strings(facts["differences"]).size(), 2 + (facts["bounds"]["cornerDistance"].toDouble() > 3 ? 1 : 0));
  }

  void aRemovedPartIsNamed() {
    const fs::path c = fs::path(m_dir.filePath("c").toStdString());
    fs::copy(m_a.toStdString(), c, fs::copy_options::recursive);
    auto rig = nlohmann::json::parse(std::ifstream(c / "rig.json"));
    auto& parts = rig["parts"];
    parts.erase(std::remove_if(parts.begin(), parts.end(), [](const auto& p) { return p["name"] == "radar"; }),
                parts.end());
    auto& joints = rig["joints"];
    joints.erase(std::remove_if(joints.begin(), joints.end(), [](const auto& j) { return j["part"] == "radar"; }),
                 joints.end());
    std::ofstream(c / "rig.json") << rig.dump(1);
    int code = 0;
    const QJsonObject facts = compareJson({m_a, QString::fromStdString(c.string())}, &code);
    QCOMPARE(code, 1);
    QCOMPARE(strings(facts["parts"]["removed"]), QStringList{"radar"});
    QCOMPARE(strings(facts["joints"]["removed"]), QStringList{"radar_spin"});
  }

  void usageErrors() {
    QCOMPARE(runProgram(kCli, {"compare", m_a}).exitCode, 2);
    QCOMPARE(runProgram(kCli, {"compare", m_a, m_b, "--tolerance", "-1"}).exitCode, 2);
    const ProgramRun missing = runProgram(kCli, {"compare", m_a, m_dir.filePath("nowhere")});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY(missing.err.contains("nowhere"));
  }
};

QTEST_MAIN(TestAppCompare)
#include "tst_app_compare.moc"
