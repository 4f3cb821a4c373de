#include "riglens/core/model_import/assimp_model.h"

#include <assimp/DefaultIOSystem.h>
#include <assimp/MemoryIOWrapper.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <cctype>
#include <chrono>
#include <cstring>
#include <fstream>
#include <set>
#include <string>

#include "collada_morphs.h"
#include "riglens/core/base/child_process.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/base/json_reader.h"

namespace riglens::core {

namespace fs = std::filesystem;

namespace {

constexpr char kGlb = 'G', kRefused = 'E';

// What one model may take: Assimp's memory (address space of the child) and
// time, and the GLB it may send back (a model decodes to a few times its
// file; textures embedded can add as much again).
constexpr std::uint64_t kChildMemoryFloor = std::uint64_t(4) << 30;
constexpr std::uint64_t kMemoryPerFileByte = 64;
constexpr std::uint64_t kGlbPerFileByte = 32, kGlbFloor = std::uint64_t(256) << 20;
// Time grows with the file (Assimp reads tens of MB a second; 2 s per MiB is
// several times that). The floor is below libFuzzer's 10 s hang limit, since
// Assimp's own PLY reader can loop forever on a few hundred bytes
// (tests/fuzz_regressions/model_formats/) and that must end as a refusal,
// not as a viewer that waits minutes or a fuzzer that reports a hang.
constexpr auto kTimeFloor = std::chrono::seconds(8);
constexpr auto kTimePerMiB = std::chrono::seconds(2);

std::string lowerExtension(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

Error refuse(const fs::path& path, const std::string& problem, ErrorCode code = ErrorCode::Parse) {
  return errorAt(code, path.string(), "", problem);
}

// Assimp 5.2.5's glTF exporter gives every object an id from its name in
// one namespace and fails, with no message, when two collide. Blender's
// COLLADA exporter names each object's animation after the object
// (<animation id="action_container-Armature" name="Armature">), so every
// animated Blender export collided with its own armature node and did not
// open. Animations are renamed before export: empty or taken names become
// "<name> animation" (numbered if that is taken too).
void makeAnimationNamesUnique(aiScene& scene) {
  std::set<std::string> taken;
  const auto addNodes = [&](const aiNode* node, const auto& self) -> void {
    taken.insert(node->mName.C_Str());
    for (unsigned i = 0; i < node->mNumChildren; ++i) self(node->mChildren[i], self);
  };
  if (scene.mRootNode) addNodes(scene.mRootNode, addNodes);
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) taken.insert(scene.mMeshes[m]->mName.C_Str());
  for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
    aiAnimation& animation = *scene.mAnimations[a];
    std::string name = animation.mName.C_Str();
    if (!name.empty() && taken.insert(name).second) continue;
    const std::string base = (name.empty() ? std::string("clip") : name) + " animation";
    name = base;
    for (int n = 2; !taken.insert(name).second; ++n) name = base + " " + std::to_string(n);
    animation.mName.Set(name);
  }
}

// The files Assimp opens, with one of them (the model) served from memory:
// the model as RigLens prepared it, the files beside it (images, .mtl) as
// they are on disk.
class PreparedModelIO : public Assimp::DefaultIOSystem {
 public:
  PreparedModelIO(std::string path, const std::string& document) : m_path(std::move(path)), m_document(document) {}
  bool Exists(const char* file) const override { return isModel(file) || Assimp::DefaultIOSystem::Exists(file); }
  Assimp::IOStream* Open(const char* file, const char* mode) override {
    if (!isModel(file)) return Assimp::DefaultIOSystem::Open(file, mode);
    return new Assimp::MemoryIOStream(reinterpret_cast<const std::uint8_t*>(m_document.data()), m_document.size());
  }

 private:
  bool isModel(const char* file) const { return file && (m_path == file || ComparePaths(m_path.c_str(), file)); }
  std::string m_path;
  const std::string& m_document;  // outlives the importer that owns this
};

// What RigLens changes in the file before Assimp reads it: a COLLADA
// file's morph controllers (collada_morphs.h). Nullopt: Assimp reads the file.
std::optional<ColladaMorphBypass> preparedForAssimp(const fs::path& path) {
  if (lowerExtension(path) != ".dae") return std::nullopt;
  const Expected<std::string> text = readFileText(path);
  return text ? bypassColladaMorphs(*text) : std::nullopt;
}

// The child: Assimp reads the model and exports it as GLB to `fd`, one tag
// byte first. Returns the child's exit code.
int convertInChild(const fs::path& path, int fd) {
  std::string message;
  try {
    Assimp::Importer importer;
    const std::optional<ColladaMorphBypass> prepared = preparedForAssimp(path);
    if (prepared) importer.SetIOHandler(new PreparedModelIO(path.string(), prepared->document));  // it owns it
    // Points and lines are not drawn as surfaces: dropped, not refused.
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    const aiScene* scene =
        importer.ReadFile(path.string(), aiProcess_Triangulate | aiProcess_SortByPType | aiProcess_GenNormals |
                                             aiProcess_JoinIdenticalVertices | aiProcess_LimitBoneWeights |
                                             aiProcess_ValidateDataStructure | aiProcess_EmbedTextures);
    if (!scene) {
      message = importer.GetErrorString();
    } else if (!scene->mRootNode || scene->mNumMeshes == 0) {
      message = "Assimp read no meshes from it";
    } else {
      // The importer owns the scene; renaming its animations in place is
      // what its own post-processing steps do too.
      makeAnimationNamesUnique(*const_cast<aiScene*>(scene));
      Assimp::Exporter exporter;
      const aiExportDataBlob* blob = exporter.ExportToBlob(scene, "glb2");
      if (blob && blob->data && blob->size > 0) {
        const char tag = kGlb;
        return writeAllTo(fd, &tag, 1) && writeAllTo(fd, blob->data, blob->size) ? 0 : 1;
      }
      message = std::string("Assimp's glTF exporter wrote nothing: ") + exporter.GetErrorString();
    }
  } catch (const std::exception& e) {
    message = e.what();
  } catch (...) {
    message = "Assimp failed";
  }
  const char tag = kRefused;
  return writeAllTo(fd, &tag, 1) && writeAllTo(fd, message.data(), message.size()) ? 0 : 1;
}

}  // namespace

bool plyDeclaresFaces(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string header(64 * 1024, '\0');
  in.read(header.data(), std::streamsize(header.size()));
  header.resize(std::size_t(in.gcount()));
  const std::size_t end = header.find("end_header");
  if (header.rfind("ply", 0) != 0 || end == std::string::npos) return false;
  header.resize(end);
  return header.find("\nelement face ") != std::string::npos;
}

std::vector<std::string> assimpReadingNotes(const fs::path& path) {
  std::optional<ColladaMorphBypass> prepared = preparedForAssimp(path);
  return prepared ? std::move(prepared->notes) : std::vector<std::string>{};
}

bool convertsThroughAssimp(const fs::path& path) {
  const std::string ext = lowerExtension(path);
  if (ext == ".ply") return plyDeclaresFaces(path);
  return ext == ".obj" || ext == ".fbx" || ext == ".dae" || ext == ".stl";
}

Expected<std::vector<std::uint8_t>> convertWithAssimp(const fs::path& path) {
  std::error_code ec;
  const auto fileBytes = fs::file_size(path, ec);
  if (ec) return refuse(path, "cannot be read: " + ec.message(), ErrorCode::Io);
  ChildLimits limits;
  limits.memoryBytes = std::max<std::uint64_t>(kChildMemoryFloor, fileBytes * kMemoryPerFileByte);
  limits.outputBytes = kGlbFloor + fileBytes * kGlbPerFileByte;
  limits.time = kTimeFloor + kTimePerMiB * std::int64_t(fileBytes >> 20);
  auto outcome = runInChild(limits, [&path](int fd) { return convertInChild(path, fd); });
  if (!outcome) return refuse(path, "cannot start Assimp's reader: " + outcome.error().message, ErrorCode::Io);
  std::vector<std::uint8_t>& received = outcome->output;
  switch (outcome->stop) {
    case ChildOutcome::Stop::Time:
      return refuse(path, "Assimp took longer than " +
                              std::to_string(std::chrono::duration_cast<std::chrono::seconds>(limits.time).count()) +
                              " s to read it");
    case ChildOutcome::Stop::Output:
      return refuse(path, "Assimp's model of it is larger than " + std::to_string(limits.outputBytes >> 20) + " MiB");
    case ChildOutcome::Stop::Lost: return refuse(path, "lost Assimp's reader");
    case ChildOutcome::Stop::None: break;
  }
  if (received.empty()) return refuse(path, outcome->howItEnded("Assimp's reader"));
  if (received[0] == std::uint8_t(kRefused))
    return refuse(path, "Assimp cannot read it: " + std::string(received.begin() + 1, received.end()));
  if (received[0] != std::uint8_t(kGlb) || !outcome->exitedZero())
    return refuse(path, outcome->howItEnded("Assimp's reader"));
  received.erase(received.begin());
  return std::move(received);
}

}  // namespace riglens::core
