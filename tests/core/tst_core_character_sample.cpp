// The sample character built from the real ICT-FaceKit face: the pack parses,
// GNM on it equals an independent straightforward evaluation written here
// (dense loops, double precision, fp16 decoded bit by bit), gaze and joints
// behave; bundles: the real myra scene.json, the sample bundle, the schema-1
// layout, branch meshes and their refusals.
#include <QtCore/QFile>
#include <QtTest/QTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "riglens/core/base/file_io.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/character/bundle.h"
#include "riglens/core/character/character_scene.h"
#include "riglens/core/character/expressions.h"
#include "riglens/core/character/gnm.h"
#include "riglens/core/character/head_ext.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/samples/character_sample.h"
#include "riglens/samples/gaussian_samples.h"
#include "riglens/samples/gnm_bake.h"
#include "test_checks.h"

using namespace riglens::core;
using namespace riglens::samples;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path kIct = RIGLENS_DATA_DIR "/ict-face";

// binary16 decoded from its fields, independent of the engine's converter.
double halfValue(std::uint16_t h) {
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (e == 0) return sign * std::ldexp(m, -24);
  return sign * std::ldexp(1024 + m, e - 25);
}

}  // namespace

class TestCharacterSample : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  std::optional<AosRigPack> m_pack;

 private slots:
  void initTestCase() {
    QVERIFY2(fs::exists(kIct / "neutral.f32"), "data/ict-face is missing from the source tree");
    auto ok = writeSampleCharacter(kIct, m_dir.path().toStdString());
    QVERIFY_OK(ok);
    auto pack = readAosRig((fs::path(m_dir.path().toStdString()) / "sample-face.aosrig").string());
    QVERIFY_OK(pack);
    m_pack = std::move(pack).value();
    QCOMPARE(m_pack->vertexCount, std::size_t(9409));
    QCOMPARE(m_pack->coeffCount, std::size_t(53));
    QCOMPARE(m_pack->faces.size(), std::size_t(18460 * 3));
  }

  void gnmMatchesAStraightforwardEvaluation() {
    const AosRigPack& p = *m_pack;
    const std::size_t V = p.vertexCount, E = p.coeffCount;
    std::vector<float> controls(std::size_t(p.headExt.dim), 0.0f);
    for (std::size_t c = 0; c < E; c += 7) controls[c] = 0.1f * float(c % 10) - 0.3f;
    controls[E + 0] = 0.2f;   // left pitch
    controls[E + 3] = -0.3f;  // right yaw
    auto engine = gnmForward(p, controls);
    QVERIFY(engine);
    auto threaded = gnmForward(p, controls, 4);
    QVERIFY(threaded);
    QCOMPARE(*threaded, *engine);  // the vertex split changes nothing
    // Dense reference: every coefficient, no skipping, fp16 by its fields.
    std::vector<double> ref(V * 3);
    for (std::size_t v = 0; v < V; ++v)
      for (int k = 0; k < 3; ++k) {
        double x = p.neutral[v * 3 + std::size_t(k)];
        for (std::size_t c = 0; c < E; ++c)
          x += double(controls[c]) * p.basisScale[c] * halfValue(p.basisHalf[(v * E + c) * 3 + std::size_t(k)]);
        ref[v * 3 + std::size_t(k)] = x;
      }
    for (int e = 0; e < 2; ++e) {
      const double pitch = controls[E + std::size_t(2 * e)], yaw = controls[E + std::size_t(2 * e + 1)];
      // R = Rx(pitch) * Ry(yaw), written out.
      const double cp = std::cos(pitch), sp = std::sin(pitch), cy = std::cos(yaw), sy = std::sin(yaw);
      const double R[3][3] = {{cy, 0, sy}, {sp * sy, cp, -sp * cy}, {-cp * sy, sp, cp * cy}};
      for (std::size_t v = 0; v < V; ++v) {
        const double w = p.eyeWeights[std::size_t(e) * V + v];
        if (w == 0) continue;
        double d[3];
        for (int k = 0; k < 3; ++k) d[k] = ref[v * 3 + std::size_t(k)] - p.eyePositions[std::size_t(e * 3 + k)];
        for (int r = 0; r < 3; ++r)
          ref[v * 3 + std::size_t(r)] += w * (R[r][0] * d[0] + R[r][1] * d[1] + R[r][2] * d[2] - d[r]);
      }
    }
    double worst = 0;
    for (std::size_t i = 0; i < V * 3; ++i) worst = std::max(worst, std::abs((*engine)[i] - ref[i]));
    // float accumulation over 53 terms of ~1e-2 m: ~1e-8 m; 1e-6 m (a micron) leaves margin.
    QVERIFY2(worst < riglens::core::tolerance::kFloatUnit, qPrintable(QString::number(worst)));
    // Some vertices did move, and the eyes' neighbourhoods rotated.
    double moved = 0;
    for (std::size_t i = 0; i < V * 3; ++i) moved = std::max(moved, std::abs(ref[i] - p.neutral[i]));
    QVERIFY(moved > riglens::core::tolerance::kMoved);
  }

  void jointsDriveTheSkin() {
    const AosRigPack& p = *m_pack;
    GnmJointState joints(p);
    // Open the jaw 0.3 rad about +x: vertices under the mouth move, the forehead does not.
    joints.setJointOverrides({{"jaw", glm::angleAxis(0.3, glm::dvec3(1, 0, 0))}});
    auto posed = gnmPose(p, std::vector<float>{}, &joints);
    QVERIFY(posed);
    std::size_t top = 0, bottom = 0;
    for (std::size_t v = 0; v < p.vertexCount; ++v) {
      if (p.neutral[v * 3 + 1] > p.neutral[top * 3 + 1]) top = v;
      if (p.skinWeight[v * 4 + 1] > p.skinWeight[bottom * 4 + 1]) bottom = v;
    }
    QCOMPARE_NEAR((*posed)[top * 3 + 1], p.neutral[top * 3 + 1], riglens::core::tolerance::kFloatUnit);
    QVERIFY(glm::length(glm::dvec3((*posed)[bottom * 3], (*posed)[bottom * 3 + 1], (*posed)[bottom * 3 + 2]) -
                        glm::dvec3(p.neutral[bottom * 3], p.neutral[bottom * 3 + 1], p.neutral[bottom * 3 + 2])) >
            riglens::core::tolerance::kMoved);
  }

  void loadsTheSampleBundle() {
    auto bundle = loadBundle(fs::path(m_dir.path().toStdString()) / "sample-bundle");
    QVERIFY_OK(bundle);
    QCOMPARE(bundle->rig["backend"].get<std::string>(), std::string("gnm"));
    QCOMPARE(bundle->rig["control_names"].size(), std::size_t(57));
    // A declared GNM space: the pack's layout, the ICT expressions' ARKit names on its channels.
    QVERIFY(!bundle->expressionDerived);
    QCOMPARE(bundle->expression.segments.back().name, std::string("gaze"));
    const auto& names = bundle->expression.names;
    QVERIFY(std::find(names.begin(), names.end(), "jawOpen") != names.end());
    QVERIFY(std::find(names.begin(), names.end(), "lower_face_000") == names.end());
    // Its head branch mesh carries the lift's UV maps.
    const BranchMesh* head = bundle->mesh("head");
    QVERIFY(head && head->hasUvMaps());
    QCOMPARE(head->uvRes, 128);
    QVERIFY(bundle->gnmPack.has_value());
    QVERIFY(bundle->residentBytes > 3'000'000);
  }

  void declaredGnmSpaceTakesThePackLayout() {
    // expression_space {kind: gnm, arkit_map: true} without dim/names/segments:
    // they come from the pack; a dim that disagrees with the pack is refused.
    const fs::path root = m_dir.path().toStdString();
    const fs::path dir = root / "declared";
    fs::create_directories(dir);
    fs::copy_file(root / "sample-bundle" / "sample-face.aosrig", dir / "sample-face.aosrig",
                  fs::copy_options::overwrite_existing);
    json scene = json::parse(std::ifstream(root / "sample-bundle" / "scene.json"));
    scene["expression_space"] = {{"kind", "gnm"}, {"arkit_map", true}};
    std::ofstream(dir / "scene.json") << scene.dump();
    auto bundle = loadBundle(dir);
    QVERIFY_OK(bundle);
    QCOMPARE(bundle->expression.dim, 57);
    QCOMPARE(bundle->expression.names.size(), std::size_t(57));
    QCOMPARE(bundle->expression.segments.back().name, std::string("gaze"));
    QVERIFY(bundle->expression.arkitMap.has_value());
    std::vector<float> arkit(52, 0.0f);
    const auto jaw = std::find(arkitNames().begin(), arkitNames().end(), "JawOpen");
    QVERIFY(jaw != arkitNames().end());
    arkit[std::size_t(jaw - arkitNames().begin())] = 1.0f;
    auto rig = toRigVector(bundle->expression, ExpressionKind::Arkit52, arkit, &bundle->gnmPack->headExt);
    QVERIFY_OK(rig);
    QCOMPARE(rig->size(), std::size_t(57));
    QVERIFY(std::any_of(rig->begin() + 20, rig->begin() + 40,
                        [](float v) { return v != 0.0f; }));  // the jaw moves lower_face
    scene["expression_space"]["dim"] = 387;
    std::ofstream(dir / "scene.json") << scene.dump();
    auto wrong = loadBundle(dir);
    QVERIFY(!wrong);
    QVERIFY2(QString::fromStdString(wrong.error().message)
                 .contains("/expression_space/dim: is 387 but the GNM pack takes 57"),
             wrong.error().message.c_str());
  }

  void loadsTheRealMyraManifest() {
    // The real scene.json, with two small files present and the rest missing.
    const fs::path dir = fs::path(m_dir.path().toStdString()) / "myra";
    fs::create_directories(dir);
    fs::copy_file(RIGLENS_TEST_DATA_DIR "/character/bundle-scene-myra.json", dir / "scene.json");
    std::ofstream(dir / "geom_head.onnx") << std::string(1000, 'x');
    std::ofstream(dir / "geom_head_fp16.onnx") << std::string(500, 'x');
    // A branch mesh: 3 vertices, 1 face.
    const std::vector<std::uint32_t> faces{0, 1, 2};
    const std::vector<float> verts{0, 0, 0, 1, 0, 0, 0, 1, 0};
    std::vector<std::uint8_t> bin(12 + 36);
    std::memcpy(bin.data(), faces.data(), 12);
    std::memcpy(bin.data() + 12, verts.data(), 36);
    QVERIFY(writeFileAtomically(dir / "mesh_head.bin", bin));
    std::ofstream(dir / "mesh_head.json") << json{
        {"uv_res", 256},
        {"num_vertices", 3},
        {"num_faces", 1},
        {"buffers",
         {{{"name", "faces"}, {"dtype", "u32"}, {"shape", {1, 3}}, {"offset", 0}, {"byte_length", 12}},
          {{"name", "neutral_vertices"},
           {"dtype", "f32"},
           {"shape", {3, 3}},
           {"offset", 12},
           {"byte_length", 36}}}}}.dump();
    auto bundle = loadBundle(dir);
    QVERIFY_OK(bundle);
    QCOMPARE(bundle->subject, std::string("myra"));
    QCOMPARE(bundle->branches, (std::vector<std::string>{"head", "eyes"}));
    QCOMPARE(bundle->rig["backend"].get<std::string>(),
             std::string("none"));  // no pack in the folder
    QCOMPARE(bundle->expression.kind, ExpressionKind::Arkit52);
    QCOMPARE(bundle->meshes.size(), std::size_t(1));
    QCOMPARE(bundle->meshes[0].faces, faces);
    bool sawDecoder = false, sawFp16 = false;
    for (const auto& f : bundle->files) {
      sawDecoder |= f.name == "geom_head.onnx" && !f.eager && f.bytes == 1000;
      sawFp16 |= f.name == "geom_head_fp16.onnx" && !f.eager;
    }
    QVERIFY(sawDecoder && sawFp16);
    QVERIFY(!bundle->problems.empty());  // eager files the manifest names but the folder lacks
    // Decoders are listed, not resident.
    std::uintmax_t eager = 0;
    for (const auto& f : bundle->files) eager += f.eager && f.present ? f.bytes : 0;
    QCOMPARE(bundle->residentBytes, eager);
    // A branch mesh whose faces point past its vertices is refused.
    std::ofstream(dir / "mesh_head.json")
        << json{{"num_vertices", 2},
                {"num_faces", 1},
                {"buffers",
                 {{{"name", "faces"}, {"dtype", "u32"}, {"shape", {1, 3}}, {"offset", 0}, {"byte_length", 12}}}}}
               .dump();
    auto bad = loadBundle(dir);
    QVERIFY(!bad);
    QVERIFY(QString::fromStdString(bad.error().message).contains("faces name vertex 2 past num_vertices"));
    QVERIFY(!loadBundle(fs::path(m_dir.path().toStdString()) / "nowhere"));
  }

  // Nothing odd accepted silently: keys no reader takes are warned about
  // with their pointer (the real manifests' keys are all known), and a
  // world scale that parses but cannot be meant loads with a warning.
  void oddManifestsLoadWithWarnings() {
    const fs::path root = m_dir.path().toStdString();
    const auto unknownKeyWarnings = [](const Bundle& bundle) {
      QStringList found;
      for (const auto& p : bundle.problems)
        if (p.message.find("unknown key") != std::string::npos ||
            p.message.find("cannot be meant") != std::string::npos)
          found << QString::fromStdString(p.source + " " + p.pointer);
      return found;
    };
    auto sample = loadBundle(root / "sample-bundle");
    QVERIFY_OK(sample);
    QCOMPARE(unknownKeyWarnings(*sample), QStringList{});
    const fs::path myraDir = root / "myra-keys";  // the real manifest alone: files missing, keys all known
    fs::create_directories(myraDir);
    fs::copy_file(RIGLENS_TEST_DATA_DIR "/character/bundle-scene-myra.json", myraDir / "scene.json");
    auto myra = loadBundle(myraDir);
    QVERIFY_OK(myra);
    QVERIFY(!myra->problems.empty());  // its missing files
    QCOMPARE(unknownKeyWarnings(*myra), QStringList{});

    const fs::path dir = root / "odd";
    fs::create_directories(dir);
    for (const char* file : {"sample-face.aosrig", "mesh_head.bin"})
      fs::copy_file(root / "sample-bundle" / file, dir / file, fs::copy_options::overwrite_existing);
    json scene = json::parse(std::ifstream(root / "sample-bundle" / "scene.json"));
    scene["branchs"] = scene["branches"];  // misspelt beside the real one
    scene["branches"]["head"]["uv_ress"] = 64;
    scene["rig"]["packs"] = "x";
    scene["world_scale"] = 1e30;
    scene["rig_presets_head"] = "presets.npy";  // known to exist in real manifests, read by none
    std::ofstream(dir / "scene.json") << scene.dump();
    json mesh = json::parse(std::ifstream(root / "sample-bundle" / "mesh_head.json"));
    mesh["num_vertex"] = 3;
    mesh["buffers"][0]["stride"] = 12;
    std::ofstream(dir / "mesh_head.json") << mesh.dump();
    auto odd = loadBundle(dir);
    QVERIFY_OK(odd);
    const QString scenePath = QString::fromStdString((dir / "scene.json").string());
    const QString meshPath = QString::fromStdString((dir / "mesh_head.json").string());
    QCOMPARE(unknownKeyWarnings(*odd),
             (QStringList{scenePath + " /branchs", scenePath + " /branches/head/uv_ress", scenePath + " /rig/packs",
                          scenePath + " /world_scale", meshPath + " /num_vertex", meshPath + " /buffers/0/stride"}));
    QCOMPARE(odd->worldScale, 1e30);  // loaded as given

    // A scene.json whose only key is unknown: it loads (nothing in it is
    // required) and says so.
    const fs::path bare = root / "bare";
    fs::create_directories(bare);
    std::ofstream(bare / "scene.json") << R"({"brnaches": {}})";
    auto only = loadBundle(bare);
    QVERIFY_OK(only);
    QCOMPARE(unknownKeyWarnings(*only),
             QStringList{QString::fromStdString((bare / "scene.json").string()) + " /brnaches"});
  }

  void scenesTheViewerOpens() {
    // What the app and `riglens-cli render` open: the sample bundle and its
    // pack (GNM region groups, no ARKit map), a generated .ply; refused, with
    // the file named: a bundle whose backend is not GNM (the real myra
    // manifest names none), a truncated pack, a .ply that is not one.
    const fs::path root = m_dir.path().toStdString();
    QVERIFY(opensAsCharacterScene(root / "sample-bundle"));
    QVERIFY(opensAsCharacterScene(root / "sample-face.aosrig"));
    QVERIFY(opensAsCharacterScene(root / "torus.ply"));
    QVERIFY(!opensAsCharacterScene(root / "rig.json"));
    auto bundle = loadCharacterScene(root / "sample-bundle");
    QVERIFY_OK(bundle);
    QCOMPARE(bundle->kind, SceneKind::Character);
    QCOMPARE(bundle->title, std::string("sample-face"));
    QCOMPARE(bundle->pack->vertexCount, std::size_t(9409));
    QVERIFY(!bundle->expression.arkitMap);
    QVERIFY(!bundle->files.empty());
    // The rest bounds: the fit makes the face 0.35 m tall (the eyes may poke out a little).
    const float height = bundle->bounds.max.y - bundle->bounds.min.y;
    QVERIFY2(height > 0.3f && height < 0.45f, qPrintable(QString::number(height)));
    auto pack = loadCharacterScene(root / "sample-face.aosrig");
    QVERIFY(pack);
    QCOMPARE(pack->expression.segments.size(), bundle->expression.segments.size());
    QVERIFY(pack->files.empty());

    const auto torus = encodeGaussianPly(makeGaussianTorus(100));
    QVERIFY(writeFileAtomically(root / "torus.ply", torus));
    auto splats = loadCharacterScene(root / "torus.ply");
    QVERIFY_OK(splats);
    QCOMPARE(splats->kind, SceneKind::Splats);
    QCOMPARE(splats->cloud->count, std::size_t(100));
    QVERIFY(!splats->bounds.empty);

    fs::create_directories(root / "myra-manifest-only");
    fs::copy_file(RIGLENS_TEST_DATA_DIR "/character/bundle-scene-myra.json",
                  root / "myra-manifest-only" / "scene.json");
    auto none = loadCharacterScene(root / "myra-manifest-only");
    QVERIFY(!none);
    QVERIFY2(QString::fromStdString(none.error().message).contains("rig backend is 'none'"),
             none.error().message.c_str());
    std::vector<std::uint8_t> bytes = *readFileBytes(root / "sample-face.aosrig");
    bytes.resize(bytes.size() / 2);
    QVERIFY(writeFileAtomically(root / "half.aosrig", bytes));
    auto half = loadCharacterScene(root / "half.aosrig");
    QVERIFY(!half);
    QVERIFY2(QString::fromStdString(half.error().message).contains("half.aosrig"), half.error().message.c_str());
    GnmBake i8 = syntheticGnmHead(200, 8, 1);
    i8.basisAsI8 = true;
    QVERIFY(writeFileAtomically(root / "i8.aosrig", *bakeAosRig(i8)));
    auto quantised = loadCharacterScene(root / "i8.aosrig");
    QVERIFY(!quantised);
    QVERIFY2(QString::fromStdString(quantised.error().message).contains("i8.aosrig: the pack stores its basis as i8"),
             quantised.error().message.c_str());
    std::ofstream(root / "text.ply") << "not a ply";
    auto text = loadCharacterScene(root / "text.ply");
    QVERIFY(!text);
    QVERIFY2(QString::fromStdString(text.error().message).contains("text.ply"), text.error().message.c_str());
  }
};

QTEST_APPLESS_MAIN(TestCharacterSample)
#include "tst_core_character_sample.moc"
