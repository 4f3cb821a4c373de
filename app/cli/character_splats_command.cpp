// riglens-cli character splats BUNDLE [--controls F.json] [--yaw D] [--pitch D]
//                                [--size WxH] [--fp32] [--body-pose F.json] --out frame.ply
// The decoded character of one frame as a standard 3DGS .ply: the GNM or ORL
// rig posed on the CPU (--controls: the GNM head_ext, or the DNA's GUI or raw
// controls by name), the decoders run through OpenCV's DNN module with the
// camera's plucker rays, both lift passes on the CPU (core::uv_lift).
#include <QtCore/QCommandLineParser>
#include <QtCore/QSize>

#include "character_commands.h"
#include "cli_common.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_file.h"
#include "riglens/core/character/gnm.h"
#include "riglens/core/character/head_ext.h"
#include "riglens/core/decoded/decoded_character.h"
#include "riglens/core/decoded/sink_gaussians.h"
#include "riglens/core/view/orbit_camera.h"
#include "riglens/decode/opencv_decoder.h"

namespace riglens::cli {

int characterSplats(const QStringList& args) {
  QCommandLineParser parser;
  const QCommandLineOption out("out", "The .ply to write.", "FILE.ply");
  const QCommandLineOption controls(
      "controls", "Controls JSON: GNM, an array or {name: value}; ORL, {name: value} of the DNA's GUI or raw controls.",
      "FILE.json");
  const QCommandLineOption yaw("yaw", "Camera yaw in degrees (default 35).", "DEG", "35");
  const QCommandLineOption pitch("pitch", "Camera pitch in degrees (default 25).", "DEG", "25");
  const QCommandLineOption size("size", "The view the appearance is decoded for (default 800x600).", "WxH", "800x600");
  const QCommandLineOption fp32("fp32", "Use the fp32 decoders even where fp16 siblings exist.");
  const QCommandLineOption bodyPose("body-pose", "A body pose {bones: [{name, rotation}], rootPos}.", "FILE.json");
  parser.addOptions({out, controls, yaw, pitch, size, fp32, bodyPose});
  if (auto done = parseCommand(parser, args, "character splats",
                               "Write the decoded character's gaussians of one frame as a 3DGS .ply.", "BUNDLE"))
    return *done;
  if (parser.positionalArguments().size() != 1) return usageError("character splats", "expected one BUNDLE");
  if (!parser.isSet(out)) return usageError("character splats", "missing --out FILE.ply");
  bool ok1 = false, ok2 = false;
  const float yawDeg = parser.value(yaw).toFloat(&ok1), pitchDeg = parser.value(pitch).toFloat(&ok2);
  QSize view;
  if (!ok1 || !ok2 || !parseSize(parser.value(size), &view))
    return usageError("character splats", "--yaw and --pitch need numbers, --size WxH");

  auto bundle = core::loadBundle(parser.positionalArguments().first().toStdString());
  if (!bundle) return inputError(bundle.error().message);
  auto shared = std::make_shared<const core::Bundle>(std::move(bundle).value());
  core::Diagnostics notes = shared->problems;
  auto character = core::DecodedCharacter::open(shared, decode::openCvOpener(), {!parser.isSet(fp32)}, notes);
  if (!character) return inputError(character.error().message);
  for (const auto& n : notes) std::fprintf(stderr, "%s: %s\n", core::severityName(n.severity), n.describe().c_str());

  std::vector<float> rig = (*character)->referenceRig();
  if (parser.isSet(controls)) {
    auto parsed = core::readRigVector(*shared, parser.value(controls).toStdString());
    if (!parsed) return inputError(parsed.error().message);
    rig = std::move(parsed).value();
  }
  int exitCode = kExitOk;
  const auto body = readBodyPose(parser, bodyPose, &exitCode);
  if (!body) return exitCode;
  core::RigCpuPose posed;
  if (shared->gnmPack) {
    core::GnmJointState joints(*shared->gnmPack);
    joints.setJointOverrides(body->bones);
    auto pose = core::gnmPose(*shared->gnmPack, rig, &joints);
    if (!pose) return inputError(pose.error().message);
    posed.vertices = std::move(pose).value();
  } else if (shared->orl) {
    if (!body->bones.empty())  // DECODERS.md C1: head aim goes on the body skeleton
      std::fprintf(stderr, "warning: an ORL rig takes no joint overrides; the body pose's bones are ignored\n");
    auto pose = core::poseRigCpu(*shared, rig);
    if (!pose) return inputError(pose.error().message);
    posed = std::move(pose).value();
  }
  core::OrbitCamera camera;
  const float aspect = float(view.width()) / float(view.height());
  camera.frame((*character)->bounds(), aspect);
  camera.setAngles(yawDeg, pitchDeg);
  // The camera frames the character at its root: already in the root's frame.
  auto pass = (*character)->decode(rig, core::pluckerCamera(camera, aspect));
  if (!pass) return inputError(pass.error().message);
  core::SplatSink sink((*character)->capacity());
  (*character)->liftCpu(posed.vertices, sink, posed.jointOutputs);
  const glm::vec3 root(body->rootPos);  // rootPos moves the character
  for (std::size_t s = 0; s < sink.capacity(); ++s)
    if (sink.color[s] != 0u)
      for (int k = 0; k < 3; ++k) sink.center[s * 4 + std::size_t(k)] += root[k];
  const auto gaussians = core::sinkGaussians(sink);
  const auto bytes = core::encodeGaussianPly(gaussians);
  if (auto ok = core::writeFileAtomically(parser.value(out).toStdString(), bytes); !ok)
    return inputError(ok.error().message);
  std::printf("%s: %zu gaussians of %u slots\n", qPrintable(parser.value(out)), gaussians.size(),
              (*character)->capacity());
  return kExitOk;
}

}  // namespace riglens::cli
