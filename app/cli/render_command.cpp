// riglens-cli render PATH --out FILE.png [--size WxH] [--set NAME=VALUE]... [--expression NAME=WEIGHT]...
//   [--play NAME --time-ms T] [--tint MODE] [--yaw DEG --pitch DEG]
//   [--turntable N --out-pattern shot_{i}.png] [--video FILE.mp4|.webm --fps N] [--backend vulkan|opengl]
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
#include "expression_sweep.h"
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
#include "riglens/media/video_writer.h"
#include "riglens/render/character/character_renderer.h"
#include "riglens/render/character/character_splats.h"
#include "riglens/render/device/frame_drawable.h"
#include "riglens/render/device/offscreen_canvas.h"
#include "riglens/render/rig/frame_builder.h"
#include "riglens/render/rig/rig_renderer.h"
#include "riglens/render/splats/splat_renderer.h"
#include "shot_writer.h"

namespace riglens::cli {

namespace {

// A file camera's aspect ratio and the image's differ by more than this share:
// the view is stretched, and the CLI says so (a --size rounded to pixels is not).
constexpr double kAspectMismatch = 0.01;

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
// `beforeShot` runs before each shot is drawn (a sweep's next expression).
int renderSplats(render::RhiDevice& device, render::FrameDrawable& drawable, const core::Bounds& bounds, QSize size,
                 float yaw, float pitch, int samples, const Shots& shots, const glm::mat4& toWorld = glm::mat4(1.0f),
                 const std::function<void(int)>& beforeShot = {}) {
  auto canvas = render::OffscreenCanvas::create(device, size, splatSamples(samples));
  if (!canvas) return inputError(canvas.error().message);
  core::OrbitCamera camera;
  const float aspect = float(size.width()) / float(size.height());
  camera.frame(bounds.transformed(toWorld), aspect);
  return writeShots(**canvas, drawable, size, shots, [&](int shot) {
    if (beforeShot) beforeShot(shot);
    camera.setAngles(shotYaw(shots, yaw, shot), pitch);
    render::FrameState state = render::cameraFrameState(camera, aspect);
    state.splatModel = toWorld;
    return state;
  });
}

int renderDecoded(std::shared_ptr<const core::Bundle> bundle, QSize size, float yaw, float pitch, int samples,
                  const Shots& shots, const QString& controlsPath, const core::BodyPose& body,
                  std::optional<render::SplatRaster> raster, const ExpressionSweep* sweep);

// --sweep: the shots are the sweep's frames, half a second a channel.
Shots sweepShots(Shots shots, ExpressionSweep& sweep) {
  sweep.framesPerChannel = std::max(2, shots.fps / 2);
  shots.count = std::max(1, sweep.frames());
  return shots;
}

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
  auto scene =
      core::StageTimings::instance().time("load", [&] { return core::loadCharacterScene(path.toStdString()); });
  if (!scene) return inputError(scene.error().message);
  // A bundle with decoders: the decoded character, from the bundle the scene loaded.
  if (!preview && (scene->pack || scene->orl) && scene->bundle && !scene->bundle->decoders.empty()) {
    ExpressionSweep sweep = expressionSweep(*scene, core::rigVectorSize(*scene->bundle), 0);
    return renderDecoded(scene->bundle, size, yaw, pitch, samples, shots.sweep ? sweepShots(shots, sweep) : shots,
                         controlsPath, body, raster, shots.sweep ? &sweep : nullptr);
  }
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
  renderer.setBoundingSphere(bounds.center(), bounds.radius());
  if (!shots.sweep) {
    renderer.setFrame(std::move(frame));
    return renderSplats(**device, renderer, bounds, size, yaw, pitch, samples, shots);
  }
  if (frame.rawControls) return usageError("render", "--sweep moves GUI controls; --controls gave raw ones");
  const std::size_t rigSize =
      scene->orl ? scene->orl->dna->guiControlNames.size() : std::size_t(scene->pack->headExt.dim);
  frame.controls.resize(rigSize, 0.0f);
  ExpressionSweep sweep = expressionSweep(*scene, rigSize, 0);
  const Shots swept = sweepShots(shots, sweep);
  return renderSplats(**device, renderer, bounds, size, yaw, pitch, samples, swept, glm::mat4(1.0f), [&](int shot) {
    render::CharacterFrame next = frame;
    next.controls = sweep.at(frame.controls, shot);
    renderer.setFrame(std::move(next));
  });
}

// A bundle with decoders: the decoded character. The decoders run on the CPU
// (OpenCV's DNN) for each shot's camera (the first shot a full pass, the
// turntable's others appearance only), the rig (GNM or ORL) and both lift
// passes on the GPU.
int renderDecoded(std::shared_ptr<const core::Bundle> bundle, QSize size, float yaw, float pitch, int samples,
                  const Shots& shots, const QString& controlsPath, const core::BodyPose& body,
                  std::optional<render::SplatRaster> raster, const ExpressionSweep* sweep) {
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
  const int written = writeShots(**canvas, renderer, size, shots, [&](int shot) {
    camera.setAngles(shotYaw(shots, yaw, shot), pitch);
    core::PluckerCamera view = core::pluckerCamera(camera, aspect);
    view.position -= frame.rootPosition;  // the decoders see the camera in the character root's frame
    auto pass = (*character)->decode(sweep ? sweep->at(rig, shot) : rig, view);
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
  auto cloud = core::StageTimings::instance().time("load", [&] { return core::readGaussianPly(path.toStdString()); });
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
  const QCommandLineOption pattern{
      "out-pattern", "File names for --turntable's shots or a --video clip's frames; {i} is the number.", "PATTERN"};
  const QCommandLineOption strip{"strip", "With --turntable: also write all shots side by side into one PNG.",
                                 "FILE.png"};
  const QCommandLineOption video{"video",
                                 "Also encode the shots as one video: .mp4 (H.264) or .webm (VP9). With "
                                 "--turntable N, N frames around the model; with --play CLIP (runs and models), the "
                                 "clip at --fps. --out then writes its first frame.",
                                 "FILE"};
  const QCommandLineOption fps{"fps", "--video's frame rate (default 30).", "N", "30"};
  const QCommandLineOption sweep{"sweep",
                                 "Characters, with --video or --out-pattern: every expression in turn, from rest to "
                                 "its peak and back, half a second each (GNM: to 1; ORL: to the end of its range)."};
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
                       video,
                       fps,
                       sweep,
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
// `playing`: --play is set.
std::variant<RenderSettings, QString> readRenderSettings(const QCommandLineParser& parser, const RenderOptions& o,
                                                         bool playing) {
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
  const bool video = parser.isSet(o.video);
  if (parser.isSet(o.turntable)) {
    shots = parser.value(o.turntable).toInt(&ok1);
    if (!ok1 || shots < 1 || shots > 720) return QString("--turntable needs a count between 1 and 720");
    if ((!parser.isSet(o.pattern) || !parser.value(o.pattern).contains("{i}")) && !parser.isSet(o.strip) && !video)
      return QString("--turntable needs --out-pattern with {i}, --strip FILE.png or --video FILE");
  } else if (parser.isSet(o.sweep)) {
    if (s.kind != core::AssetKind::Character) return QString("--sweep sweeps a character's expressions");
    if (!video && !parser.value(o.pattern).contains("{i}"))
      return QString("--sweep needs --video FILE or --out-pattern with {i}");
  } else if (video && !playing) {
    return QString("--video needs --turntable N, --play CLIP or --sweep");
  } else if (!parser.isSet(o.out) && !video) {
    return QString("missing --out FILE.png");
  }
  const int fps = parser.value(o.fps).toInt(&ok1);
  if (video) {
    // A file name no encoder takes is the arguments' fault; a video module
    // missing from the install is the run's, reported when it opens the video.
    if (auto codec = media::videoCodecFor(parser.value(o.video).toStdString());
        !codec && codec.error().code == core::ErrorCode::Usage)
      return QString::fromStdString(codec.error().message);
    if (!ok1 || fps < media::kMinVideoFps || fps > media::kMaxVideoFps)
      return QString("--fps needs a number between %1 and %2").arg(media::kMinVideoFps).arg(media::kMaxVideoFps);
    if (s.imageSize.width() % 2 || s.imageSize.height() % 2)
      return QString("--video needs an even width and height (4:2:0 video halves both)");
    if (parser.isSet(o.pattern) && !parser.value(o.pattern).contains("{i}"))
      return QString("--out-pattern needs {i}, the frame's number");
    if (!parser.isSet(o.turntable) && !parser.isSet(o.sweep) && s.kind != core::AssetKind::Run &&
        s.kind != core::AssetKind::Model)
      return QString("--video --play plays a run's or a model's clip; characters and splat scenes take --turntable N");
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
  const bool sweeping = parser.isSet(o.sweep) && !parser.isSet(o.turntable);
  s.outputs = {shots,
               parser.isSet(o.turntable),
               parser.value(o.out),
               parser.value(o.pattern),
               parser.value(o.strip),
               parser.value(o.video),
               fps,
               video && !parser.isSet(o.turntable) && !sweeping,
               sweeping};
  return s;
}

// The file camera named `name` as posed (null pose: the rest pose), or why not.
core::Expected<core::CameraView> fileCamera(const core::LoadedRun& run, const std::string& name,
                                            const core::GltfPose* pose, float aspect, bool warnStretch) {
  const core::GltfCamera* camera = core::findGltfCamera(run.gltf, name);
  if (!camera) {
    std::string names;
    for (const auto& c : run.gltf.cameras)
      names += (names.empty() ? "" : ", ") + c.name + " (node '" + run.gltf.nodes[std::size_t(c.node)].name + "')";
    return core::makeError(core::ErrorCode::Usage, run.source.string() + ": no camera named '" + name +
                                                       "' (the file's cameras: " + (names.empty() ? "none" : names) +
                                                       ")");
  }
  if (warnStretch && camera->aspectRatio > 0 && std::abs(camera->aspectRatio / aspect - 1.0) > kAspectMismatch)
    std::fprintf(stderr, "riglens-cli: camera '%s' is %.3g:1, the image %.3g:1: the view is stretched (--size)\n",
                 name.c_str(), camera->aspectRatio, double(aspect));
  const core::GltfPose rest = pose ? core::GltfPose{} : core::gltfRestPose(run.gltf);
  return core::gltfCameraView(*camera, pose ? *pose : rest, aspect);
}

// A clip's frames in one --video: at most this many (four minutes at 30
// fps); a longer clip is refused rather than rendered for hours.
constexpr int kMaxClipFrames = 7200;
// A clip's camera frames every pose the clip takes, sampled at most this
// many times: each sample poses the whole model.
constexpr int kMaxFramingPoses = 64;

// The frames of the played clip at --fps: its period, rounded to frames.
core::Expected<int> clipFrameCount(const core::RigController& controller, const Shots& shots) {
  const double periodMs = controller.playablePeriodMs();
  if (!(periodMs > 0)) return core::makeError(core::ErrorCode::Usage, "--video: the clip --play names has no duration");
  const double frames = std::round(periodMs * shots.fps / 1000.0);
  if (frames > kMaxClipFrames)
    return core::makeError(core::ErrorCode::Usage, "--video: the clip lasts " + std::to_string(periodMs / 1000.0) +
                                                       " s, more than " + std::to_string(kMaxClipFrames) +
                                                       " frames at " + std::to_string(shots.fps) + " fps");
  return std::max(1, int(frames));
}

void poseAt(core::RigController& controller, double timeMs) {
  controller.seekPlayable(timeMs);
  controller.setClockMs(timeMs);
  controller.evaluate();
}

// What every shot of a run or model shares.
struct ShotScene {
  const core::LoadedRun& run;
  const render::ViewSettings& view;
  float aspect;
  std::optional<std::string> cameraName;  // --camera: the file's, posed per shot
  double startMs;
  float yawDeg, pitchDeg;
};

// Frames the orbit on the model as posed now or, for a clip, on every
// pose it takes (the camera holds still while the clip moves).
void frameShots(core::RigController& controller, const ShotScene& scene, const Shots& shots,
                core::OrbitCamera& camera) {
  core::Bounds bounds = core::posedBounds(scene.run, controller.partWorlds(), controller.gltfPose());
  const int samples = shots.clip ? std::min(shots.count, kMaxFramingPoses) : 1;
  for (int k = 1; k < samples; ++k) {
    poseAt(controller, shotTimeMs(shots, scene.startMs, k * (shots.count - 1) / (samples - 1)));
    const core::Bounds posed = core::posedBounds(scene.run, controller.partWorlds(), controller.gltfPose());
    if (!posed.empty) {
      bounds.include(posed.min);
      bounds.include(posed.max);
    }
  }
  camera.frame(bounds, scene.aspect);
}

// Every shot's state, worked out before the first is drawn: they read the
// meshes (posed bounds for the grid), which go once they are on the GPU.
core::Expected<std::vector<render::FrameState>> shotStates(core::RigController& controller, const ShotScene& scene,
                                                           const Shots& shots, core::OrbitCamera& camera) {
  auto& timings = core::StageTimings::instance();
  timings.time("framing (posed bounds)", [&] { frameShots(controller, scene, shots, camera); });
  std::vector<render::FrameState> states;
  states.reserve(std::size_t(shots.count));
  for (int i = 0; i < shots.count; ++i) {
    if (shots.clip) poseAt(controller, shotTimeMs(shots, scene.startMs, i));
    camera.setAngles(shotYaw(shots, scene.yawDeg, i), scene.pitchDeg);
    const core::GltfPose* gltfPose = controller.gltfPose();
    states.push_back(timings.time("frame state", [&] {
      return render::buildFrameState(scene.run, controller.partWorlds(), camera, scene.aspect, scene.view, gltfPose);
    }));
    if (scene.cameraName) {  // the file's camera in this pose, in place of the orbit
      auto chosen = fileCamera(scene.run, *scene.cameraName, gltfPose, scene.aspect, i == 0);
      if (!chosen) return chosen.error();
      states.back().view = chosen->view;
      states.back().projection = chosen->projection;
      states.back().eye = chosen->eye;
    }
  }
  return states;
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

  const float aspect = float(s.imageSize.width()) / float(s.imageSize.height());
  Shots shots = s.outputs;
  if (shots.clip) {
    auto frames = clipFrameCount(controller, shots);
    if (!frames) return inputError(frames.error().message);
    shots.count = *frames;
  }
  core::OrbitCamera camera;
  std::optional<std::string> cameraName;
  if (parser.isSet(o.camera)) cameraName = parser.value(o.camera).toStdString();
  const ShotScene scene{*run, view, aspect, cameraName, pose.timeMs, s.yawDeg, s.pitchDeg};
  auto states = shotStates(controller, scene, shots, camera);
  if (!states) return inputError(states.error().message);
  // Parts leave the CPU as they reach the GPU, the last ones after the first shot.
  std::size_t released = 0;
  (*canvas)->setBetweenUploadFrames([&] { released = releaseMeshes(*run, released, renderer.partsUploaded()); });
  const int written = writeShots(
      **canvas, renderer, s.imageSize, shots, [&](int shot) { return (*states)[std::size_t(shot)]; },
      [&] { released = releaseMeshes(*run, released, run->meshes.size()); });
  if (written == kExitOk && parser.isSet(o.printCamera)) {
    const render::FrameState& first = states->front();
    const float focus = cameraName ? 1.0f : camera.distance();
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
  auto read = readRenderSettings(parser, o, parser.isSet(pose.play));
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
