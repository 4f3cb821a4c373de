// riglens-cli character inspect PATH [--json]
// riglens-cli character pose PACK|ORL --controls FILE.json [--joint-worlds FILE.json]
//                              [--override NAME=w,x,y,z]... [--body-pose FILE.json] --out FILE [--json]
// riglens-cli character orl-deform PACK --outputs FILE.json --out FILE [--json]
// riglens-cli character evaluate FILE [--gui|--raw] --controls FILE.json [--lod N] [--json] (dna_command.cpp)
// riglens-cli character make-sample --out DIR ... (make_sample_command.cpp)
#include <cmath>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "character_commands.h"
#include "cli_common.h"
#include "inspect_summary.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_file.h"
#include "riglens/core/character/aosrig.h"
#include "riglens/core/character/bundle.h"
#include "riglens/core/character/character_scene.h"
#include "riglens/core/character/gnm.h"
#include "riglens/core/character/head_ext.h"
#include "riglens/core/character/orl_character.h"
#include "riglens/core/character/orl_pack.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/render/character/gpu_character.h"
#include "riglens/render/character/gpu_orl.h"
#include "riglens/render/device/rhi_device.h"

namespace riglens::cli {
namespace {

using nlohmann::json;

// Posed vertices as little-endian f32 (the machines we build for are little-endian).
int writeVertices(const std::vector<float>& v, const QString& out, bool asJson) {
  if (asJson) {
    const std::string text = json(v).dump() + "\n";
    if (auto ok = core::writeFileAtomically(out.toStdString(),
                                            {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
        !ok)
      return inputError(ok.error().message);
  } else if (auto ok = core::writeFileAtomically(out.toStdString(),
                                                 {reinterpret_cast<const std::uint8_t*>(v.data()), v.size() * 4});
             !ok) {
    return inputError(ok.error().message);
  }
  std::printf("%s: %zu vertices\n", qPrintable(out), v.size() / 3);
  return kExitOk;
}

// `character pose` for an ORL character (a pack, or a bundle folder whose rig
// is ORL): the controls file names the DNA's GUI or raw controls; the DNA is
// evaluated and the pack deformed (centimetres) on the CPU or, with --backend
// gpu, by the viewer's compute pass, read back. ORL joints follow the DNA only.
int poseOrl(const core::OrlCharacter& character, const QString& controlsPath, const QString& out, bool asJson,
            bool onGpu) {
  auto doc = core::readJsonFile(controlsPath.toStdString());
  if (!doc) return inputError(doc.error().message);
  auto controls = core::orlControlsFromJson(*character.dna, *doc, controlsPath.toStdString());
  if (!controls) return inputError(controls.error().message);
  auto poser = core::OrlPoser::create(character);
  if (!poser) return inputError(poser.error().message);
  if (auto ok = (*poser)->evaluate(controls->values, controls->mode); !ok) return inputError(ok.error().message);
  core::Expected<std::vector<float>> posed = std::vector<float>{};
  if (onGpu) {
    auto device = render::RhiDevice::createOffscreen(render::Backend::Vulkan);
    if (!device) return inputError("cannot start the GPU: " + device.error().message);
    posed = render::orlDeformOnGpu(**device, character, (*poser)->jointOutputs(), (*poser)->channelWeights());
  } else {
    posed = core::orlDeform(*character.pack, (*poser)->jointOutputs(), (*poser)->channelWeights());
  }
  if (!posed) return inputError(posed.error().message);
  return writeVertices(*posed, out, asJson);
}

// The ORL character PATH names (an ORL pack, or a bundle folder whose rig is ORL), or none.
std::optional<core::Expected<core::OrlCharacter>> orlCharacterAt(const std::string& path) {
  std::error_code ec;
  if (core::startsWithOrlMagic(path)) return core::loadOrlCharacter(path);
  if (!std::filesystem::is_directory(path, ec)) return std::nullopt;
  auto scene = core::loadCharacterScene(path);
  if (!scene) return core::Expected<core::OrlCharacter>(scene.error());
  if (!scene->orl) return std::nullopt;
  return core::Expected<core::OrlCharacter>(*scene->orl);
}

int inspect(const QStringList& args) {
  QCommandLineParser parser;
  const QCommandLineOption asJson("json", "Print JSON.");
  parser.addOption(asJson);
  if (auto done = parseCommand(parser, args, "character inspect",
                               "Describe an .aosrig, ORL pack, bundle folder or .ply (as `inspect` does).", "PATH"))
    return *done;
  if (parser.positionalArguments().size() != 1) return usageError("character inspect", "expected one PATH");
  auto summary = summarizeScene(parser.positionalArguments().first().toStdString());
  if (!summary) return inputError(summary.error().message);
  if (parser.isSet(asJson))
    std::printf("%s\n", summary->dump(2).c_str());
  else
    printSummary(*summary);
  return kExitOk;
}

// --override NAME=w,x,y,z values as joint rotations, or what is wrong with one.
std::optional<QString> readOverrides(const QStringList& values,
                                     std::vector<std::pair<std::string, glm::dquat>>* overrides) {
  for (const QString& o : values) {
    const int eq = o.indexOf('=');
    const QStringList q = eq > 0 ? o.mid(eq + 1).split(',') : QStringList();
    if (q.size() != 4) return "--override needs NAME=w,x,y,z, got '" + o + "'";
    double c[4];
    for (int k = 0; k < 4; ++k) {
      bool ok = false;
      c[k] = q[k].toDouble(&ok);
      if (!ok || !std::isfinite(c[k])) return "--override: '" + q[k] + "' is not a number in '" + o + "'";
    }
    if (c[0] == 0 && c[1] == 0 && c[2] == 0 && c[3] == 0)
      return "--override: a zero quaternion is no rotation ('" + o + "')";
    overrides->emplace_back(o.left(eq).toStdString(), glm::dquat(c[0], c[1], c[2], c[3]));
  }
  return std::nullopt;
}

int pose(const QStringList& args) {
  QCommandLineParser parser;
  const QCommandLineOption controls("controls", "JSON array in the pack's control order, or {name: value}.",
                                    "FILE.json");
  const QCommandLineOption worlds("joint-worlds", "JSON array of J row-major 4x4 matrices (16 numbers each).",
                                  "FILE.json");
  const QCommandLineOption override("override", "A joint rotation override (repeatable): NAME=w,x,y,z.",
                                    "NAME=w,x,y,z");
  const QCommandLineOption out("out", "Posed vertices: V*3 little-endian f32, metres.", "FILE");
  const QCommandLineOption asJson("json", "Write the vertices as a JSON array instead (small packs).");
  const QCommandLineOption backend("backend", "cpu (default) or gpu (the Vulkan compute pass, read back).", "cpu|gpu",
                                   "cpu");
  const QCommandLineOption bodyPose("body-pose",
                                    "A body pose {bones: [{name, rotation: [w,x,y,z]}], rootPos: [x,y,z]}: the bones "
                                    "become joint overrides, rootPos moves the vertices.",
                                    "FILE.json");
  parser.addOptions({controls, worlds, override, out, asJson, backend, bodyPose});
  if (auto done =
          parseCommand(parser, args, "character pose",
                       "Pose a GNM pack (metres) or an ORL character (its pack or bundle; centimetres).", "PACK"))
    return *done;
  if (parser.positionalArguments().size() != 1 || !parser.isSet(controls) || !parser.isSet(out))
    return usageError("character pose", "needs PACK, --controls FILE.json and --out FILE");
  if (parser.value(backend) != "cpu" && parser.value(backend) != "gpu")
    return usageError("character pose", "--backend must be cpu or gpu");
  if (auto orl = orlCharacterAt(parser.positionalArguments().first().toStdString())) {
    if (!*orl) return inputError(orl->error().message);
    if (parser.isSet(worlds) || parser.isSet(override) || parser.isSet(bodyPose))
      return usageError("character pose",
                        "an ORL character's joints follow its DNA: no --joint-worlds, --override or --body-pose");
    return poseOrl(**orl, parser.value(controls), parser.value(out), parser.isSet(asJson),
                   parser.value(backend) == "gpu");
  }
  auto pack = core::readAosRig(parser.positionalArguments().first().toStdString());
  if (!pack) return inputError(pack.error().message);
  auto doc = core::readJsonFile(parser.value(controls).toStdString());
  if (!doc) return inputError(doc.error().message);
  auto parsedControls = core::controlsFromJson(pack->headExt, *doc, parser.value(controls).toStdString());
  if (!parsedControls) return inputError(parsedControls.error().message);
  const std::vector<float> headExt = std::move(parsedControls).value();
  core::GnmJointState joints(*pack);
  if (parser.isSet(worlds)) {
    const std::string worldsPath = parser.value(worlds).toStdString();
    auto worldsDoc = core::readJsonFile(worldsPath);
    if (!worldsDoc) return inputError(worldsDoc.error().message);
    auto flat = core::jointWorldsFromJson(*worldsDoc, pack->joints.size(), worldsPath);
    if (!flat) return inputError(flat.error().message);
    if (auto ok = joints.setJointWorlds(*flat); !ok) return inputError(worldsPath + ": " + ok.error().message);
  }
  std::vector<std::pair<std::string, glm::dquat>> overrides;
  if (auto problem = readOverrides(parser.values(override), &overrides)) return usageError("character pose", *problem);
  int exitCode = kExitOk;
  const auto body = readBodyPose(parser, bodyPose, &exitCode);
  if (!body) return exitCode;
  overrides.insert(overrides.begin(), body->bones.begin(), body->bones.end());  // --override comes after
  if (!overrides.empty()) joints.setJointOverrides(overrides);
  core::Expected<std::vector<float>> posed = std::vector<float>{};
  if (parser.value(backend) == "gpu") {
    auto device = render::RhiDevice::createOffscreen(render::Backend::Vulkan);
    if (!device) return inputError("cannot start the GPU: " + device.error().message);
    posed = render::gnmPoseOnGpu(**device, *pack, headExt, &joints);
  } else {
    posed = core::gnmPose(*pack, headExt, &joints);
  }
  if (!posed) return inputError(posed.error().message);
  for (std::size_t i = 0; i < posed->size(); ++i) (*posed)[i] += float(body->rootPos[int(i % 3)]);
  return writeVertices(*posed, parser.value(out), parser.isSet(asJson));
}

int orlDeform(const QStringList& args) {
  QCommandLineParser parser;
  const QCommandLineOption outputs("outputs", "JSON {jointOut: [J*9], bsOut: [channels]}.", "FILE.json");
  const QCommandLineOption out("out", "Deformed vertices: V*3 little-endian f32, centimetres.", "FILE");
  const QCommandLineOption asJson("json", "Write the vertices as a JSON array instead.");
  parser.addOptions({outputs, out, asJson});
  if (auto done = parseCommand(parser, args, "character orl-deform",
                               "Deform an ORL pack from joint outputs and channel weights.", "PACK"))
    return *done;
  if (parser.positionalArguments().size() != 1 || !parser.isSet(outputs) || !parser.isSet(out))
    return usageError("character orl-deform", "needs PACK, --outputs FILE.json and --out FILE");
  const std::string packPath = parser.positionalArguments().first().toStdString();
  auto bytes = core::readFileBytes(packPath);
  if (!bytes) return inputError(bytes.error().message);
  auto pack = core::parseOrlPack(*bytes, packPath);
  if (!pack) return inputError(pack.error().message);
  auto doc = core::readJsonFile(parser.value(outputs).toStdString());
  if (!doc) return inputError(doc.error().message);
  auto outputsRead = core::orlOutputsFromJson(*pack, *doc, parser.value(outputs).toStdString());
  if (!outputsRead) return inputError(outputsRead.error().message);
  auto deformed = core::orlDeform(*pack, outputsRead->jointOut, outputsRead->bsOut);
  if (!deformed) return inputError(deformed.error().message);
  return writeVertices(*deformed, parser.value(out), parser.isSet(asJson));
}

}  // namespace

int runCharacter(const QStringList& args) {
  const QString usage = QStringLiteral(
      "Usage: riglens-cli character <inspect|pose|orl-deform|evaluate|make-sample|splats> ...\n"
      "  inspect PATH [--json]                          an .aosrig, ORL pack or bundle folder\n"
      "  pose PACK --controls F.json [--joint-worlds F.json] [--override N=w,x,y,z]... [--body-pose F.json] --out FILE "
      "[--json]\n"
      "                                                 PACK: a GNM pack, or an ORL pack / ORL bundle (DNA controls)\n"
      "  orl-deform PACK --outputs F.json --out FILE [--json]\n"
      "  evaluate FILE [--gui|--raw] --controls F.json [--lod N] [--json]\n"
      "                                                 a DNA's (or an ORL pack's) outputs for its controls\n"
      "  make-sample --out DIR [--ict DIR] [--decoders DIR|--no-decoders] [--orl-decoders DIR] [--uv-res N] "
      "[--schema1]\n"
      "                                                 the sample character from ICT-FaceKit\n"
      "  splats BUNDLE [--controls F.json] [--yaw D] [--pitch D] [--fp32] --out FILE.ply\n"
      "                                                 one decoded frame as a 3DGS .ply\n");
  if (args.size() < 2 || args[1] == "--help" || args[1] == "-h") {
    std::fputs(qPrintable(usage), args.size() < 2 ? stderr : stdout);
    return args.size() < 2 ? kExitUsage : kExitOk;
  }
  const QString sub = args[1];
  const QStringList rest = QStringList{"character " + sub} + args.mid(2);
  if (sub == "inspect") return inspect(rest);
  if (sub == "pose") return pose(rest);
  if (sub == "orl-deform") return orlDeform(rest);
  if (sub == "evaluate") return characterEvaluate(rest);
  if (sub == "make-sample") return characterMakeSample(rest);
  if (sub == "splats") return characterSplats(rest);
  std::fprintf(stderr, "riglens-cli character: unknown subcommand '%s'\n%s", qPrintable(sub), qPrintable(usage));
  return kExitUsage;
}

}  // namespace riglens::cli
