// An ORL bundle as its decoders see it (contract/DECODERS.md B1, A10): the
// bundle's control names mapped onto the DNA (board spelling, GUI against
// raw, the 80% rule), the rig vector carried to the DNA in either direction,
// shell branches bound rigidly in the head's frame, and the sample ORL
// bundle decoded on the CPU with the test decoders. Expected values come
// from the sample's own tables (orl_sample_tables.h) or are computed here
// independently of the code under test.
#include <QtTest/QTest>
#include <cmath>
#include <filesystem>
#include <numbers>

#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_file.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/character/bundle.h"
#include "riglens/core/character/orl_bundle_rig.h"
#include "riglens/core/character/orl_shell.h"
#include "riglens/core/decoded/decoded_character.h"
#include "riglens/core/dna/dna_matrices.h"
#include "riglens/decode/opencv_decoder.h"
#include "riglens/samples/orl_sample.h"
#include "test_checks.h"

using namespace riglens;
using namespace riglens::core;
namespace fs = std::filesystem;
namespace tol = core::tolerance;

namespace {

const fs::path kIct = RIGLENS_DATA_DIR "/ict-face";

// The sample's character (pack + DNA), read back from its written pack.
std::shared_ptr<const OrlCharacter> sampleCharacter(const fs::path& folder) {
  auto sample = samples::makeSampleOrl(kIct);
  if (!sample) qFatal("%s", sample.error().message.c_str());
  auto bytes = samples::writeOrlPack(sample->pack);
  if (!bytes) qFatal("%s", bytes.error().message.c_str());
  const fs::path path = folder / "orl_pack.bin";
  if (auto ok = writeFileAtomically(path, *bytes); !ok) qFatal("%s", ok.error().message.c_str());
  auto c = loadOrlCharacter(path);
  if (!c) qFatal("%s", c.error().message.c_str());
  return std::make_shared<const OrlCharacter>(std::move(c).value());
}

// A GUI name in the board's spelling (what a bundle's rig_names.json lists).
std::string boardName(std::string gui) {
  for (const auto& [from, to] : {std::pair{".tx", ".translateX"}, std::pair{".ty", ".translateY"}})
    if (gui.ends_with(from)) gui.replace(gui.size() - 3, 3, to);
  return gui;
}

Expected<void> writeText(const fs::path& path, const std::string& text) {
  return writeFileAtomically(path, std::vector<std::uint8_t>(text.begin(), text.end()));
}

std::size_t indexOf(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) qFatal("no control %s", name.c_str());
  return std::size_t(it - names.begin());
}

}  // namespace

class TestOrlBundle : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  std::shared_ptr<const OrlCharacter> m_orl;

  const Dna& dna() const { return *m_orl->dna; }

 private slots:
  void initTestCase() { m_orl = sampleCharacter(m_dir.path().toStdString()); }

  void boardNamesReachTheGuiControls() {
    std::vector<std::string> names;
    for (const auto& gui : dna().guiControlNames) names.push_back(boardName(gui));
    QCOMPARE(orlDnaControlName("CTRL_C_jaw.translateY"), std::string("CTRL_C_jaw.ty"));
    QCOMPARE(orlDnaControlName("CTRL_expressions.jawOpen"), std::string("CTRL_expressions.jawOpen"));
    auto map = mapOrlControls(dna(), names, "scene.json", "/rig/control_names");
    QVERIFY_OK(map);
    QCOMPARE(map->mode, DnaControlMode::Gui);
    QCOMPARE(map->matched, names.size());
    for (std::size_t i = 0; i < names.size(); ++i) QCOMPARE(map->dnaIndex[i], int(i));
  }

  void rawNamesWinOnlyWithStrictlyMoreMatches() {
    auto raw = mapOrlControls(dna(), dna().rawControlNames, "scene.json", "/rig/control_names");
    QVERIFY_OK(raw);
    QCOMPARE(raw->mode, DnaControlMode::Raw);
    QCOMPARE(raw->matched, dna().rawCount());
    // One of each: a tie, which GUI wins; the raw name is then ignored.
    const std::vector<std::string> tie{boardName(dna().guiControlNames[0]), dna().rawControlNames[0]};
    auto map = mapOrlControls(dna(), tie, "scene.json", "/rig/control_names");
    QVERIFY_OK(map);
    QCOMPARE(map->mode, DnaControlMode::Gui);
    QCOMPARE(map->dnaIndex, (std::vector<int>{0, -1}));
    QCOMPARE(map->unmatched, std::vector<std::string>{dna().rawControlNames[0]});
  }

  void fewerThanEightyPercentMatchedIsRefused() {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < 7; ++i) names.push_back(boardName(dna().guiControlNames[i]));
    names.insert(names.end(), {"CTRL_unknown_a.ty", "CTRL_unknown_b.ty", "CTRL_unknown_c.ty"});
    auto refused = mapOrlControls(dna(), names, "scene.json", "/rig/control_names");  // 7 < floor(0.8 * 10)
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.find("scene.json") != std::string::npos &&
                 refused.error().message.find("/rig/control_names") != std::string::npos &&
                 refused.error().message.find("7 of the 10") != std::string::npos &&
                 refused.error().message.find("CTRL_unknown_a.ty") != std::string::npos,
             refused.error().message.c_str());
    names[7] = boardName(dna().guiControlNames[7]);  // 8 of 10: accepted, two ignored
    auto accepted = mapOrlControls(dna(), names, "scene.json", "/rig/control_names");
    QVERIFY_OK(accepted);
    QCOMPARE(accepted->matched, std::size_t(8));
    QCOMPARE(accepted->unmatched.size(), std::size_t(2));
  }

  void theRigVectorPosesAsTheDnaOrderDoes() {
    // The bundle lists the GUI controls backwards: the rig vector is in that order.
    std::vector<std::string> names;
    for (auto it = dna().guiControlNames.rbegin(); it != dna().guiControlNames.rend(); ++it)
      names.push_back(boardName(*it));
    auto map = mapOrlControls(dna(), names, "scene.json", "");
    QVERIFY_OK(map);
    auto rig = OrlBundleRig::create(m_orl, *map);
    QVERIFY_OK(rig);
    const std::size_t G = dna().guiControlNames.size();
    std::vector<float> gui(G, 0.0f), reversed(G, 0.0f);
    gui[indexOf(dna().guiControlNames, "CTRL_C_jaw.ty")] = 0.7f;
    gui[indexOf(dna().guiControlNames, "CTRL_L_eye.tx")] = -0.4f;
    for (std::size_t i = 0; i < G; ++i) reversed[G - 1 - i] = gui[i];
    QVERIFY_OK((*rig)->evaluate(reversed));
    auto poser = OrlPoser::create(*m_orl);
    QVERIFY_OK(poser);
    QVERIFY_OK((*poser)->evaluate(gui, DnaControlMode::Gui));
    QCOMPARE(std::vector<float>((*rig)->jointOutputs().begin(), (*rig)->jointOutputs().end()),
             std::vector<float>((*poser)->jointOutputs().begin(), (*poser)->jointOutputs().end()));
    QCOMPARE(std::vector<float>((*rig)->channelWeights().begin(), (*rig)->channelWeights().end()),
             std::vector<float>((*poser)->channelWeights().begin(), (*poser)->channelWeights().end()));
    // The viewer's GUI values back into the bundle's order.
    auto back = (*rig)->rigVectorFor(gui, DnaControlMode::Gui);
    QVERIFY_OK(back);
    QCOMPARE(*back, reversed);
    // Raw values cannot be carried back to GUI names.
    auto refused = (*rig)->rigVectorFor(std::vector<float>(dna().rawCount(), 0.0f), DnaControlMode::Raw);
    QVERIFY(!refused);
    QVERIFY(refused.error().message.find("GUI controls") != std::string::npos);
    QVERIFY(!(*rig)->evaluate(std::vector<float>(G + 1, 0.0f)));  // longer than the names: refused
  }

  void guiValuesReachARawNamedBundleThroughTheTable() {
    auto map = mapOrlControls(dna(), dna().rawControlNames, "scene.json", "");
    QVERIFY_OK(map);
    auto rig = OrlBundleRig::create(m_orl, *map);
    QVERIFY_OK(rig);
    std::vector<float> gui(dna().guiControlNames.size(), 0.0f);
    gui[indexOf(dna().guiControlNames, "CTRL_C_jaw.ty")] = 1.0f;
    gui[indexOf(dna().guiControlNames, "CTRL_C_jaw.tx")] = -0.5f;
    auto raw = (*rig)->rigVectorFor(gui, DnaControlMode::Gui);
    QVERIFY_OK(raw);
    // The sample's table: jaw.ty 0..1 -> jawOpen (slope 1); jaw.tx -1..0 -> jawLeft (slope -1).
    std::vector<float> expected(dna().rawCount(), 0.0f);
    expected[indexOf(dna().rawControlNames, "CTRL_expressions.jawOpen")] = 1.0f;
    expected[indexOf(dna().rawControlNames, "CTRL_expressions.jawLeft")] = 0.5f;
    QCOMPARE(*raw, expected);
  }

  void shellPiecesTurnRigidlyAboutTheirJoint() {
    const OrlPack& pack = *m_orl->pack;
    const std::size_t eye = indexOf(pack.jointNames, "FACIAL_L_Eye");
    const glm::dvec3 centre(orlJointWorlds(pack, {})[eye][3]);
    // A tetrahedron 1 cm around the eye, in a bundle frame of metres moved by (1, 2, 3).
    const std::vector<glm::dvec3> rigPoints{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}, {0, 0, -1}};
    VertexTransform frame;
    frame.L = {0.01f, 0, 0, 0, 0.01f, 0, 0, 0, 0.01f};
    frame.o = {1, 2, 3};
    std::vector<float> neutral;
    for (const auto& p : rigPoints)
      for (int k = 0; k < 3; ++k) neutral.push_back(float((centre[k] + p[k]) * 0.01 + frame.o[k]));
    const std::vector<std::uint32_t> faces{0, 1, 2, 0, 2, 3};
    const OrlShell shell = bindOrlShell(pack, neutral, faces, frame);
    QCOMPARE(shell.joint, std::vector<int>(4, int(eye)));
    for (std::size_t v = 0; v < 4; ++v)
      for (int k = 0; k < 3; ++k)
        QCOMPARE_NEAR(shell.rest[v * 3 + std::size_t(k)], centre[k] + rigPoints[v][k], tol::kFloatCoordinate);
    // rx = 30 degrees on the eye: each point turns about the eye's centre, about x.
    std::vector<float> outputs(pack.jointCount * 9, 0.0f);
    outputs[eye * 9 + 3] = 30.0f;
    const auto posed = poseOrlShell(pack, shell, outputs);
    const double a = 30.0 * std::numbers::pi / 180.0;
    for (std::size_t v = 0; v < 4; ++v) {
      const glm::dvec3 p = rigPoints[v];
      const glm::dvec3 turned(p.x, p.y * std::cos(a) - p.z * std::sin(a), p.y * std::sin(a) + p.z * std::cos(a));
      for (int k = 0; k < 3; ++k)
        QCOMPARE_NEAR(posed[v * 3 + std::size_t(k)], centre[k] + turned[k], tol::kFloatCoordinate);
    }
    // A piece far from every eye and teeth joint binds to none and stays at rest.
    std::vector<float> far(neutral);
    for (std::size_t i = 0; i < far.size(); i += 3) far[i] += 0.5f;  // 50 cm away
    const OrlShell loose = bindOrlShell(pack, far, faces, frame);
    QCOMPARE(loose.boundVertices(), std::size_t(0));
    QCOMPARE(poseOrlShell(pack, loose, outputs), loose.rest);
  }

  void dnaMatricesCountTheTables() {
    const auto matrices = dnaMatrices(dna());
    const auto find = [&](const std::string& prefix) {
      const auto it = std::find_if(matrices.begin(), matrices.end(),
                                   [&](const DnaMatrix& m) { return m.name.starts_with(prefix); });
      if (it == matrices.end()) qFatal("no matrix %s", prefix.c_str());
      return *it;
    };
    const DnaMatrix table = find("GUI to raw");
    QCOMPARE(table.rows, dna().guiToRaw.size());
    QCOMPARE(table.bytes, dna().guiToRaw.size() * (2 * 2 + 4 * 4));  // two u16 indices, four floats a row
    std::size_t jointValues = 0;
    for (const auto& g : dna().jointGroups) jointValues += g.values.size();
    QCOMPARE(find("joint groups").values, jointValues);
    QCOMPARE(find("blendshape channels").values, dna().blendShapeInputs.size());
  }
};

// The sample ORL bundle with the test decoders: head skinned, eyes as a shell.
class TestOrlDecoded : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  std::shared_ptr<const Bundle> m_bundle;
  std::unique_ptr<DecodedCharacter> m_character;
  Diagnostics m_notes;

 private slots:
  void initTestCase() {
    samples::SampleBundleOptions options{32, fs::path(RIGLENS_TEST_DECODERS_DIR) / "orl", false};
    QVERIFY_OK(samples::writeSampleOrlBundle(kIct, m_dir.path().toStdString(), options));
    auto bundle = loadBundle(fs::path(m_dir.path().toStdString()) / "sample-orl-bundle");
    QVERIFY_OK(bundle);
    m_bundle = std::make_shared<const Bundle>(std::move(bundle).value());
    auto c = DecodedCharacter::open(m_bundle, decode::openCvOpener(), {}, m_notes);
    QVERIFY_OK(c);
    m_character = std::move(c).value();
  }

  void theBundleNamesTheDnasGuiControls() {
    QVERIFY(m_bundle->orl != nullptr);
    QCOMPARE(m_bundle->orlControls.mode, DnaControlMode::Gui);
    QCOMPARE(m_bundle->orlControls.matched, m_bundle->orl->dna->guiControlNames.size());
    QCOMPARE(rigVectorSize(*m_bundle), m_bundle->orl->dna->guiControlNames.size());
    for (const auto& spec : m_bundle->decoders) QCOMPARE(std::size_t(spec.rigDim), rigVectorSize(*m_bundle));
  }

  void theHeadIsSkinnedAndTheEyesAreAShell() {
    const auto& branches = m_character->branches();
    QCOMPARE(branches.size(), std::size_t(2));
    QCOMPARE(branches[0].decoders.spec().name, std::string("head"));
    QVERIFY(branches[0].rigged && !branches[0].shell);
    QCOMPARE(branches[1].decoders.spec().name, std::string("eyes"));
    QVERIFY(branches[1].rigged && branches[1].shell);
    QCOMPARE(branches[1].shell->boundVertices(), branches[1].mesh->vertexCount);  // both spheres bound
    // The sample's head mesh is the rig's rest deform: the fit is the identity.
    QCOMPARE_NEAR(branches[0].calibration.scale, 1.0, tol::kFloatUnit);
    QVERIFY(branches[0].calibration.accepted());
  }

  void aJawControlMovesTheLiftedHeadAsTheDeformDoes() {
    std::vector<float> rig(rigVectorSize(*m_bundle), 0.0f);
    rig[indexOf(m_bundle->rig["control_names"].get<std::vector<std::string>>(), "CTRL_C_jaw.translateY")] = 1.0f;
    auto pose = poseRigCpu(*m_bundle, rig);
    QVERIFY_OK(pose);
    // Independently: the DNA evaluated by name, then the pack's deform.
    auto poser = DnaRig::create(m_bundle->orl->dna);
    QVERIFY_OK(poser);
    QVERIFY_OK((*poser)->evaluate(DnaControlMode::Gui, {{"CTRL_C_jaw.ty", 1.0f}}));
    auto expected = orlDeform(*m_bundle->orl->pack, (*poser)->jointOutputs(), (*poser)->blendShapeOutputs());
    QVERIFY_OK(expected);
    QCOMPARE(pose->vertices, *expected);
    const auto& head = m_character->branches()[0];
    std::vector<float> calibrated(*expected);
    applyVertexTransform(calibrated, head.calibration.transform);
    QCOMPARE(m_character->liftVertices(0, pose->vertices, pose->jointOutputs), calibrated);
    double moved = 0;
    for (std::size_t i = 0; i < calibrated.size(); ++i)
      moved = std::max(moved, double(std::abs(calibrated[i] - head.mesh->neutral[i])));
    QVERIFY2(moved > tol::kMoved, "the jaw did not move the head");
  }

  void gazeTurnsTheEyesAboutTheirJoints() {
    std::vector<float> rig(rigVectorSize(*m_bundle), 0.0f);
    rig[indexOf(m_bundle->rig["control_names"].get<std::vector<std::string>>(), "CTRL_L_eye.translateX")] = 1.0f;
    auto pose = poseRigCpu(*m_bundle, rig);
    QVERIFY_OK(pose);
    const auto rest = m_character->liftVertices(1, {}, std::vector<float>(pose->jointOutputs.size(), 0.0f));
    const auto turned = m_character->liftVertices(1, pose->vertices, pose->jointOutputs);
    const auto& eyes = *m_character->branches()[1].mesh;
    const std::size_t half = eyes.vertexCount / 2;  // the left sphere first
    double leftMoved = 0, rightMoved = 0;
    for (std::size_t v = 0; v < eyes.vertexCount; ++v)
      for (int k = 0; k < 3; ++k) {
        const double d = std::abs(turned[v * 3 + std::size_t(k)] - rest[v * 3 + std::size_t(k)]);
        (v < half ? leftMoved : rightMoved) = std::max(v < half ? leftMoved : rightMoved, d);
      }
    QVERIFY2(leftMoved > tol::kMoved, "the left eye did not turn");
    QCOMPARE_NEAR(rightMoved, 0.0, tol::kFloatCoordinate);
    // Rigid: every left-eye vertex keeps its distance from the eye joint (carried into the bundle's frame).
    const OrlPack& pack = *m_bundle->orl->pack;
    const glm::dvec3 joint(orlJointWorlds(pack, {})[indexOf(pack.jointNames, "FACIAL_L_Eye")][3]);
    VertexTransform frame = m_character->branches()[1].calibration.transform;
    frame.corr.clear();
    std::vector<float> at{float(joint.x), float(joint.y), float(joint.z)};
    applyVertexTransform(at, frame);
    const glm::dvec3 centre(at[0], at[1], at[2]);
    for (std::size_t v = 0; v < half; ++v) {
      const double r0 = glm::length(glm::dvec3(rest[v * 3], rest[v * 3 + 1], rest[v * 3 + 2]) - centre);
      const double r1 = glm::length(glm::dvec3(turned[v * 3], turned[v * 3 + 1], turned[v * 3 + 2]) - centre);
      QCOMPARE_NEAR(r1, r0, tol::kFloatCoordinate);
    }
  }

  void aControlsFileNamesTheDnasControls() {
    const fs::path file = fs::path(m_dir.path().toStdString()) / "controls.json";
    QVERIFY_OK(writeText(file, R"({"CTRL_C_jaw.ty": 0.5})"));
    auto rig = readRigVector(*m_bundle, file);
    QVERIFY_OK(rig);
    std::vector<float> expected(rigVectorSize(*m_bundle), 0.0f);
    expected[indexOf(m_bundle->rig["control_names"].get<std::vector<std::string>>(), "CTRL_C_jaw.translateY")] = 0.5f;
    QCOMPARE(*rig, expected);
    QVERIFY_OK(writeText(file, R"({"CTRL_expressions.jawOpen": 0.5})"));
    auto raw = readRigVector(*m_bundle, file);  // raw names for GUI-named decoders: refused, naming the file
    QVERIFY(!raw);
    QVERIFY2(raw.error().message.find("controls.json") != std::string::npos, raw.error().message.c_str());
  }

  void controlNamesTheDnaLacksAreRefusedAtLoad() {
    const fs::path folder = fs::path(m_dir.path().toStdString()) / "sample-orl-bundle";
    auto scene = readJsonFile(folder / "scene.json");
    QVERIFY_OK(scene);
    auto& names = (*scene)["rig"]["control_names"];
    for (std::size_t i = 0; i < names.size() / 2; ++i) names[i] = "CTRL_missing_" + std::to_string(i) + ".translateY";
    QVERIFY_OK(writeText(folder / "scene.json", scene->dump()));
    auto refused = loadBundle(folder);
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.find("/rig/control_names") != std::string::npos &&
                 refused.error().message.find("CTRL_missing_0.translateY") != std::string::npos,
             refused.error().message.c_str());
  }
};

int main(int argc, char** argv) {
  TestOrlBundle bundle;
  TestOrlDecoded decoded;
  return QTest::qExec(&bundle, argc, argv) | QTest::qExec(&decoded, argc, argv);
}
#include "tst_core_orl_bundle.moc"
