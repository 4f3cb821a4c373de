// The ORL deform against a real pack with expected vertices
// (tests/data/orl/deform-synthetic.json: 5 cases, 1e-4 cm), no accumulation
// across calls, the pack's refusals, drive modes and shell binding.
#include <QtCore/QFile>
#include <QtTest/QTest>
#include <cstring>
#include <nlohmann/json.hpp>

#include "riglens/core/base/tolerances.h"
#include "riglens/core/character/orl_pack.h"
#include "test_checks.h"

using namespace riglens::core;
using nlohmann::json;

class TestOrl : public QObject {
  Q_OBJECT
  json m_fixture;
  std::vector<std::uint8_t> m_bytes;

  double worstError(const std::vector<float>& out, const json& expected) {
    double worst = 0;
    for (std::size_t v = 0; v < out.size() / 3; ++v) {
      double d2 = 0;
      for (int k = 0; k < 3; ++k) {
        const double d = out[v * 3 + std::size_t(k)] - expected[v * 3 + std::size_t(k)].get<double>();
        d2 += d * d;
      }
      worst = std::max(worst, std::sqrt(d2));
    }
    return worst;
  }

 private slots:
  void initTestCase() {
    QFile file(QStringLiteral(RIGLENS_TEST_DATA_DIR "/orl/deform-synthetic.json"));
    QVERIFY2(file.open(QIODevice::ReadOnly), "tests/data/orl/deform-synthetic.json is missing from the source tree");
    m_fixture = json::parse(file.readAll().toStdString());
    const QByteArray pack =
        QByteArray::fromBase64(QByteArray::fromStdString(m_fixture["packBase64"].get<std::string>()));
    m_bytes.assign(pack.begin(), pack.end());
    QCOMPARE(m_bytes.size(), std::size_t(4200));
  }

  void matchesEveryReferenceCase() {
    auto pack = parseOrlPack(m_bytes, "deform-synthetic");
    QVERIFY_OK(pack);
    QCOMPARE(pack->vertexCount, std::size_t(64));
    QCOMPARE(pack->jointCount, std::size_t(6));
    const double tolerance = m_fixture["tolerance_cm"].get<double>();
    for (const auto& c : m_fixture["cases"]) {
      const auto joints = c["jointOut"].get<std::vector<float>>();
      const auto weights = c["bsOut"].get<std::vector<float>>();
      auto out = orlDeform(*pack, joints, weights);
      QVERIFY_OK(out);
      const double worst = worstError(*out, c["expected"]);
      QVERIFY2(worst <= tolerance, qPrintable(QString("%1: %2 cm").arg(QString::fromStdString(c["name"])).arg(worst)));
      if (c["name"] == "neutral")
        for (std::size_t i = 0; i < out->size(); ++i)
          QCOMPARE_NEAR((*out)[i], pack->neutral[i], riglens::core::tolerance::kPoseMatrix);
    }
    // No accumulation: the mixed case twice gives the same vertices.
    const auto& mixed = m_fixture["cases"][4];
    auto a = orlDeform(*pack, mixed["jointOut"].get<std::vector<float>>(), mixed["bsOut"].get<std::vector<float>>());
    auto b = orlDeform(*pack, mixed["jointOut"].get<std::vector<float>>(), mixed["bsOut"].get<std::vector<float>>());
    QCOMPARE(*a, *b);
  }

  void refusesBrokenPacks() {
    auto bad = m_bytes;
    bad[0] = 'X';
    QVERIFY(QString::fromStdString(parseOrlPack(bad, "p").error().message).contains("bad magic"));
    auto cut = m_bytes;
    cut.resize(4000);
    QVERIFY(QString::fromStdString(parseOrlPack(cut, "p").error().message).contains("does not match the file size"));
    QVERIFY(!parseOrlPack(std::vector<std::uint8_t>(8, 0), "p"));
    auto pack = parseOrlPack(m_bytes, "p");
    QVERIFY(!orlDeform(*pack, std::vector<float>(10, 0.0f), std::vector<float>(8, 0.0f)));
    QVERIFY(!orlDeform(*pack, std::vector<float>(54, 0.0f), std::vector<float>(3, 0.0f)));
  }

  void driveModesAndShellBinding() {
    QCOMPARE(orlDriveMode(24049), OrlDriveMode::Skin);
    QCOMPARE(orlDriveMode(4096), OrlDriveMode::Shell);
    QCOMPARE(orlDriveMode(4097), OrlDriveMode::None);
    auto pack = parseOrlPack(m_bytes, "p");
    // Name two joints as the eyes and put a piece at each (the rest world's
    // translation), a third piece far from both.
    pack->jointNames = {"root", "FACIAL_L_Eye", "FACIAL_R_Eye", "a", "b", "c"};
    const auto rest = orlJointWorlds(*pack, {});
    std::vector<float> pos;
    std::vector<std::uint32_t> faces;
    const auto addTriangle = [&](glm::dvec3 c) {
      const auto base = std::uint32_t(pos.size() / 3);
      for (glm::dvec3 o : {glm::dvec3(0.1, 0, 0), glm::dvec3(0, 0.1, 0), glm::dvec3(0, 0, 0.1)})
        for (int k = 0; k < 3; ++k) pos.push_back(float((c + o)[k]));
      faces.insert(faces.end(), {base, base + 1, base + 2});
    };
    addTriangle(glm::dvec3(rest[1][3]));
    addTriangle(glm::dvec3(rest[2][3]) + glm::dvec3(0.5, 0, 0));
    addTriangle(glm::dvec3(rest[1][3]) + glm::dvec3(50, 0, 0));
    const auto binding = orlShellBinding(*pack, pos, faces);
    QCOMPARE(binding, (std::vector<int>{1, 1, 1, 2, 2, 2, -1, -1, -1}));
  }
};

QTEST_APPLESS_MAIN(TestOrl)
#include "tst_core_orl.moc"
