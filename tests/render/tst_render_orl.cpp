// The ORL rig on the GPU (render::GpuOrl, shaders/orl_deform.comp) against
// its CPU reference (core::orlDeform): the sample ORL character posed by its
// DNA, and the reference library's synthetic pack with its own expected
// vertices; then the character drawn through CharacterRenderer (the viewer's
// and the CLI's path), where a jaw control must change the picture.
#include <QtTest/QTest>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "render_checks.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/tolerances.h"
#include "riglens/core/character/character_scene.h"
#include "riglens/core/character/orl_character.h"
#include "riglens/core/view/orbit_camera.h"
#include "riglens/render/character/character_renderer.h"
#include "riglens/render/character/gpu_orl.h"
#include "riglens/render/device/offscreen_canvas.h"
#include "riglens/render/rig/frame_builder.h"
#include "riglens/samples/orl_sample.h"
#include "test_checks.h"

using namespace riglens;
namespace tol = core::tolerance;

namespace {

// The sample ORL character, as make-sample writes its pack.
core::Expected<core::OrlCharacter> sampleCharacter(const QString& folder) {
  auto sample = samples::makeSampleOrl(RIGLENS_DATA_DIR "/ict-face");
  if (!sample) return sample.error();
  auto bytes = samples::writeOrlPack(sample->pack);
  if (!bytes) return bytes.error();
  const std::string path = (folder + "/orl_pack.bin").toStdString();
  if (auto ok = core::writeFileAtomically(path, *bytes); !ok) return ok.error();
  return core::loadOrlCharacter(path);
}

double worst(std::span<const float> a, std::span<const float> b) {
  double most = 0;
  for (std::size_t i = 0; i < a.size(); ++i) most = std::max(most, double(std::abs(a[i] - b[i])));
  return most;
}

}  // namespace

class TestRenderOrl : public test::RenderTestCase {
  Q_OBJECT

 public:
  TestRenderOrl() : RenderTestCase(render::Backend::Vulkan) {}

 private slots:
  void gpuDeformMatchesTheCpuOnTheSample() {
    QTemporaryDir dir;
    auto character = sampleCharacter(dir.path());
    QVERIFY_OK(character);
    auto poser = core::OrlPoser::create(*character);
    QVERIFY_OK(poser);
    const auto& gui = character->dna->guiControlNames;
    std::vector<float> controls(gui.size(), 0.0f);
    for (const auto& [name, value] : {std::pair{"CTRL_C_jaw.ty", 0.8f},
                                      {"CTRL_C_jaw.tx", -0.4f},
                                      {"CTRL_L_mouth_cornerPull.ty", 1.0f},
                                      {"CTRL_R_eye.tx", 0.6f}})
      controls[std::size_t(std::find(gui.begin(), gui.end(), name) - gui.begin())] = value;
    QVERIFY_OK((*poser)->evaluate(controls, core::DnaControlMode::Gui));
    auto cpu = core::orlDeform(*character->pack, (*poser)->jointOutputs(), (*poser)->channelWeights());
    QVERIFY_OK(cpu);
    auto gpu = render::orlDeformOnGpu(*m_device, *character, (*poser)->jointOutputs(), (*poser)->channelWeights());
    QVERIFY_OK(gpu);
    QCOMPARE_NEAR(worst(*cpu, *gpu), 0.0, tol::kOrlGpuCentimetres);
    QVERIFY(worst(*cpu, character->pack->neutral) > tol::kMoved);  // the pose moved the face
    // Every blendshape entry is in the CSR once.
    const render::OrlCsr csr = render::buildOrlCsr(*character->pack);
    QCOMPARE(csr.channel.size(), character->pack->bsIndex.size());
    QCOMPARE(std::size_t(csr.offset.back()), csr.channel.size());
  }

  void gpuDeformMatchesTheReferenceFixture() {
    QFile file(QStringLiteral(RIGLENS_TEST_DATA_DIR "/orl/deform-synthetic.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const auto fixture = nlohmann::json::parse(file.readAll().toStdString());
    const QByteArray bytes =
        QByteArray::fromBase64(QByteArray::fromStdString(fixture["packBase64"].get<std::string>()));
    auto pack =
        core::parseOrlPack(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), std::size_t(bytes.size())),
                           "deform-synthetic.orl");
    QVERIFY_OK(pack);
    core::OrlCharacter character;  // the fixture carries no DNA: outputs go in directly
    character.pack = std::make_shared<const core::OrlPack>(std::move(pack).value());
    for (const auto& c : fixture["cases"]) {
      const auto joints = c["jointOut"].get<std::vector<float>>(), weights = c["bsOut"].get<std::vector<float>>();
      const auto expected = c["expected"].get<std::vector<float>>();
      auto gpu = render::orlDeformOnGpu(*m_device, character, joints, weights);
      QVERIFY_OK(gpu);
      QVERIFY2(worst(*gpu, expected) <= tol::kOrlGpuCentimetres,
               qPrintable(QString::fromStdString(c["name"].get<std::string>()) + ": " +
                          QString::number(worst(*gpu, expected))));
    }
  }

  // CharacterRenderer on both rig routes (the shader, and the CPU deform
  // uploaded): the jaw control changes the picture, and both routes draw
  // the same picture.
  void aJawControlChangesThePicture() {
    QTemporaryDir dir;
    auto loaded = sampleCharacter(dir.path());
    QVERIFY_OK(loaded);
    const auto character = std::make_shared<const core::OrlCharacter>(std::move(loaded).value());
    auto rest = core::orlRestPose(*character->pack);
    QVERIFY_OK(rest);
    core::OrbitCamera camera;
    camera.frame(core::fittedRestBounds(character->pack->neutral, *rest));
    camera.setAngles(70, 0);  // from the side, where the jaw's drop shows
    const render::FrameState state = render::cameraFrameState(camera, 1.0f);
    auto canvas = render::OffscreenCanvas::create(*m_device, QSize(160, 160));
    QVERIFY(canvas);
    std::vector<float> open(character->dna->guiControlNames.size(), 0.0f);
    open[0] = 1.0f;  // CTRL_C_jaw.ty, the sample's first widget
    QCOMPARE(character->dna->guiControlNames[0], std::string("CTRL_C_jaw.ty"));
    std::map<std::string, QImage> images;
    for (const render::GnmRoute route : {render::GnmRoute::Gpu, render::GnmRoute::Cpu}) {
      render::CharacterRenderer renderer(*m_device);
      renderer.setRaster(render::SplatRaster::Quads);
      renderer.setGnmRoute(route);
      renderer.setOrlCharacter(character);
      for (const auto& [name, controls] : {std::pair{"rest", std::vector<float>()}, {"open", open}}) {
        render::CharacterFrame frame;
        frame.controls = controls;
        renderer.setFrame(frame);
        auto image = (*canvas)->render(renderer, state);
        QVERIFY_OK(image);
        QVERIFY2(renderer.error().empty(), renderer.error().c_str());
        const std::string key = std::string(name) + (route == render::GnmRoute::Gpu ? "-gpu" : "-cpu");
        image->save(QStringLiteral(RIGLENS_TEST_OUTPUT_DIR "/orl-%1.png").arg(QString::fromStdString(key)));
        images[key] = *image;
      }
      QCOMPARE(renderer.orlJointOutputs()[9 + 3], 22.0f);  // the last frame's jaw rotation, from the DNA
    }
    QVERIFY(images["rest-gpu"] != images["open-gpu"]);
    const QString same = test::compareImages(images["open-gpu"], images["open-cpu"], "orl-open", {});
    QVERIFY2(same.isEmpty(), qPrintable(same));
  }
};

QTEST_MAIN(TestRenderOrl)
#include "tst_render_orl.moc"
