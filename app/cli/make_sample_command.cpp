// riglens-cli character make-sample --out DIR [--ict DIR] [--decoders DIR|--no-decoders]
//                                   [--orl-decoders DIR] [--uv-res N] [--schema1]
// The sample characters from ICT-FaceKit: sample-face.aosrig, sample-bundle/
// and sample-orl-bundle/. They are written into a staging folder inside DIR
// first; every bundle given decoders decodes one frame there, and only then
// do they replace what DIR held. A bundle whose decoders do not fit it (the
// shipped decoders write 128 x 128 maps, so `--uv-res 32` needs decoders of
// its own, and a schema-1 bundle fused ones) is refused with the decoder's
// message, and DIR is left as it was.
#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <filesystem>
#include <memory>
#include <string>

#include "character_commands.h"
#include "cli_common.h"
#include "riglens/core/base/data_paths.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/character/bundle.h"
#include "riglens/core/decoded/decoded_character.h"
#include "riglens/core/decoded/plucker.h"
#include "riglens/core/view/orbit_camera.h"
#include "riglens/decode/opencv_decoder.h"
#include "riglens/samples/character_sample.h"
#include "riglens/samples/orl_sample.h"

namespace riglens::cli {
namespace {

namespace fs = std::filesystem;

// What make-sample writes into --out, in the order it replaces them.
constexpr const char* kSampleProducts[] = {"sample-face.aosrig", "sample-bundle", "sample-orl-bundle"};

// The bundle's decoders open and decode one frame at its reference rig, as
// `character splats` and the viewer would: a graph that does not load, or
// maps whose shape the lift cannot take, fail here.
core::Expected<void> decodesOneFrame(const fs::path& folder) {
  auto bundle = core::loadBundle(folder);
  if (!bundle) return bundle.error();
  auto shared = std::make_shared<const core::Bundle>(std::move(bundle).value());
  core::Diagnostics notes;
  auto character = core::DecodedCharacter::open(shared, decode::openCvOpener(), {true}, notes);
  if (!character) return character.error();
  core::OrbitCamera camera;
  const float aspect = 4.0f / 3.0f;
  camera.frame((*character)->bounds(), aspect);
  auto pass = (*character)->decode((*character)->referenceRig(), core::pluckerCamera(camera, aspect));
  if (!pass) return pass.error();
  return {};
}

// Replaces --out's products by the staged ones, each by renames inside one
// folder: the previous one is set aside, the new one moved in, the old one
// removed. A rename that fails puts the previous one back.
core::Expected<void> moveIntoPlace(const fs::path& staging, const fs::path& out) {
  for (const char* name : kSampleProducts) {
    const fs::path from = staging / name, to = out / name, old = staging / (std::string("previous-") + name);
    std::error_code ec;
    if (!fs::exists(from, ec)) continue;
    const bool hadOne = fs::exists(to, ec);
    if (hadOne) fs::rename(to, old, ec);
    if (!ec) fs::rename(from, to, ec);
    if (ec) {
      std::error_code ignored;
      if (hadOne && !fs::exists(to, ignored)) fs::rename(old, to, ignored);
      return core::errorAt(core::ErrorCode::Io, to.string(), "",
                           "cannot move the new sample into place: " + ec.message());
    }
  }
  return {};
}

// The staging folder's path in a message names the product's place in --out.
std::string namedInOut(std::string message, const fs::path& staging, const fs::path& out) {
  const std::string from = staging.string(), to = out.string();
  for (auto at = message.find(from); at != std::string::npos; at = message.find(from, at + to.size()))
    message.replace(at, from.size(), to);
  return message;
}

struct MakeSampleRequest {
  fs::path out, face;
  samples::SampleBundleOptions gnm, orl;
};

core::Expected<void> writeAndCheck(const MakeSampleRequest& r, const fs::path& staging) {
  if (auto written = samples::writeSampleCharacter(r.face, staging, r.gnm); !written) return written;
  if (auto written = samples::writeSampleOrlBundle(r.face, staging, r.orl); !written) return written;
  const std::pair<const char*, const samples::SampleBundleOptions*> bundles[] = {{"sample-bundle", &r.gnm},
                                                                                 {"sample-orl-bundle", &r.orl}};
  for (const auto& [name, options] : bundles) {
    if (options->decoders.empty()) continue;
    if (auto ok = decodesOneFrame(staging / name); !ok)
      return core::errorAt(
          ok.error().code, "", "",
          std::string(name) + " (--uv-res " + std::to_string(options->uvRes) + (options->schema1 ? ", --schema1" : "") +
              ") does not decode with the decoders of " + options->decoders.string() + ": " + ok.error().message +
              " - give --decoders/--orl-decoders made for it (tools/decoders/make_decoders.py --uv-res N, "
              "--fused for --schema1) or --no-decoders; nothing was written");
  }
  return moveIntoPlace(staging, r.out);
}

int writeSamples(const MakeSampleRequest& request) {
  std::error_code ec;
  const bool outExisted = fs::exists(request.out, ec);
  fs::create_directories(request.out, ec);
  if (ec) return inputError(request.out.string() + ": cannot create folder: " + ec.message());
  const fs::path staging = request.out / (".make-sample-" + std::to_string(QCoreApplication::applicationPid()));
  fs::remove_all(staging, ec);
  auto done = writeAndCheck(request, staging);
  fs::remove_all(staging, ec);
  if (!done) {
    if (!outExisted) fs::remove(request.out, ec);  // only if still empty
    return inputError(namedInOut(done.error().message, staging, request.out));
  }
  const std::string out = request.out.string();
  std::printf("%s/sample-face.aosrig\n%s/sample-bundle\n%s/sample-orl-bundle\n", out.c_str(), out.c_str(), out.c_str());
  return kExitOk;
}

}  // namespace

int characterMakeSample(const QStringList& args) {
  QCommandLineParser parser;
  const QCommandLineOption out("out", "Folder for sample-face.aosrig, sample-bundle/ and sample-orl-bundle/.", "DIR");
  const QCommandLineOption ict("ict",
                               "The ICT-FaceKit face data (default: the one RigLens ships, "
                               "<bin>/../share/riglens/ict-face).",
                               "DIR");
  const QCommandLineOption decoders("decoders",
                                    "Decoders to put in the bundle: trunk_head/geom_head/appr_head .onnx (default: "
                                    "the sample decoders RigLens ships, <bin>/../share/riglens/sample-decoders).",
                                    "DIR");
  const QCommandLineOption orlDecoders(
      "orl-decoders",
      "Decoders to put in the ORL bundle, taking its 52 controls (default: the ones RigLens ships, "
      "<bin>/../share/riglens/sample-orl-decoders).",
      "DIR");
  const QCommandLineOption noDecoders("no-decoders", "Bundles without decoders (the debug preview only).");
  const QCommandLineOption uvRes("uv-res",
                                 "The head branch's UV map resolution (default 128, the shipped decoders'; "
                                 "another needs --decoders made for it or --no-decoders).",
                                 "N", "128");
  const QCommandLineOption schema1("schema1", "Write a single-region (schema 1) bundle: mesh.json, geom/appr.onnx.");
  parser.addOptions({out, ict, decoders, orlDecoders, noDecoders, uvRes, schema1});
  if (auto done = parseCommand(parser, args, "character make-sample", "Write the sample character.", nullptr))
    return *done;
  if (!parser.isSet(out)) return usageError("character make-sample", "missing --out DIR");
  MakeSampleRequest request;
  request.out = parser.value(out).toStdString();
  bool ok = false;
  request.gnm.uvRes = parser.value(uvRes).toInt(&ok);
  if (!ok || request.gnm.uvRes < 8 || request.gnm.uvRes > 2048)
    return usageError("character make-sample", "--uv-res needs a whole number between 8 and 2048");
  request.gnm.schema1 = parser.isSet(schema1);
  request.orl.uvRes = request.gnm.uvRes;
  const std::string bin = QCoreApplication::applicationDirPath().toStdString();
  if (parser.isSet(decoders))
    request.gnm.decoders = parser.value(decoders).toStdString();
  else if (!parser.isSet(noDecoders))
    request.gnm.decoders = samples::shippedSampleDecoders(bin);
  if (parser.isSet(orlDecoders))
    request.orl.decoders = parser.value(orlDecoders).toStdString();
  else if (!parser.isSet(noDecoders))
    request.orl.decoders = samples::shippedSampleDecoders(bin, "sample-orl-decoders");
  if (parser.isSet(ict)) {
    request.face = parser.value(ict).toStdString();
  } else {
    auto shipped = core::findShippedData(bin, "ict-face");
    if (!shipped) return inputError(shipped.error().message + " with --ict DIR");
    request.face = *shipped;
  }
  return writeSamples(request);
}

}  // namespace riglens::cli
