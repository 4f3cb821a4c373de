// riglens-cli render PATH --out FILE.png [--size WxH] [--set NAME=VALUE]... [--expression NAME=WEIGHT]...
//   [--play NAME --time-ms T] [--tint MODE] [--yaw DEG --pitch DEG]
//   [--turntable N --out-pattern shot_{i}.png] [--backend vulkan|opengl]
#include <malloc.h>

#include <QtCore/QDir>
#include <QtGui/QImage>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <variant>

#include "camera_description.h"
#include "cli_common.h"
#include "riglens/core/base/json_file.h"
#include "riglens/core/base/stage_timings.h"
#include "riglens/core/character/aosrig.h"
#include "riglens/core/character/bundle.h"
#include "riglens/core/character/character_scene.h"
#include "riglens/core/character/head_ext.h"
#include "riglens/core/decoded/decoded_character.h"
#include "riglens/core/gltf/gltf_camera.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/model_nodes.h"
#include "riglens/core/rig/scene_bounds.h"
#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/core/splats/splat_orientation.h"
#include "riglens/core/view/orbit_camera.h"
#include "riglens/decode/opencv_decoder.h"
#include "riglens/render/character/character_renderer.h"
#include "riglens/render/character/character_splats.h"
#include "riglens/render/device/frame_drawable.h"
#include "riglens/render/device/offscreen_canvas.h"
#include "riglens/render/rig/frame_builder.h"
#include "riglens/render/rig/rig_renderer.h"
#include "riglens/render/splats/splat_renderer.h"

namespace riglens::cli {

namespace {

// Qt's PNG "quality" 80 is zlib level 1: a 1280x720 frame encodes in ~28 ms
// instead of ~45 (level 6) for ~9% more bytes.
constexpr int kPngQuality = 80;
// A file camera's aspect ratio and the image's differ by more than this share:
// the view is stretched, and the CLI says so (a --size rounded to pixels is not).
constexpr double kAspectMismatch = 0.01;

// Where the images go: one --out PNG, or --turntable N shots (yaw steps of
// 360/N) to --out-pattern and/or side by side into --strip.
struct Shots {
  int count = 1;
  bool turntable = false;
  QString out, pattern, strip;
};

float shotYaw(const Shots& shots, float yaw, int shot) {
  return yaw + 360.0f * float(shot) / float(shots.count);
}

// Renders every shot of `shots` with the state `stateAt(yawDeg)` and writes
// them; `afterFirst` runs once the first shot is drawn (all on the GPU).
int writeShots(render::OffscreenCanvas& canvas, render::FrameDrawable& drawable, QSize size, const Shots& shots,
               float yaw, const std::function<render::FrameState(float)>& stateAt,
               const std::function<void()>& afterFirst = {}) {
  QImage stripImage;
  if (!shots.strip.isEmpty()) {
    stripImage = QImage(size.width() * shots.count, size.height(), QImage::Format_RGBA8888);
    stripImage.fill(Qt::transparent);
  }
  for (int i = 0; i < shots.count; ++i) {
    auto image = canvas.render(drawable, stateAt(shotYaw(shots, yaw, i)));
    if (!image) return inputError(image.error().message);
    if (i == 0 && afterFirst) afterFirst();
    if (i == 0) {  // the first frame's share of the start-up (--timings)
      const auto times = canvas.lastFrameTimes();
      auto& timings = core::StageTimings::instance();
      if (const auto* rig = dynamic_cast<const render::RigRenderer*>(&drawable)) {
        const auto prepare = rig->modelPrepareTimes();
        timings.add("first frame: upload (recorded)", prepare.uploadMs);
        timings.add("first frame: pipelines", prepare.pipelinesMs);
        timings.add("first frame: rest of prepare",
                    std::max(0.0, times.prepareMs - prepare.uploadMs - prepare.pipelinesMs));
      } else {
        timings.add("first frame: prepare", times.prepareMs);
      }
      timings.add("first frame: draw, GPU done", times.gpuMs);
      timings.add("first frame: readback copy", times.readbackMs);
    }
    if (!stripImage.isNull())
      for (int y = 0; y < size.height(); ++y)
        std::memcpy(stripImage.scanLine(y) + 4 * size.width() * i, image->constScanLine(y),
                    4 * std::size_t(size.width()));
    if (shots.turntable && shots.pattern.isEmpty()) continue;
    QString file = shots.turntable ? shots.pattern : shots.out;
    file.replace("{i}", QString::number(i));
    if (!core::StageTimings::instance().time("PNG encode and write",
                                             [&] { return image->save(file, "PNG", kPngQuality); }))
      return inputError(file.toStdString() + ": cannot write the PNG");
    std::printf("%s\n", qPrintable(QDir(file).absolutePath()));
  }
  if (!stripImage.isNull()) {
    if (!stripImage.save(shots.strip, "PNG", kPngQuality))
      return inputError(shots.strip.toStdString() + ": cannot write the PNG");
    std::printf("%s\n", qPrintable(QDir(shots.strip).absolutePath()));
  }
  return kExitOk;
}

// The CPU copies of parts [from, to) of a model the GPU now holds: nothing
// reads them again in a render, and on a CPU rasteriser the draw that
// follows takes hundreds of megabytes of its own (228 MB of geometry on the
// large sample). Trimming hands the pages back to the system: the driver
// allocates from other threads' arenas, which cannot reuse the main one's
// free memory. Returns `to`.
std::size_t releaseMeshes(core::LoadedRun& run, std::size_t from, std::size_t to) {
  for (std::size_t p = from; p < std::min(to, run.meshes.size()); ++p) {
    const bool closed = run.meshes[p].closed;
    run.meshes[p] = core::PartMesh{};
    run.meshes[p].closed = closed;
  }
  malloc_trim(0);
  return to;
}

// Splats render at one sample unless asked (--samples 0 is the default):
// gaussians are smooth and drawn alone, so multisampling them shows nothing
// and costs (on the H200 a 4x target's clear and resolve are a fifth of a
// million-splat frame; on lavapipe 8 of a character's 35 ms).
int splatSamples(int requested) {
  return requested == 0 ? 1 : requested;
}

// Draws splats (a cloud or a character), framed on `bounds` (in the splats'
// coordinates, which `toWorld` stands in the world).
int renderSplats(render::RhiDevice& device, render::FrameDrawable& drawable, const core::Bounds& bounds, QSize size,
                 float yaw, float pitch, int samples, const Shots& shots, const glm::mat4& toWorld = glm::mat4(1.0f)) {
  auto canvas = render::OffscreenCanvas::create(device, size, splatSamples(samples));
  if (!canvas) return inputError(canvas.error().message);
  core::OrbitCamera camera;
  const float aspect = float(size.width()) / float(size.height());
  camera.frame(bounds.transformed(toWorld), aspect);
  return writeShots(**canvas, drawable, size, shots, yaw, [&](float yawDeg) {
    camera.setAngles(yawDeg, pitch);
    render::FrameState state = render::cameraFrameState(camera, aspect);
    state.splatModel = toWorld;
    return state;
  });
}

int renderDecoded(std::shared_ptr<const core::Bundle> bundle, QSize size, float yaw, float pitch, int samples,
                  const Shots& shots, const QString& controlsPath, const core::BodyPose& body,
                  std::optional<render::SplatRaster> raster);

// A character: its rig (GNM or ORL) on the GPU, the debug lift on the GPU, then the splats.
int renderCharacter(const QString& path, QSize size, float yaw, float pitch, int samples, const Shots& shots,
                    const QString& controlsPath, const QString& tint, const QString& sigmaText, bool preview,
                    const core::BodyPose& body, std::optional<render::SplatRaster> raster) {
  render::CharacterLook look;
  bool ok = false;
  look.sigma = sigmaText.toFloat(&ok);
  if (!ok || !(look.sigma > 0)) return usageError("render", "--sigma needs a positive number");
  const auto parsedTint = render::parseCharacterTint(tint.toStdString());
  if (!parsedTint) return usageError("render", "character tints: joint, uv, height, flat, normals; got '" + tint + "'");
  look.tint = *parsedTint;
  auto scene = core::loadCharacterScene(path.toStdString());
  if (!scene) return inputError(scene.error().message);
  // A bundle with decoders: the decoded character, from the bundle the scene loaded.
  if (!preview && (scene->pack || scene->orl) && scene->bundle && !scene->bundle->decoders.empty())
    return renderDecoded(scene->bundle, size, yaw, pitch, samples, shots, controlsPath, body, raster);
  render::CharacterFrame frame;
  if (!controlsPath.isEmpty()) {
    auto doc = core::readJsonFile(controlsPath.toStdString());
    if (!doc) return inputError(doc.error().message);
    if (scene->orl) {  // the DNA's GUI or raw controls by name
      auto parsed = core::orlControlsFromJson(*scene->orl->dna, *doc, controlsPath.toStdString());
      if (!parsed) return inputError(parsed.error().message);
      frame.controls = std::move(parsed->values);
      frame.rawControls = parsed->mode == core::DnaControlMode::Raw;
    } else {
      auto parsed = core::controlsFromJson(scene->pack->headExt, *doc, controlsPath.toStdString());
      if (!parsed) return inputError(parsed.error().message);
      frame.controls = std::move(parsed).value();
    }
  }
  auto device = render::RhiDevice::createOffscreen(render::Backend::Vulkan);
  if (!device) return inputError("cannot start the GPU: " + device.error().message);
  // The viewer's path: GNM, lift and splats chained on the GPU, no read-back.
  render::CharacterRenderer renderer(**device);
  if (raster) renderer.setRaster(*raster);
  if (scene->orl)
    renderer.setOrlCharacter(scene->orl);
  else
    renderer.setPack(scene->pack);
  frame.look = look;
  frame.jointOverrides = body.bones;
  frame.rootPosition = glm::vec3(body.rootPos);
  core::Bounds bounds = scene->bounds;
  bounds.min += frame.rootPosition;
  bounds.max += frame.rootPosition;
  renderer.setFrame(std::move(frame));
  renderer.setBoundingSphere(bounds.center(), bounds.radius());
  return renderSplats(**device, renderer, bounds, size, yaw, pitch, samples, shots);
}

// A bundle with decoders: the decoded character. The decoders run on the CPU
// (OpenCV's DNN) for each shot's camera (the first shot a full pass, the
// turntable's others appearance only), the rig (GNM or ORL) and both lift
// passes on the GPU.
int renderDecoded(std::shared_ptr<const core::Bundle> bundle, QSize size, float yaw, float pitch, int samples,
                  const Shots& shots, const QString& controlsPath, const core::BodyPose& body,
                  std::optional<render::SplatRaster> raster) {
  core::Diagnostics notes;
  auto character = core::DecodedCharacter::open(bundle, decode::openCvOpener(), {}, notes);
  if (!character) return inputError(character.error().message);
  for (const auto& n : notes)
    if (n.severity != core::Severity::Info)
      std::fprintf(stderr, "%s: %s\n", core::severityName(n.severity), n.describe().c_str());
  std::vector<float> rig = (*character)->referenceRig();
  if (!controlsPath.isEmpty()) {
    auto parsed = core::readRigVector(*bundle, controlsPath.toStdString());
    if (!parsed) return inputError(parsed.error().message);
    rig = std::move(parsed).value();
  }
  auto device = render::RhiDevice::createOffscreen(render::Backend::Vulkan);
  if (!device) return inputError("cannot start the GPU: " + device.error().message);
  render::CharacterRenderer renderer(**device);
  if (raster) renderer.setRaster(*raster);
  auto layout = std::make_shared<render::DecodedLayout>();
  layout->bundle = bundle;
  layout->branches = (*character)->liftSpecs();
  layout->capacity = (*character)->capacity();
  layout->bounds = (*character)->bounds();
  if (bundle->gnmPack)
    renderer.setPack(std::shared_ptr<const core::AosRigPack>(bundle, &*bundle->gnmPack));
  else
    renderer.setOrlCharacter(bundle->orl);
  renderer.setDecodedLayout(layout);
  render::CharacterFrame frame;
  frame.jointOverrides = body.bones;
  frame.rootPosition = glm::vec3(body.rootPos);
  frame.awaitDecode = true;
  renderer.setFrame(frame);
  core::Bounds bounds = (*character)->bounds();
  bounds.min += frame.rootPosition;
  bounds.max += frame.rootPosition;
  renderer.setBoundingSphere(bounds.center(), bounds.radius());
  auto canvas = render::OffscreenCanvas::create(**device, size, splatSamples(samples));
  if (!canvas) return inputError(canvas.error().message);
  core::OrbitCamera camera;
  const float aspect = float(size.width()) / float(size.height());
  camera.frame(bounds, aspect);
  std::optional<core::Error> failed;
  const int written = writeShots(**canvas, renderer, size, shots, yaw, [&](float yawDeg) {
    camera.setAngles(yawDeg, pitch);
    core::PluckerCamera view = core::pluckerCamera(camera, aspect);
    view.position -= frame.rootPosition;  // the decoders see the camera in the character root's frame
    auto pass = (*character)->decode(rig, view);
    if (!pass)
      failed = pass.error();
    else if (*pass != core::DecodePass::None)
      renderer.setDecodedOutputs(std::make_shared<const core::DecodedOutputs>((*character)->outputs(*pass)));
    return render::cameraFrameState(camera, aspect);
  });
  if (failed) return inputError(failed->message);
  return written;
}

// A 3DGS .ply scene: the splat renderer, framed on the dense part of the
// cloud, standing as `up` says (unset: core::defaultSplatUp).
int renderGaussians(const QString& path, QSize size, float yaw, float pitch, int samples, const Shots& shots,
                    bool vulkan, std::optional<render::SplatRaster> raster, std::optional<core::SplatUp> up) {
  auto cloud = core::readGaussianPly(path.toStdString());
  if (!cloud) return inputError(cloud.error().message);
  auto device = render::RhiDevice::createOffscreen(vulkan ? render::Backend::Vulkan : render::Backend::OpenGL);
  if (!device) return inputError("cannot start the GPU: " + device.error().message);
  const core::Bounds all = core::cloudBounds(*cloud), framed = core::denseCloudBounds(*cloud);
  const glm::mat4 toWorld = core::splatToWorld(up.value_or(core::defaultSplatUp(*cloud)));
  render::SplatRenderer renderer(**device);
  if (raster) renderer.setRaster(*raster);
  renderer.setCloud(std::make_shared<const core::GaussianCloud>(std::move(cloud).value()));
  renderer.setBoundingSphere(all.center(), all.radius());  // culling: every gaussian, floaters too
  return renderSplats(**device, renderer, framed, size, yaw, pitch, samples, shots, toWorld);
}

// render's options, declared once: parsed by runRender, read by the paths.
struct RenderOptions {
  const QCommandLineOption out{"out", "The PNG to write.", "FILE.png"};
  const QCommandLineOption size{"size", "Image size (default 800x600).", "WxH", "800x600"};
  const QCommandLineOption tint{"tint",
                                "Runs: color, part, joint, normals, wireframe or sockets. "
                                "Characters: joint, uv, height, flat or normals. (default color)",
                                "MODE", "color"};
  const QCommandLineOption yaw{"yaw", "Camera yaw in degrees (default 35).", "DEG", "35"};
  const QCommandLineOption pitch{"pitch", "Camera pitch in degrees (default 25).", "DEG", "25"};
  const QCommandLineOption turntable{"turntable", "Render N shots around the model (yaw steps of 360/N).", "N"};
  const QCommandLineOption pattern{"out-pattern", "File names for --turntable; {i} is the shot number.", "PATTERN"};
  const QCommandLineOption strip{"strip", "With --turntable: also write all shots side by side into one PNG.",
                                 "FILE.png"};
  const QCommandLineOption highlight{"highlight", "Highlight this part (a model opened by itself: this node).", "PART"};
  const QCommandLineOption noGrid{"no-grid", "Hide the ground grid."};
  const QCommandLineOption noAxes{"no-axes", "Hide the axis gizmo."};
  const QCommandLineOption backend{"backend", "vulkan (default) or opengl (needs a display, e.g. xvfb-run).", "API",
                                   "vulkan"};
  const QCommandLineOption samples{
      "samples", "MSAA samples (default: 4 when available for voxel rigs, 1 for splats, which it does not smooth).",
      "N", "0"};
  const QCommandLineOption controls{
      "controls", "Characters (.aosrig or a bundle folder): controls JSON (array or {name: value}).", "FILE.json"};
  const QCommandLineOption sigma{"sigma", "Characters: gaussian sigma in metres (default 0.002).", "S", "0.002"};
  const QCommandLineOption preview{
      "preview",
      "Bundles with decoders: draw the debug preview (a gaussian per rig vertex), not the decoded character."};
  const QCommandLineOption bodyPose{
      "body-pose", "Characters: a body pose {bones: [{name, rotation: [w,x,y,z]}], rootPos: [x,y,z]}.", "FILE.json"};
  const QCommandLineOption raster{"splat-raster",
                                  "Splats: compute (tiles blended front to back in a compute pass, the "
                                  "default on GPUs), cpu (the same on the CPU's cores, the default on "
                                  "software rasterisers), quads (one blended quad per splat) or auto.",
                                  "MODE"};
  const QCommandLineOption camera{"camera",
                                  "Models: render through the file's camera NAME (glTF cameras; inspect lists them) "
                                  "instead of the orbit.",
                                  "NAME"};
  const QCommandLineOption up{"up",
                              "3DGS scenes: the file's up axis, +y or -y (default: what the file says, else -y, "
                              "the trainers' COLMAP convention, as SuperSplat shows it).",
                              "AXIS"};
  const QCommandLineOption look{"look",
                                "Models: review (default; base colour under a key and a fill, where the tints "
                                "live) or pbr (glTF's metallic-roughness, the file's lights).",
                                "LOOK", "review"};
  const QCommandLineOption toneMap{"tone-map",
                                   "The PBR look's tone mapping: neutral (Khronos PBR Neutral, "
                                   "default), aces or none.",
                                   "MAP", "neutral"};
  const QCommandLineOption exposure{"exposure", "The PBR look's exposure in stops (default 0).", "EV", "0"};
  const QCommandLineOption environment{"environment",
                                       "The PBR look's environment light: an equirectangular .hdr or .exr, or "
                                       "studio (default, made procedurally).",
                                       "FILE", "studio"};
  const QCommandLineOption environmentRotation{
      "environment-rotation", "Turn the environment DEG degrees about the up axis (default 0).", "DEG", "0"};
  const QCommandLineOption environmentBackground{"environment-background",
                                                 "Draw the environment behind the model (PBR look)."};
  const QCommandLineOption printCamera{
      "print-camera",
      "Runs and models: print the first shot's camera on stdout (eye, target, up, vertical field of view), "
      "to draw the same view in another viewer."};
  const QCommandLineOption timings{
      "timings",
      "Print where the time went to stderr: process start, Qt init, load, GPU device, target, the first "
      "frame's upload, pipelines, draw and readback, PNG encode."};

  void addTo(QCommandLineParser& parser) const {
    parser.addOptions({out,
                       size,
                       tint,
                       yaw,
                       pitch,
                       turntable,
                       pattern,
                       strip,
                       highlight,
                       noGrid,
                       noAxes,
                       backend,
                       samples,
                       controls,
                       sigma,
                       preview,
                       bodyPose,
                       raster,
                       camera,
                       up,
                       look,
                       toneMap,
                       exposure,
                       environment,
                       environmentRotation,
                       environmentBackground,
                       printCamera,
                       timings});
  }
};

// What the options say, checked: the picture, the camera, the shots, the GPU.
struct RenderSettings {
  QSize imageSize;
  core::TintMode tint = core::TintMode::Color;
  float yawDeg = 0, pitchDeg = 0;
  int sampleCount = 0;
  Shots outputs;
  bool vulkan = true;
  std::optional<render::SplatRaster> raster;    // unset: the device's default
  std::optional<core::SplatUp> up;              // unset: the file's (core::defaultSplatUp)
  core::AssetKind kind = core::AssetKind::Run;  // what the one path opens as (runs, models and the rest: loadRun)
  core::Look look = core::Look::Review;
  core::ToneMap toneMap = core::ToneMap::PbrNeutral;
  float exposure = 0;
  QString environment;  // "studio" or a file
  float environmentRotation = 0;
  bool environmentBackground = false;
};

// The settings, or the usage error's message.
std::variant<RenderSettings, QString> readRenderSettings(const QCommandLineParser& parser, const RenderOptions& o) {
  RenderSettings s;
  if (!parseSize(parser.value(o.size), &s.imageSize)) return QString("--size must be WxH between 16 and 8192");
  const QStringList paths = parser.positionalArguments();
  const core::AssetReader* reader = paths.size() == 1 ? core::pickReader(paths.first().toStdString()) : nullptr;
  if (reader) s.kind = reader->kind;
  if (s.kind != core::AssetKind::Character && !core::parseTintMode(parser.value(o.tint).toStdString(), &s.tint))
    return "unknown --tint '" + parser.value(o.tint) + "'";
  bool ok1 = false, ok2 = false, ok3 = false;
  s.yawDeg = parser.value(o.yaw).toFloat(&ok1);
  s.pitchDeg = parser.value(o.pitch).toFloat(&ok2);
  s.sampleCount = parser.value(o.samples).toInt(&ok3);
  if (!ok1 || !ok2 || !ok3) return QString("--yaw, --pitch and --samples need numbers");
  int shots = 1;
  if (parser.isSet(o.turntable)) {
    shots = parser.value(o.turntable).toInt(&ok1);
    if (!ok1 || shots < 1 || shots > 720) return QString("--turntable needs a count between 1 and 720");
    if ((!parser.isSet(o.pattern) || !parser.value(o.pattern).contains("{i}")) && !parser.isSet(o.strip))
      return QString("--turntable needs --out-pattern with {i} or --strip FILE.png");
  } else if (!parser.isSet(o.out)) {
    return QString("missing --out FILE.png");
  }
  const QString api = parser.value(o.backend);
  if (api != "vulkan" && api != "opengl") return QString("--backend must be vulkan or opengl");
  s.vulkan = api == "vulkan";
  const QString rasterName = parser.value(o.raster);
  s.raster = render::splatRasterNamed(rasterName.toStdString());
  if (!s.raster && !rasterName.isEmpty()) return QString("--splat-raster must be compute, quads, auto or cpu");
  if (parser.isSet(o.up)) {
    s.up = core::parseSplatUp(parser.value(o.up).toStdString());
    if (!s.up) return QString("--up must be +y or -y");
  }
  if (!core::parseLook(parser.value(o.look).toStdString(), &s.look))
    return "unknown --look '" + parser.value(o.look) + "' (review or pbr)";
  if (!core::parseToneMap(parser.value(o.toneMap).toStdString(), &s.toneMap))
    return "unknown --tone-map '" + parser.value(o.toneMap) + "' (neutral, aces or none)";
  s.exposure = parser.value(o.exposure).toFloat(&ok1);
  if (!ok1 || !std::isfinite(s.exposure) || std::abs(s.exposure) > core::kMaxExposureStops)
    return QString("--exposure needs a number of stops between -%1 and %1").arg(core::kMaxExposureStops);
  s.environment = parser.value(o.environment);
  s.environmentRotation = parser.value(o.environmentRotation).toFloat(&ok1);
  if (!ok1 || !std::isfinite(s.environmentRotation)) return QString("--environment-rotation needs a number of degrees");
  s.environmentBackground = parser.isSet(o.environmentBackground);
  s.outputs = {shots, parser.isSet(o.turntable), parser.value(o.out), parser.value(o.pattern), parser.value(o.strip)};
  return s;
}

// The file camera named `name` as posed (null pose: the rest pose), or why not.
core::Expected<core::CameraView> fileCamera(const core::LoadedRun& run, const std::string& name,
                                            const core::GltfPose* pose, float aspect) {
  const core::GltfCamera* camera = core::findGltfCamera(run.gltf, name);
  if (!camera) {
    std::string names;
    for (const auto& c : run.gltf.cameras)
      names += (names.empty() ? "" : ", ") + c.name + " (node '" + run.gltf.nodes[std::size_t(c.node)].name + "')";
    return core::makeError(core::ErrorCode::Usage, run.source.string() + ": no camera named '" + name +
                                                       "' (the file's cameras: " + (names.empty() ? "none" : names) +
                                                       ")");
  }
  if (camera->aspectRatio > 0 && std::abs(camera->aspectRatio / aspect - 1.0) > kAspectMismatch)
    std::fprintf(stderr, "riglens-cli: camera '%s' is %.3g:1, the image %.3g:1: the view is stretched (--size)\n",
                 name.c_str(), camera->aspectRatio, double(aspect));
  const core::GltfPose rest = pose ? core::GltfPose{} : core::gltfRestPose(run.gltf);
  return core::gltfCameraView(*camera, pose ? *pose : rest, aspect);
}

// A run or model: posed by --set/--play/--time-ms, drawn by the rig renderer.
int renderRunOrModel(const QCommandLineParser& parser, const RenderOptions& o, const RenderSettings& s,
                     const PoseOptions& pose) {
  auto& timings = core::StageTimings::instance();
  int code = kExitOk;
  auto loaded = timings.time("load", [&] { return loadRunArgument(parser, "render", &code); });
  if (!loaded) return code;
  auto run = std::make_shared<core::LoadedRun>(std::move(*loaded));
  core::RigController controller(run->rig, &run->gltf);  // a glTF file's own clips play too
  if (auto posed = timings.time("pose", [&] { return pose.apply(parser, controller); }); !posed)
    return inputError(posed.error().message);
  render::ViewSettings view;
  view.tint = s.tint;
  view.look = s.look;
  view.toneMap = s.toneMap;
  view.exposure = s.exposure;
  if (s.environment != "studio") {
    auto environment = timings.time("environment", [&] { return core::readEnvironment(s.environment.toStdString()); });
    if (!environment) return inputError(environment.error().message);
    for (const std::string& warning : environment->warnings) std::fprintf(stderr, "riglens-cli: %s\n", warning.c_str());
    view.environment = std::make_shared<const core::EnvironmentMap>(std::move(environment).value());
  }
  view.environmentRotation = s.environmentRotation;
  view.environmentBackground = s.environmentBackground;
  view.showGrid = !parser.isSet(o.noGrid);
  view.showAxes = !parser.isSet(o.noAxes);
  if (parser.isSet(o.highlight)) {
    // A model opened by itself: its parts are its glTF nodes.
    const std::string name = parser.value(o.highlight).toStdString();
    const bool nodes = core::listsNodesAsParts(*run);
    view.highlightPart = nodes ? core::findNodeLabelled(run->gltf, name) : run->rig.findPart(name);
    if (view.highlightPart == core::kNoIndex || view.highlightPart < 0)
      return inputError(std::string(nodes ? "no node named '" : "no part named '") + name + "'");
  }

  auto device = timings.time("GPU device", [&] {
    return render::RhiDevice::createOffscreen(s.vulkan ? render::Backend::Vulkan : render::Backend::OpenGL);
  });
  if (!device) return inputError("cannot start the GPU: " + device.error().message);
  auto canvas = timings.time("render target",
                             [&] { return render::OffscreenCanvas::create(**device, s.imageSize, s.sampleCount); });
  if (!canvas) return inputError(canvas.error().message);
  render::RigRenderer renderer(**device);
  renderer.setModel(run);

  const auto& worlds = controller.partWorlds();
  const core::GltfPose* gltfPose = controller.gltfPose();
  const float aspect = float(s.imageSize.width()) / float(s.imageSize.height());
  core::OrbitCamera camera;
  timings.time("framing (posed bounds)", [&] { camera.frame(core::posedBounds(*run, worlds, gltfPose), aspect); });
  // --camera: the file's camera in this pose, in place of the orbit.
  std::optional<core::CameraView> fileView;
  if (parser.isSet(o.camera)) {
    auto chosen = fileCamera(*run, parser.value(o.camera).toStdString(), gltfPose, aspect);
    if (!chosen) return inputError(chosen.error().message);
    fileView = *chosen;
  }
  // Every shot's state before the first is drawn: they read the meshes
  // (posed bounds for the grid), which go once they are on the GPU.
  std::map<float, render::FrameState> states;
  for (int i = 0; i < s.outputs.count; ++i) {
    const float yawAt = shotYaw(s.outputs, s.yawDeg, i);
    camera.setAngles(yawAt, s.pitchDeg);
    states[yawAt] = timings.time("frame state",
                                 [&] { return render::buildFrameState(*run, worlds, camera, aspect, view, gltfPose); });
    if (fileView) {
      states[yawAt].view = fileView->view;
      states[yawAt].projection = fileView->projection;
      states[yawAt].eye = fileView->eye;
    }
  }
  // Parts leave the CPU as they reach the GPU, the last ones after the first shot.
  std::size_t released = 0;
  (*canvas)->setBetweenUploadFrames([&] { released = releaseMeshes(*run, released, renderer.partsUploaded()); });
  const int written = writeShots(
      **canvas, renderer, s.imageSize, s.outputs, s.yawDeg, [&](float yawAt) { return states.at(yawAt); },
      [&] { released = releaseMeshes(*run, released, run->meshes.size()); });
  if (written == kExitOk && parser.isSet(o.printCamera)) {
    const render::FrameState& first = states.at(shotYaw(s.outputs, s.yawDeg, 0));
    const float focus = fileView ? 1.0f : camera.distance();
    std::printf("%s\n", qPrintable(describeCamera(first.view, first.projection, focus)));
  }
  return written;
}

}  // namespace

int runRender(const QStringList& args) {
  QCommandLineParser parser;
  PoseOptions pose;
  pose.addTo(parser);
  const RenderOptions o;
  o.addTo(parser);
  if (auto done = parseCommand(parser, args, "render", "Render a model offscreen to PNG.", "PATH")) return *done;
  if (auto problem = pose.read(parser)) return usageError("render", *problem);
  auto read = readRenderSettings(parser, o);
  if (const QString* usage = std::get_if<QString>(&read)) return usageError("render", *usage);
  const RenderSettings& s = std::get<RenderSettings>(read);

  int bodyExit = kExitOk;
  const auto body = readBodyPose(parser, o.bodyPose, &bodyExit);
  if (!body) return bodyExit;
  int exitCode = kExitOk;
  const QString path = parser.positionalArguments().value(0);
  if (s.kind == core::AssetKind::Character)
    exitCode =
        renderCharacter(path, s.imageSize, s.yawDeg, s.pitchDeg, s.sampleCount, s.outputs, parser.value(o.controls),
                        parser.value(o.tint), parser.value(o.sigma), parser.isSet(o.preview), *body, s.raster);
  else if (s.kind == core::AssetKind::SplatScene)
    exitCode =
        renderGaussians(path, s.imageSize, s.yawDeg, s.pitchDeg, s.sampleCount, s.outputs, s.vulkan, s.raster, s.up);
  else
    exitCode = renderRunOrModel(parser, o, s, pose);
  // --timings: the stages recorded on the way, printed once the images are written.
  if (exitCode == kExitOk && parser.isSet(o.timings)) core::StageTimings::instance().print();
  return exitCode;
}

}  // namespace riglens::cli
