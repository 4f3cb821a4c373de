// The decoded character (contract/DECODERS.md) on the CPU, with decoders that
// Debian's python3-onnx wrote at build time (tools/decoders/make_decoders.py)
// and OpenCV's DNN module running them:
//  - the analytic decoder's outputs are known in closed form, so every lifted
//    texel is checked against the posed mesh computed here independently
//    (barycentric point, J R S S R^T J^T), and every resampled slot against
//    the bilinear blend of those texels;
//  - a non-zero offset and rotation check the triangle frame;
//  - zpack, fused, schema-1 and fp16 bundles load and decode as the contract says;
//  - broken graphs are refused naming the file and the tensor;
//  - the re-run policy (which sessions run for a rig change, a camera move,
//    nothing), calibration, world placement, the scale map and .npy presets.
#include <QtTest/QTest>
#include <cmath>
#include <filesystem>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <nlohmann/json.hpp>

#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_file.h"
#include "riglens/core/base/sanitizers.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/character/body_pose.h"
#include "riglens/core/character/bundle.h"
#include "riglens/core/character/gnm.h"
#include "riglens/core/decoded/decoded_character.h"
#include "riglens/core/decoded/npy.h"
#include "riglens/core/decoded/sink_gaussians.h"
#include "riglens/decode/opencv_decoder.h"
#include "riglens/samples/character_sample.h"
#include "test_checks.h"

// How OpenCV's over-read of a huge initializer ends its child: the kernel's
// fault, or AddressSanitizer's abort where the suite is built with it.
constexpr const char* kOverReadSignal = riglens::core::kAddressSanitizer ? "Aborted" : "Segmentation fault";

namespace {
// A covariance entry of order 1e-4 against four times another: float32
// products that exact agree to an ulp of 1e-4 (~1e-11).
constexpr double kScaledCovariance = 1e-9;
// exp() of a float near -2.5 (about 0.08: an ulp is 7e-9), the lift's expf
// against std::exp.
constexpr double kScaleNearOne = 1e-7;
// exp(4), the ceiling, is about 54.6 in float32 (an ulp is 3.8e-6).
constexpr double kScaleAtCeiling = 1e-4;
// 0.01 x sigmoid: values up to 0.01 (an ulp is under 1e-9).
constexpr double kBoundedScale = 1e-8;
}  // namespace

using namespace riglens::core;
namespace fs = std::filesystem;

namespace {

const fs::path kIct = RIGLENS_DATA_DIR "/ict-face";
const fs::path kDecoders = RIGLENS_TEST_DECODERS_DIR;
constexpr int kRes = 32;

// The analytic decoders' geom constants (make_decoders.py defaults / the offset variant).
constexpr float kAnalytic[11] = {0, 0, 0, 1, 0, 0, 0, -3.0f, -3.5f, -4.0f, 2.0f};
constexpr float kOffset[11] = {0.3f, -0.2f, 0.5f, 0.9f, 0.1f, 0.2f, 0.3f, -3.0f, -3.5f, -4.0f, 2.0f};

glm::dvec3 vertexOf(const std::vector<float>& v, std::int64_t i) {
  return {v[std::size_t(i) * 3], v[std::size_t(i) * 3 + 1], v[std::size_t(i) * 3 + 2]};
}

PluckerCamera frontCamera(float z = 0.6f) {
  PluckerCamera c;
  c.position = {0.0f, 0.0f, z};
  c.aspect = 4.0f / 3.0f;
  return c;
}

struct Opened {
  std::shared_ptr<const Bundle> bundle;
  std::unique_ptr<DecodedCharacter> character;
  Diagnostics notes;
};

}  // namespace

class TestDecoded : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;

  fs::path writeBundle(const std::string& variant, bool schema1 = false) {
    const fs::path out = fs::path(m_dir.path().toStdString()) / (variant + (schema1 ? "-s1" : ""));
    riglens::samples::SampleBundleOptions options;
    options.uvRes = kRes;
    options.decoders = kDecoders / variant;
    options.schema1 = schema1;
    auto ok = riglens::samples::writeSampleCharacter(kIct, out, options);
    if (!ok) qFatal("%s", ok.error().message.c_str());
    return out / "sample-bundle";
  }

  Expected<Opened> open(const fs::path& folder) {
    auto bundle = loadBundle(folder);
    if (!bundle) return bundle.error();
    Opened o;
    o.bundle = std::make_shared<const Bundle>(std::move(bundle).value());
    auto c = DecodedCharacter::open(o.bundle, riglens::decode::openCvOpener(), {}, o.notes);
    if (!c) return c.error();
    o.character = std::move(c).value();
    return o;
  }

  std::vector<float> jawOpen(const Bundle& bundle) {
    std::vector<float> rig(std::size_t(bundle.gnmPack->headExt.dim), 0.0f);
    const auto& names = bundle.expression.names;
    const auto it = std::find(names.begin(), names.end(), "jawOpen");
    if (it == names.end()) qFatal("the sample's expression space has no jawOpen");
    rig[std::size_t(it - names.begin())] = 1.0f;
    return rig;
  }

  // Pass 1 against the closed form for constant geom channels `g`.
  void checkPass1(const float* g) {
    auto o = open(writeBundle(g == kAnalytic ? "analytic" : "offset"));
    QVERIFY_OK(o);
    DecodedCharacter& c = *o->character;
    const Bundle& bundle = *o->bundle;
    const auto rig = jawOpen(bundle);
    auto posed = gnmPose(*bundle.gnmPack, rig);
    QVERIFY_OK(posed);
    auto pass = c.decode(rig, frontCamera());
    QVERIFY_OK(pass);
    QCOMPARE(*pass, DecodePass::Full);
    const DecodedBranch& b = c.branches().at(0);
    QVERIFY(b.rigged);
    const std::size_t hw = std::size_t(kRes) * kRes;
    // The decoder ran: its output is the constants, exactly (zero weights + bias).
    for (int ch = 0; ch < 11; ++ch) QCOMPARE(b.decoders.geomUv()[std::size_t(ch) * hw + 77], g[ch]);
    // The sample's calibration is the identity: the lift sees the posed vertices.
    const auto verts = c.liftVertices(0, *posed);
    for (std::size_t i = 0; i < verts.size(); ++i)
      QCOMPARE_NEAR(verts[i], (*posed)[i], riglens::core::tolerance::kFloatUnit);
    const auto texels = liftPass1(b.decoders.geomUv(), verts, *b.mesh, b.decoders.spec().scale);
    const BranchMesh& m = *b.mesh;
    glm::dquat q(g[3], g[4], g[5], g[6]);
    const glm::dmat3 R = glm::mat3_cast(glm::normalize(q));
    const glm::dvec3 s(std::exp(double(g[7])), std::exp(double(g[8])), std::exp(double(g[9])));
    int checked = 0;
    for (std::size_t p = 0; p < hw; ++p) {
      const float* t = texels.data() + p * kLiftTexelFloats;
      const bool valid = m.valid[p] && m.triim[p] >= 0;
      QCOMPARE(t[10], valid ? 1.0f : 0.0f);
      if (!valid) continue;
      glm::dvec3 base(0.0);
      for (int k = 0; k < 3; ++k) base += double(m.barim[p * 3 + k]) * vertexOf(*posed, m.idxim[p * 3 + k]);
      const std::size_t f = std::size_t(m.triim[p]);
      const glm::dvec3 v0 = vertexOf(*posed, m.faces[f * 3]);
      const glm::dvec3 e0 = vertexOf(*posed, m.faces[f * 3 + 1]) - v0, e1 = vertexOf(*posed, m.faces[f * 3 + 2]) - v0;
      const glm::dvec3 n = glm::cross(e0, e1);
      const glm::dmat3 J(e0, e1, n / std::sqrt(glm::length(n)));
      const glm::dvec3 pos = base + J * glm::dvec3(g[0], g[1], g[2]);
      glm::dmat3 M = J * R;
      for (int k = 0; k < 3; ++k) M[k] *= s[k];
      const glm::dmat3 S = M * glm::transpose(M);
      // float32 arithmetic on centimetre-sized triangles: 1e-6 m on positions;
      // covariances relative to their largest element.
      for (int k = 0; k < 3; ++k)
        QVERIFY2(std::fabs(t[k] - pos[k]) < riglens::core::tolerance::kFloatUnit, qPrintable(QString::number(p)));
      const double cov[6] = {S[0][0], S[1][0], S[2][0], S[1][1], S[2][1], S[2][2]};
      double scale = 0;
      for (double x : cov) scale = std::max(scale, std::fabs(x));
      for (int k = 0; k < 6; ++k)
        QCOMPARE_NEAR(t[3 + k], cov[k], riglens::core::tolerance::kCovarianceRelative * scale);
      QCOMPARE(t[9], g[10]);
      ++checked;
    }
    QVERIFY2(checked > int(hw / 3), "too few texels lie on the face");

    // Pass 2: each interior slot is the bilinear blend of its texels.
    SplatSink sink(c.capacity());
    liftPass2(texels, b.decoders.colorUv(), kRes, b.placement, nullptr, sink);
    int kept = 0;
    for (int s2 = 0; s2 < kRes * kRes; ++s2) {
      const int oy = s2 / kRes, ox = s2 % kRes;
      const double py = oy * double(kRes) / (kRes - 1) - 0.5, px = ox * double(kRes) / (kRes - 1) - 0.5;
      const int x0 = int(std::floor(px)), y0 = int(std::floor(py));
      const double fx = px - x0, fy = py - y0;
      if (oy == 0 || ox == 0 || oy == kRes - 1 || ox == kRes - 1) {  // half a texel outside: never kept
        QCOMPARE(sink.color[std::size_t(s2)], 0u);
        continue;
      }
      bool all = true;
      glm::dvec3 centre(0.0);
      double cov[6] = {};
      const int dx[4] = {0, 1, 0, 1}, dy[4] = {0, 0, 1, 1};
      const double w[4] = {(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy};
      for (int k = 0; k < 4; ++k) {
        const std::size_t p = std::size_t(y0 + dy[k]) * kRes + std::size_t(x0 + dx[k]);
        all = all && texels[p * kLiftTexelFloats + 10] == 1.0f;
        for (int a = 0; a < 3; ++a) centre[a] += w[k] * texels[p * kLiftTexelFloats + std::size_t(a)];
        for (int a = 0; a < 6; ++a) cov[a] += w[k] * texels[p * kLiftTexelFloats + 3 + std::size_t(a)];
      }
      if (!all) continue;
      const std::size_t slot = b.placement.slotOffset + std::size_t(s2);
      QVERIFY(sink.color[slot] != 0u);
      for (int a = 0; a < 3; ++a)
        QCOMPARE_NEAR(sink.center[slot * 4 + std::size_t(a)], centre[a], riglens::core::tolerance::kFloatUnit);
      const float got[6] = {sink.covarianceA[slot * 4],     sink.covarianceA[slot * 4 + 1],
                            sink.covarianceA[slot * 4 + 2], sink.covarianceA[slot * 4 + 3],
                            sink.covarianceB[slot * 4],     sink.covarianceB[slot * 4 + 1]};
      double scale = 0;
      for (double x : cov) scale = std::max(scale, std::fabs(x));
      // The eigen-decomposition round trip in float: 1e-4 of the largest element.
      for (int a = 0; a < 6; ++a) QCOMPARE_NEAR(got[a], cov[a], riglens::core::tolerance::kCovarianceRelative * scale);
      ++kept;
    }
    QVERIFY2(kept > kRes * kRes / 4, "too few interior slots");
  }

 private slots:
  void initTestCase() { QVERIFY2(fs::exists(kDecoders / "analytic" / "geom_head.onnx"), "test decoders not written"); }

  void analyticDecoderLiftsOntoThePosedMesh() { checkPass1(kAnalytic); }
  void offsetAndRotationUseTheTriangleFrame() { checkPass1(kOffset); }

  void colourIsTheAnalyticViewFunction() {
    auto o = open(writeBundle("analytic"));
    QVERIFY_OK(o);
    const PluckerCamera cam = frontCamera();
    QVERIFY_OK(o->character->decode(o->character->referenceRig(), cam));
    const auto rays = pluckerRays(cam, o->character->placement(), kRes);
    const auto& colour = o->character->branches()[0].decoders.colorUv();
    const std::size_t hw = std::size_t(kRes) * kRes;
    for (std::size_t p = 0; p < hw; p += 13)
      for (int k = 0; k < 3; ++k)
        QCOMPARE_NEAR(colour[k * hw + p], (0.5f + 0.4f * rays[(3 + k) * hw + p]),
                      riglens::core::tolerance::kFloatCoordinate);
    // A5: the direction grid from the camera basis (top row = +up).
    const float t = std::tan(glm::radians(cam.fovYDeg) * 0.5f);
    const glm::vec3 d0 =
        glm::normalize(glm::vec3((2.0f * 0.5f / kRes - 1) * t * cam.aspect, (1 - 2.0f * 0.5f / kRes) * t, -1.0f));
    for (int k = 0; k < 3; ++k) QCOMPARE_NEAR(rays[(3 + k) * hw], d0[k], riglens::core::tolerance::kFloatUnit);
  }

  void rerunPolicyRunsOnlyWhatChanged() {
    auto o = open(writeBundle("analytic"));
    QVERIFY_OK(o);
    DecodedCharacter& c = *o->character;
    const auto& runs = c.branches()[0].decoders.runs();
    auto rig = c.referenceRig();
    PluckerCamera cam = frontCamera();
    QCOMPARE(*c.decode(rig, cam), DecodePass::Full);
    QCOMPARE((std::array{runs.trunk, runs.geom, runs.appr}), (std::array{1, 1, 1}));
    QCOMPARE(*c.decode(rig, cam), DecodePass::None);  // unchanged frame: nothing
    cam.position.x += 0.001f;                         // 1 mm: under the 2 mm rule
    QCOMPARE(*c.decode(rig, cam), DecodePass::None);
    cam.position.x += 0.01f;  // orbit: plucker + appr only
    QCOMPARE(*c.decode(rig, cam), DecodePass::Appearance);
    QCOMPARE((std::array{runs.trunk, runs.geom, runs.appr}), (std::array{1, 1, 2}));
    cam.fovYDeg = 30.0f;
    QCOMPARE(*c.decode(rig, cam), DecodePass::Appearance);
    rig[3] = 0.5f;  // a rig change: trunk -> geom -> appr
    QCOMPARE(*c.decode(rig, cam), DecodePass::Full);
    QCOMPARE((std::array{runs.trunk, runs.geom, runs.appr}), (std::array{2, 2, 4}));
  }

  void zpackIsFedOnlyWhereDeclared() {
    auto o = open(writeBundle("zpack"));
    QVERIFY_OK(o);
    const auto& b = o->character->branches()[0].decoders;
    QVERIFY(b.regionFactored());
    QVERIFY_OK(o->character->decode(o->character->referenceRig(), frontCamera()));
    const std::size_t hw = std::size_t(kRes) * kRes;
    for (int ch = 0; ch < 11; ++ch) QCOMPARE(b.geomUv()[std::size_t(ch) * hw + 5], kAnalytic[ch]);
  }

  void fusedBranchHasNoTrunk() {
    auto o = open(writeBundle("fused"));
    QVERIFY_OK(o);
    const auto& b = o->character->branches()[0].decoders;
    QVERIFY(b.spec().fused);
    QVERIFY(b.spec().trunk.empty());
    QCOMPARE(b.sessionFiles().size(), std::size_t(2));
    QCOMPARE(*o->character->decode(o->character->referenceRig(), frontCamera()), DecodePass::Full);
    QCOMPARE(b.runs().trunk, 0);
    QCOMPARE(b.runs().geom, 1);
  }

  void schema1IsOneFusedHeadBranch() {
    const fs::path folder = writeBundle("fused", true);
    QVERIFY(fs::exists(folder / "mesh.json"));
    auto o = open(folder);
    QVERIFY_OK(o);
    QCOMPARE(o->bundle->schema, 1);
    const DecoderBranch& spec = o->bundle->decoders.at(0);
    QCOMPARE(spec.name, std::string("head"));
    QVERIFY(spec.fused);
    QCOMPARE(spec.geom, std::string("geom.onnx"));
    QCOMPARE(spec.rigDim, 57);  // len(rig_names.json)
    QCOMPARE(*o->character->decode(o->character->referenceRig(), frontCamera()), DecodePass::Full);
  }

  // OpenCV 4.6's importer has no FLOAT16 tensors: the siblings are tried,
  // refused, noted, and the fp32 graphs decode.
  void fp16SiblingsFallBackToFp32WithANote() {
    auto o = open(writeBundle("fp16"));
    QVERIFY_OK(o);
    const auto& b = o->character->branches()[0].decoders;
    QCOMPARE(b.spec().geomFp16, std::string("geom_head_fp16.onnx"));
    QVERIFY(!b.geomIsFp16());
    QVERIFY(!b.apprIsFp16());
    int fallbacks = 0;
    for (const auto& n : o->notes)
      if (n.message.find("fp16 decoder did not load") != std::string::npos &&
          n.message.find("FLOAT16") != std::string::npos)
        ++fallbacks;
    QCOMPARE(fallbacks, 2);
    QCOMPARE(*o->character->decode(o->character->referenceRig(), frontCamera()), DecodePass::Full);
  }

  void brokenGraphsAreRefused_data() {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing output") << "missing-output"
                                    << "geom_head.onnx"
                                    << "declares no output geom_uv";
    QTest::newRow("wrong channels") << "wrong-channels"
                                    << "geom_head.onnx"
                                    << "output geom_uv has shape [1,10,32,32]; the lift needs [1,11,32,32]";
    QTest::newRow("wrong shape") << "wrong-shape"
                                 << "appr_head.onnx"
                                 << "output color_uv has shape [1,3,16,16]; the lift needs [1,3,32,32]";
    QTest::newRow("missing input") << "missing-input"
                                   << "appr_head.onnx"
                                   << "declares no input plucker";
    // 2^28 floats declared over 16 bytes: OpenCV's importer reads past them
    // and crashes - in its child process; the refusal names the file and
    // this process lives. Under AddressSanitizer the over-read is stopped at
    // its first byte (memcpy is intercepted even in uninstrumented OpenCV:
    // "heap-buffer-overflow ... READ of size 1073741824" from a 17-byte
    // protobuf string, tools/sanitize.sh, 2026-12-06) and the child aborts.
    QTest::newRow("huge initializer") << "huge-initializer"
                                      << "geom_head.onnx"
                                      << QString("OpenCV's ONNX importer crashed on it (%1)").arg(kOverReadSignal);
  }
  void brokenGraphsAreRefused() {
    QFETCH(QString, variant);
    QFETCH(QString, file);
    QFETCH(QString, message);
    auto o = open(writeBundle(variant.toStdString()));
    std::string error;
    if (!o) {
      error = o.error().message;
    } else {
      auto pass = o->character->decode(o->character->referenceRig(), frontCamera());
      QVERIFY(!pass);
      error = pass.error().message;
    }
    QVERIFY2(error.find(file.toStdString()) != std::string::npos, error.c_str());
    QVERIFY2(error.find(message.toStdString()) != std::string::npos, error.c_str());
  }

  void gazeConditionedBranchIsSkippedVisibly() {
    const fs::path folder = writeBundle("analytic");
    auto scene = readJsonFile(folder / "scene.json");
    QVERIFY_OK(scene);
    (*scene)["branches"]["eyes"] = {{"gaze_conditioned", true}, {"geom", "geom_eye.onnx"}, {"uv_res", 96}};
    const std::string text = scene->dump();
    QVERIFY_OK(
        writeFileAtomically(folder / "scene.json", {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()}));
    auto o = open(folder);
    QVERIFY_OK(o);
    QCOMPARE(o->character->branches().size(), std::size_t(1));
    bool noted = false;
    for (const auto& n : o->bundle->problems)
      noted = noted || n.message.find("eyes: gaze-conditioned decoders are not supported") != std::string::npos;
    QVERIFY(noted);
  }

  void calibrationRecoversASimilarityAndRefusesReflections() {
    std::vector<float> pred, neutral, mirrored;
    const glm::dmat3 R = glm::mat3_cast(glm::angleAxis(0.7, glm::normalize(glm::dvec3(1, 2, 3))));
    for (int i = 0; i < 50; ++i) {
      const glm::dvec3 a(std::sin(i * 1.3) * 40, std::cos(i * 0.7) * 30, std::sin(i * 2.1) * 20);  // centimetres
      const glm::dvec3 b = 0.01 * (R * a) + glm::dvec3(0.1, -0.2, 0.05);                           // metres
      for (int k = 0; k < 3; ++k) {
        pred.push_back(float(a[k]));
        neutral.push_back(float(b[k]));
        mirrored.push_back(float(k == 0 ? -b[k] : b[k]));
      }
    }
    auto fit = calibrate(pred, neutral);
    QVERIFY_OK(fit);
    QCOMPARE_NEAR(fit->scale, 0.01, riglens::core::tolerance::kFloatUnit);
    QVERIFY(fit->accepted());
    QVERIFY(fit->residual < riglens::core::tolerance::kFloatUnit);
    std::vector<float> mapped = pred;
    applyVertexTransform(mapped, fit->transform);
    for (std::size_t i = 0; i < mapped.size(); ++i)
      QCOMPARE_NEAR(mapped[i], neutral[i], riglens::core::tolerance::kFloatUnit);
    auto refused = calibrate(pred, mirrored);
    QVERIFY(!refused);
    QVERIFY(refused.error().message.find("reflection") != std::string::npos);
    auto counts = calibrate(std::span(pred).first(30), neutral);
    QVERIFY(!counts);
  }

  void worldPlacementRotatesScalesAndOffsets() {
    // One texel, valid everywhere around it: pass 2 of a 2x2 grid sampled at N = 2.
    std::vector<float> texels(4 * kLiftTexelFloats, 0.0f), colour(3 * 4, 0.5f);
    for (int p = 0; p < 4; ++p) {
      float* t = texels.data() + p * kLiftTexelFloats;
      t[0] = 0.1f, t[1] = 0.2f, t[2] = 0.3f;
      t[3] = 4e-4f, t[4] = 1e-4f, t[5] = 0, t[6] = 2e-4f, t[7] = 0, t[8] = 1e-4f;
      t[9] = 0.0f, t[10] = 1.0f;
    }
    LiftPlacement identity{0, 4, {1, 0, 0, 0}, glm::vec3(0), 1.0f};
    LiftPlacement moved{0, 4, worldRotationQuaternion(0, 90, 0), glm::vec3(1, 2, 3), 2.0f};
    SplatSink a(4), b(4);
    // N = 2: slot (0,0) samples at (-0.5, -0.5): a quarter inside, dropped;
    // every slot is on the outer ring, so use a 3-res grid instead below.
    liftPass2(texels, colour, 2, identity, nullptr, a);
    for (auto c : a.color) QCOMPARE(c, 0u);
    // The transform itself, on a kept slot of a 3x3 all-valid grid.
    std::vector<float> t9(9 * kLiftTexelFloats), c9(27, 0.5f);
    for (int p = 0; p < 9; ++p) std::copy_n(texels.data(), kLiftTexelFloats, t9.data() + p * kLiftTexelFloats);
    SplatSink a9(9), b9(9);
    identity.slotCount = moved.slotCount = 9;
    liftPass2(t9, c9, 3, identity, nullptr, a9);
    liftPass2(t9, c9, 3, moved, nullptr, b9);
    const std::size_t s = 4;  // the centre slot
    QVERIFY(a9.color[s] != 0u);
    QCOMPARE(a9.color[s], b9.color[s]);
    // Ry(90): (x, y, z) -> (z, y, -x); then * 2 + (1, 2, 3).
    const glm::vec3 c(a9.center[s * 4], a9.center[s * 4 + 1], a9.center[s * 4 + 2]);
    const glm::vec3 want = glm::vec3(c.z, c.y, -c.x) * 2.0f + glm::vec3(1, 2, 3);
    for (int k = 0; k < 3; ++k)
      QCOMPARE_NEAR(b9.center[s * 4 + std::size_t(k)], want[k], riglens::core::tolerance::kFloatUnit);
    // C' = 4 R C R^T: c00' = 4 c22, c22' = 4 c00, c11' = 4 c11, c02' = -4 c02.
    QCOMPARE_NEAR(b9.covarianceA[s * 4], 4 * a9.covarianceB[s * 4 + 1], kScaledCovariance);
    QCOMPARE_NEAR(b9.covarianceB[s * 4 + 1], 4 * a9.covarianceA[s * 4], kScaledCovariance);
    QCOMPARE_NEAR(b9.covarianceA[s * 4 + 3], 4 * a9.covarianceA[s * 4 + 3], kScaledCovariance);
  }

  void scaleMapFollowsTheContract() {
    LiftScale unbounded;
    unbounded.scaleOffset = 0.5f;  // scale_log_bias
    unbounded.scaleLogMax = 4.0f;
    QCOMPARE_NEAR(splatScale(-3.0f, unbounded), std::exp(-2.5f), kScaleNearOne);
    QCOMPARE_NEAR(splatScale(10.0f, unbounded), std::exp(4.0f), kScaleAtCeiling);  // the ceiling
    LiftScale bounded;
    bounded.bounded = true;
    bounded.logSigmaMax = std::log(0.01f);
    bounded.scaleOffset = 1.0f;  // sigma_offset
    const double x = 2.0 + 1.0;
    QCOMPARE_NEAR(splatScale(2.0f, bounded), 0.01 / (1 + std::exp(-x)), kBoundedScale);
    QVERIFY(splatScale(100.0f, bounded) <= 0.01f + 1e-9f);
  }

  void npyPresetsAreReadAndRefused() {
    // A 2 x 3 '<f4' table, version 1.0, written the way numpy.save does.
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::vector<std::uint8_t> bytes = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, std::uint8_t(header.size()), 0};
    bytes.insert(bytes.end(), header.begin(), header.end());
    const float values[6] = {1, 2, 3, 4, 5, 6};
    const auto* raw = reinterpret_cast<const std::uint8_t*>(values);
    bytes.insert(bytes.end(), raw, raw + sizeof values);
    auto t = parseNpyTable(bytes, "presets.npy");
    QVERIFY_OK(t);
    QCOMPARE(t->rows, std::size_t(2));
    QCOMPARE(t->row0, (std::vector<float>{1, 2, 3}));
    auto truncated = parseNpyTable(std::span(bytes).first(bytes.size() - 8), "presets.npy");
    QVERIFY(!truncated);
    QVERIFY(truncated.error().message.find("presets.npy") != std::string::npos);
    std::string f64(bytes.begin(), bytes.end());
    f64.replace(f64.find("<f4"), 3, "<f8");
    auto wrongType = parseNpyTable({reinterpret_cast<const std::uint8_t*>(f64.data()), f64.size()}, "p.npy");
    QVERIFY(!wrongType);
    // Version 2.0 (a 4-byte header length): a header of a megabyte is read
    // without recursing once a character (std::regex overflowed the stack on
    // a 100 KB one) - padded, it is read; with a long 'descr', refused.
    const auto version2 = [&](const std::string& dict) {
      std::vector<std::uint8_t> v2 = {0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0};
      const auto n = std::uint32_t(dict.size());
      for (int i = 0; i < 4; ++i) v2.push_back(std::uint8_t(n >> (8 * i)));
      v2.insert(v2.end(), dict.begin(), dict.end());
      v2.insert(v2.end(), raw, raw + sizeof values);
      return v2;
    };
    const std::string padding(1 << 20, ' ');
    auto padded = parseNpyTable(version2("{'descr':'<f4','fortran_order':False,'shape':(3,2,),}" + padding), "v2.npy");
    QVERIFY_OK(padded);
    QCOMPARE(padded->cols, std::size_t(2));
    QCOMPARE(padded->row0, (std::vector<float>{1, 2}));
    auto longDescr =
        parseNpyTable(version2("{'descr': '<f4" + padding + "', 'fortran_order': False, 'shape': (2, 3)}"), "v2.npy");
    QVERIFY(!longDescr);
    QVERIFY(longDescr.error().message.find("'<f4'") != std::string::npos);
    // A key's first mention that is not followed by its value does not hide
    // the real one; a count of ten digits is not a count.
    auto mentioned =
        parseNpyTable(version2("{'note': 'shape', 'descr': '<f4', 'fortran_order': False, 'shape': (1, 6)}"), "v2.npy");
    QVERIFY_OK(mentioned);
    QCOMPARE(mentioned->cols, std::size_t(6));
    QVERIFY(!parseNpyTable(version2("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 0000000006)}"), "v2.npy"));
  }

  void bodyPoseIsReadAndRefused() {
    auto pose = bodyPoseFromJson(nlohmann::json::parse(R"({"bones": [{"name": "head", "rotation": [2, 0, 0, 0]},
        {"joint": "neck", "rotation": [0, 0, 1, 0]}], "rootPos": [1, 2, 3]})"),
                                 "body.json");
    QVERIFY_OK(pose);
    QCOMPARE(pose->bones.size(), std::size_t(2));
    QCOMPARE(pose->bones[0].first, std::string("head"));
    QCOMPARE(pose->bones[0].second.w, 1.0);  // normalised
    QCOMPARE(pose->bones[1].first, std::string("neck"));
    QCOMPARE(pose->rootPos, glm::dvec3(1, 2, 3));
    const auto refused = [](const char* text, const char* where) {
      auto p = bodyPoseFromJson(nlohmann::json::parse(text), "body.json");
      return !p && p.error().message.find(where) != std::string::npos &&
             p.error().message.find("body.json") != std::string::npos;
    };
    QVERIFY(refused(R"({"bones": [{"name": "head", "rotation": [0, 0, 0, 0]}]})", "/bones/0/rotation"));
    QVERIFY(refused(R"({"bones": [{"rotation": [1, 0, 0, 0]}]})", "/bones/0"));
    QVERIFY(refused(R"({"rootPos": [1, 2]})", "/rootPos"));
    QVERIFY(refused(R"([1, 2])", "object"));
    // The bones reach the rig as joint overrides: the head turns the face.
    AosRigPack pack = *readAosRig((writeBundle("analytic").parent_path() / "sample-face.aosrig").string());
    GnmJointState joints(pack);
    joints.setJointOverrides(pose->bones);
    std::vector<float> zero(std::size_t(pack.headExt.dim), 0.0f);
    QVERIFY(*gnmPose(pack, zero, &joints) != *gnmPose(pack, zero));
  }

  void exportedFrameRoundTripsThroughPly() {
    auto o = open(writeBundle("analytic"));
    QVERIFY_OK(o);
    QVERIFY_OK(o->character->decode(o->character->referenceRig(), frontCamera()));
    auto posed = gnmPose(*o->bundle->gnmPack, o->character->referenceRig());
    QVERIFY_OK(posed);
    SplatSink sink(o->character->capacity());
    o->character->liftCpu(*posed, sink);
    const auto gaussians = sinkGaussians(sink);
    QVERIFY(!gaussians.empty());
    auto cloud = parseGaussianPly(encodeGaussianPly(gaussians), "frame.ply");
    QVERIFY_OK(cloud);
    QCOMPARE(cloud->count, gaussians.size());
    // The .ply's covariance (R S S R^T rebuilt by the reader) is the sink's.
    std::size_t g = 0;
    for (std::size_t s = 0; s < sink.capacity(); ++s) {
      if (sink.color[s] == 0u) continue;
      const float want[6] = {sink.covarianceA[s * 4],     sink.covarianceA[s * 4 + 1], sink.covarianceA[s * 4 + 2],
                             sink.covarianceA[s * 4 + 3], sink.covarianceB[s * 4],     sink.covarianceB[s * 4 + 1]};
      float scale = 0;
      for (float x : want) scale = std::max(scale, std::fabs(x));
      for (int k = 0; k < 6; ++k)
        QCOMPARE_NEAR(cloud->covariance[g * 6 + std::size_t(k)], want[k],
                      riglens::core::tolerance::kCovarianceRelative * scale);
      for (int k = 0; k < 3; ++k)
        QCOMPARE(cloud->positions[g * 3 + std::size_t(k)], sink.center[s * 4 + std::size_t(k)]);
      ++g;
    }
  }
};

QTEST_GUILESS_MAIN(TestDecoded)
#include "tst_core_decoded.moc"
