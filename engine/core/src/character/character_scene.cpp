#include "riglens/core/character/character_scene.h"

#include <cmath>

#include "riglens/core/base/json_reader.h"
#include "riglens/core/character/debug_lift.h"
#include "riglens/core/character/gnm.h"

namespace riglens::core {

namespace fs = std::filesystem;

Bounds fittedRestBounds(std::span<const float> neutral, std::span<const float> rest) {
  const FitTransform fit = fitVertsTransform(neutral);
  const auto& m = fit.rows;
  Bounds bounds;
  for (std::size_t i = 0; i + 2 < rest.size(); i += 3) {
    const float x = rest[i], y = rest[i + 1], z = rest[i + 2];
    if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) continue;
    bounds.include({m[0] * x + m[1] * y + m[2] * z + m[3], m[4] * x + m[5] * y + m[6] * z + m[7],
                    m[8] * x + m[9] * y + m[10] * z + m[11]});
  }
  return bounds;
}

Expected<Bounds> characterRestBounds(const AosRigPack& pack) {
  auto rest = gnmPose(pack, {});
  if (!rest) return rest.error();
  return fittedRestBounds({pack.neutral.data(), pack.vertexCount * 3}, *rest);
}

namespace {

// An ORL character (a bundle's pack, or a pack opened on its own): framed by its rest pose.
Expected<void> openOrl(std::shared_ptr<const OrlCharacter> orl, const fs::path& packPath, CharacterScene& scene) {
  auto rest = orlRestPose(*orl->pack);
  if (!rest) return errorAt(rest.error().code, packPath.string(), "", rest.error().message);
  scene.bounds = fittedRestBounds(orl->pack->neutral, *rest);
  for (const auto& w : orl->dna->warnings) scene.problems.push_back(w);
  scene.orl = std::move(orl);
  return {};
}

}  // namespace

namespace {

CharacterScene sceneAt(const fs::path& path) {
  CharacterScene scene;
  scene.path = path;
  scene.title = path.filename().string();
  return scene;
}

// A GNM pack held by `scene`: the viewer's GPU pass takes fp16 bases; framed by its rest pose.
Expected<CharacterScene> withGnmPack(CharacterScene scene, std::shared_ptr<const AosRigPack> pack) {
  const std::string path = scene.path.string();
  if (pack->basisHalf.empty())
    return errorAt(ErrorCode::Unsupported, path, "",
                   "the pack stores its basis as i8; the viewer's GPU pass takes fp16 packs "
                   "(`riglens-cli character pose --backend cpu` evaluates this one)");
  auto bounds = characterRestBounds(*pack);
  if (!bounds) return errorAt(bounds.error().code, path, "", bounds.error().message);
  scene.bounds = *bounds;
  scene.pack = std::move(pack);
  return scene;
}

}  // namespace

Expected<CharacterScene> loadSplatScene(const fs::path& path) {
  CharacterScene scene = sceneAt(path);
  auto cloud = readGaussianPly(path);
  if (!cloud) return cloud.error();
  if (cloud->count == 0) return errorAt(ErrorCode::Invalid, path.string(), "", "the scene holds no gaussians");
  scene.kind = SceneKind::Splats;
  scene.bounds = denseCloudBounds(*cloud);
  scene.up = defaultSplatUp(*cloud);
  scene.residentBytes = cloud->bytes();
  scene.cloud = std::make_shared<const GaussianCloud>(std::move(cloud).value());
  return scene;
}

Expected<CharacterScene> loadBundleScene(const fs::path& folder) {
  CharacterScene scene = sceneAt(folder);
  auto loaded = loadBundle(folder);
  if (!loaded) return loaded.error();
  auto bundle = std::make_shared<const Bundle>(std::move(loaded).value());
  const std::string backend = bundle->rig.value("backend", std::string("none"));
  if (!bundle->gnmPack && !bundle->orl)
    return errorAt(ErrorCode::Unsupported, folder.string(), "",
                   "the bundle's rig backend is '" + backend + "'; the viewer renders GNM and ORL rigs");
  if (!bundle->subject.empty()) scene.title = bundle->subject;
  scene.expression = bundle->expression;
  scene.rigRangeLo = bundle->rigRangeLo;
  scene.rigRangeHi = bundle->rigRangeHi;
  scene.files = bundle->files;
  scene.residentBytes = bundle->residentBytes;
  scene.problems = bundle->problems;
  scene.bundle = bundle;
  if (bundle->orl) {
    const std::string packName = bundle->rig.value("pack", std::string("orl_pack.bin"));
    if (auto opened = openOrl(bundle->orl, bundle->folder / packName, scene); !opened) return opened.error();
    return scene;
  }
  // The pack lives as long as the bundle.
  return withGnmPack(std::move(scene), std::shared_ptr<const AosRigPack>(bundle, &*bundle->gnmPack));
}

Expected<CharacterScene> loadOrlPackScene(const fs::path& path) {
  CharacterScene scene = sceneAt(path);
  auto orl = loadOrlCharacter(path);
  if (!orl) return orl.error();
  if (auto opened = openOrl(std::make_shared<const OrlCharacter>(std::move(orl).value()), path, scene); !opened)
    return opened.error();
  scene.residentBytes = scene.orl->packBytes;
  return scene;
}

Expected<CharacterScene> loadAosrigScene(const fs::path& path) {
  CharacterScene scene = sceneAt(path);
  auto read = readAosRig(path.string());
  if (!read) return read.error();
  scene.residentBytes = read->bytes ? read->bytes->size() : 0;
  scene.expression = gnmExpressionSpace(read->headExt, false);
  return withGnmPack(std::move(scene), std::make_shared<const AosRigPack>(std::move(read).value()));
}

}  // namespace riglens::core
