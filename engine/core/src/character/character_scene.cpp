#include "riglens/core/character/character_scene.h"

#include <cmath>

#include "riglens/core/base/json_reader.h"
#include "riglens/core/character/debug_lift.h"
#include "riglens/core/character/gnm.h"
#include "riglens/core/gltf/assimp_model.h"

namespace riglens::core {

namespace fs = std::filesystem;

bool isCharacterScenePath(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec))
    return !fs::exists(path / "rig.json", ec) &&
           (fs::exists(path / "scene.json", ec) || fs::exists(path / "mesh.json", ec));
  const std::string ext = path.extension().string();
  return ext == ".aosrig" || (ext == ".ply" && !plyDeclaresFaces(path));  // a mesh .ply is a model
}

Expected<Bounds> characterRestBounds(const AosRigPack& pack) {
  auto rest = gnmPose(pack, {});
  if (!rest) return rest.error();
  const FitTransform fit = fitVertsTransform({pack.neutral.data(), pack.vertexCount * 3});
  const auto& m = fit.rows;
  Bounds bounds;
  for (std::size_t i = 0; i + 2 < rest->size(); i += 3) {
    const float x = (*rest)[i], y = (*rest)[i + 1], z = (*rest)[i + 2];
    if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) continue;
    bounds.include({m[0] * x + m[1] * y + m[2] * z + m[3], m[4] * x + m[5] * y + m[6] * z + m[7],
                    m[8] * x + m[9] * y + m[10] * z + m[11]});
  }
  return bounds;
}

Expected<CharacterScene> loadCharacterScene(const fs::path& path) {
  CharacterScene scene;
  scene.path = path;
  scene.title = path.filename().string();
  std::error_code ec;  // a folder that cannot be listed is read as a file, which then says why it cannot
  const bool folder = fs::is_directory(path, ec);
  if (path.extension() == ".ply" && !folder) {
    auto cloud = readGaussianPly(path);
    if (!cloud) return cloud.error();
    if (cloud->count == 0) return errorAt(ErrorCode::Invalid, path.string(), "", "the scene holds no gaussians");
    scene.kind = SceneKind::Splats;
    scene.bounds = cloudBounds(*cloud);
    scene.residentBytes = cloud->bytes();
    scene.cloud = std::make_shared<const GaussianCloud>(std::move(cloud).value());
    return scene;
  }
  std::shared_ptr<const AosRigPack> pack;
  if (folder) {
    auto loaded = loadBundle(path);
    if (!loaded) return loaded.error();
    auto bundle = std::make_shared<const Bundle>(std::move(loaded).value());
    if (!bundle->gnmPack)
      return errorAt(ErrorCode::Unsupported, path.string(), "",
                     "the bundle's rig backend is '" + bundle->rig.value("backend", std::string("none")) +
                         "'; the viewer renders GNM packs on the GPU");
    if (!bundle->subject.empty()) scene.title = bundle->subject;
    scene.expression = bundle->expression;
    scene.rigRangeLo = bundle->rigRangeLo;
    scene.rigRangeHi = bundle->rigRangeHi;
    scene.files = bundle->files;
    scene.residentBytes = bundle->residentBytes;
    scene.problems = bundle->problems;
    pack = std::shared_ptr<const AosRigPack>(bundle, &*bundle->gnmPack);  // lives as long as the bundle
    scene.bundle = std::move(bundle);
  } else {
    auto read = readAosRig(path.string());
    if (!read) return read.error();
    scene.residentBytes = read->bytes ? read->bytes->size() : 0;
    scene.expression = gnmExpressionSpace(read->headExt, false);
    pack = std::make_shared<const AosRigPack>(std::move(read).value());
  }
  if (pack->basisHalf.empty())
    return errorAt(ErrorCode::Unsupported, path.string(), "",
                   "the pack stores its basis as i8; the viewer's GPU pass takes fp16 packs "
                   "(`riglens-cli character pose --backend cpu` evaluates this one)");
  auto bounds = characterRestBounds(*pack);
  if (!bounds) return errorAt(bounds.error().code, path.string(), "", bounds.error().message);
  scene.bounds = *bounds;
  scene.pack = std::move(pack);
  return scene;
}

}  // namespace riglens::core
