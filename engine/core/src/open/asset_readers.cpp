#include "riglens/core/open/asset_readers.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>

#include "riglens/core/base/json_reader.h"
#include "riglens/core/dna/dna_reader.h"
#include "riglens/core/model_import/assimp_model.h"

namespace riglens::core {
namespace fs = std::filesystem;

namespace {

bool has(const SniffInput& in, const char* name) {
  std::error_code ec;
  return fs::exists(in.path / name, ec);
}

int runFolder(const SniffInput& in) {
  return in.folder && (has(in, "rig.json") || has(in, "run.json") || has(in, "mesh.glb")) ? kSniffFolder : 0;
}
int bundleFolder(const SniffInput& in) {
  return in.folder && !has(in, "rig.json") && (has(in, "scene.json") || has(in, "mesh.json")) ? kSniffFolder : 0;
}
int rigJson(const SniffInput& in) {
  if (in.folder || in.extension != ".json") return 0;
  const auto name = in.path.filename();
  return name == "rig.json" || name == "run.json" ? kSniffName : kSniffFallback;
}
// Any file that starts like a GLB is read as one (a VRM says so by its extension too).
int glb(const SniffInput& in) {
  if (in.folder) return 0;
  if (in.startsWith("glTF") && in.extension != ".vrm") return kSniffMagic;
  return in.extension == ".glb" ? kSniffExtension : 0;
}
int byExtension(const SniffInput& in, std::string_view extension) {
  return !in.folder && in.extension == extension ? kSniffExtension : 0;
}
// A VRM avatar is a glTF binary by another name (VRM 0.x and 1.0 alike).
int vrm(const SniffInput& in) {
  if (in.folder || in.extension != ".vrm") return 0;
  return in.startsWith("glTF") ? kSniffMagic : kSniffExtension;
}
int gltfText(const SniffInput& in) {
  return byExtension(in, ".gltf");
}
int obj(const SniffInput& in) {
  return byExtension(in, ".obj");
}
int stl(const SniffInput& in) {
  return byExtension(in, ".stl");
}
int fbx(const SniffInput& in) {
  return byExtension(in, ".fbx");
}
int collada(const SniffInput& in) {
  return byExtension(in, ".dae");
}
// A .ply that declares faces is a mesh; one without is a 3DGS scene.
int plyMesh(const SniffInput& in) {
  return byExtension(in, ".ply") && plyDeclaresFaces(in.path) ? kSniffExtension : 0;
}
int plySplats(const SniffInput& in) {
  return byExtension(in, ".ply") && !plyDeclaresFaces(in.path) ? kSniffExtension : 0;
}
int aosrig(const SniffInput& in) {
  if (in.folder) return 0;
  return in.startsWith("AOSRIG01") ? kSniffMagic : byExtension(in, ".aosrig");
}
int orlPack(const SniffInput& in) {
  return !in.folder && in.startsWith("ORLPACK1") ? kSniffMagic : 0;
}
int dna(const SniffInput& in) {
  if (in.folder) return 0;
  return looksLikeDna(in.head) ? kSniffMagic : byExtension(in, ".dna");
}

using RunOpen = Expected<LoadedRun> (*)(const fs::path&);
using SceneOpen = Expected<CharacterScene> (*)(const fs::path&);

struct Mime {
  std::string_view type;
  bool own = false;  // RigLens's XML defines it
  std::string_view magic;
  std::vector<std::string_view> globs = {};  // when not the patterns
  std::string_view parent = {};              // the type it is a kind of ("model/gltf-binary")
};

AssetReader row(std::string_view id, std::string_view name, AssetKind kind, std::vector<std::string_view> patterns,
                Mime mime, std::string_view fuzzTarget, int (*sniff)(const SniffInput&),
                decltype(AssetReader::open) open) {
  return {id,          name,       kind,       std::move(patterns),
          mime.type,   mime.own,   mime.magic, std::move(mime.globs),
          mime.parent, fuzzTarget, sniff,      open};
}

// The rows, in the order --help and the file dialog list them.
const std::vector<AssetReader>& table() {
  using K = AssetKind;
  static const std::vector<AssetReader> readers{
      row("run-folder", "RigLens run folder", K::Run, {}, {}, "run_record", &runFolder, RunOpen(&loadRunFolder)),
      row("rig-json", "RigLens rig or run record", K::Run, {"*.json"},
          {"application/x-riglens-rig+json", true, "", {"rig.json", "run.json"}}, "rig_json", &rigJson,
          RunOpen(&loadRunJson)),
      row("glb", "glTF binary", K::Model, {"*.glb"}, {"model/gltf-binary", false, "glTF"}, "part_glb", &glb,
          RunOpen(&loadModelFile)),
      row("vrm", "VRM avatar", K::Model, {"*.vrm"}, {"model/vnd.vrm", true, "", {}, "model/gltf-binary"}, "part_glb",
          &vrm, RunOpen(&loadModelFile)),
      row("gltf", "glTF", K::Model, {"*.gltf"}, {"model/gltf+json", false, ""}, "gltf", &gltfText,
          RunOpen(&loadModelFile)),
      row("obj", "Wavefront OBJ", K::Model, {"*.obj"}, {"model/obj", false, ""}, "model_formats", &obj,
          RunOpen(&loadModelFile)),
      row("stl", "STL", K::Model, {"*.stl"}, {"model/stl", false, ""}, "model_formats", &stl, RunOpen(&loadModelFile)),
      row("fbx", "FBX", K::Model, {"*.fbx"}, {"model/x-fbx", true, ""}, "model_formats", &fbx, RunOpen(&loadModelFile)),
      row("dae", "COLLADA", K::Model, {"*.dae"}, {"model/vnd.collada+xml", true, ""}, "model_formats", &collada,
          RunOpen(&loadModelFile)),
      row("ply-mesh", "PLY mesh", K::Model, {"*.ply"}, {"model/x-ply", true, "ply"}, "model_formats", &plyMesh,
          RunOpen(&loadModelFile)),
      row("ply-splats", "3DGS splat scene", K::SplatScene, {"*.ply"}, {"model/x-ply", true, "ply"}, "ply", &plySplats,
          SceneOpen(&loadSplatScene)),
      row("bundle", "Character bundle folder", K::Character, {}, {}, "bundle_scene", &bundleFolder,
          SceneOpen(&loadBundleScene)),
      row("aosrig", "GNM character pack", K::Character, {"*.aosrig"},
          {"application/x-riglens-aosrig", true, "AOSRIG01"}, "aosrig", &aosrig, SceneOpen(&loadAosrigScene)),
      row("orl-pack", "ORL character pack", K::Character, {"orl_pack.bin"},
          {"application/x-riglens-orlpack", true, "ORLPACK1"}, "orl_pack", &orlPack, SceneOpen(&loadOrlPackScene)),
      row("dna", "MetaHuman DNA", K::Dna, {"*.dna"}, {"application/x-metahuman-dna", true, "DNA"}, "dna", &dna,
          std::monostate{}),
  };
  return readers;
}

std::string readerNames() {
  std::string names;
  for (const AssetReader& r : table())
    if (r.viewable()) names += (names.empty() ? "" : ", ") + std::string(r.name);
  return names;
}

}  // namespace

const char* assetKindName(AssetKind kind) {
  switch (kind) {
    case AssetKind::Run: return "run";
    case AssetKind::Model: return "model";
    case AssetKind::Character: return "character";
    case AssetKind::SplatScene: return "splat scene";
    case AssetKind::Dna: return "dna";
  }
  return "?";
}

bool SniffInput::startsWith(std::string_view magic) const {
  return head.size() >= magic.size() && std::memcmp(head.data(), magic.data(), magic.size()) == 0;
}

std::span<const AssetReader> assetReaders() {
  return table();
}

SniffInput sniffInput(const fs::path& path) {
  SniffInput in;
  in.path = path;
  std::error_code ec;
  in.folder = fs::is_directory(path, ec);
  in.extension = path.extension().string();
  std::transform(in.extension.begin(), in.extension.end(), in.extension.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  if (!in.folder) {
    std::ifstream file(path, std::ios::binary);
    in.head.resize(kSniffBytes);
    file.read(reinterpret_cast<char*>(in.head.data()), std::streamsize(kSniffBytes));
    in.head.resize(std::size_t(std::max<std::streamsize>(file.gcount(), 0)));
  }
  return in;
}

const AssetReader* findReader(std::string_view id) {
  for (const AssetReader& r : table())
    if (r.id == id) return &r;
  return nullptr;
}

ReaderClaim claimReader(const fs::path& path) {
  const SniffInput in = sniffInput(path);
  ReaderClaim best;
  for (const AssetReader& r : table())
    if (const int score = r.sniff(in); score > best.score) best = {&r, score};
  return best;
}

const AssetReader* pickReader(const fs::path& path) {
  return claimReader(path).reader;
}

Expected<const AssetReader*> readerFor(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return errorAt(ErrorCode::Io, path.string(), "", "no such file or folder");
  if (const AssetReader* r = pickReader(path)) return r;
  if (fs::is_directory(path, ec))
    return errorAt(ErrorCode::Invalid, path.string(), "",
                   "a run folder needs rig.json, run.json or mesh.glb (a character bundle: scene.json or mesh.json)");
  return errorAt(ErrorCode::Unsupported, path.string(), "", "not a kind RigLens opens (" + readerNames() + ")");
}

Expected<OpenedAsset> openAsset(const fs::path& path) {
  auto reader = readerFor(path);
  if (!reader) return reader.error();
  if (const auto* open = std::get_if<RunOpen>(&(*reader)->open)) {
    auto run = (*open)(path);
    if (!run) return run.error();
    return OpenedAsset(std::move(run).value());
  }
  if (const auto* open = std::get_if<SceneOpen>(&(*reader)->open)) {
    auto scene = (*open)(path);
    if (!scene) return scene.error();
    return OpenedAsset(std::move(scene).value());
  }
  return errorAt(ErrorCode::Unsupported, path.string(), "",
                 std::string("a ") + std::string((*reader)->name) +
                     " holds a rig's behaviour only, nothing to draw: open the ORL pack or bundle that holds it "
                     "(`riglens-cli inspect` and `character evaluate` read it)");
}

Expected<LoadedRun> loadRun(const fs::path& path) {
  auto opened = openAsset(path);
  if (!opened) return opened.error();
  if (auto* run = std::get_if<LoadedRun>(&*opened)) return std::move(*run);
  return errorAt(ErrorCode::Unsupported, path.string(), "", "opens as a character or splat scene, not a rig or model");
}

Expected<CharacterScene> loadCharacterScene(const fs::path& path) {
  auto opened = openAsset(path);
  if (!opened) return opened.error();
  if (auto* scene = std::get_if<CharacterScene>(&*opened)) return std::move(*scene);
  return errorAt(ErrorCode::Unsupported, path.string(), "", "opens as a rig or model, not a character or splat scene");
}

bool opensAsCharacterScene(const fs::path& path) {
  const AssetReader* r = pickReader(path);
  return r && (r->kind == AssetKind::Character || r->kind == AssetKind::SplatScene);
}

}  // namespace riglens::core
