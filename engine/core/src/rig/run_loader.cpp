#include "riglens/core/rig/run_loader.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <unordered_map>

#include "riglens/core/base/json_file.h"
#include "riglens/core/base/json_reader.h"
#include "riglens/core/gltf/closed_surface.h"
#include "riglens/core/gltf/flat_faces.h"
#include "riglens/core/model_import/assimp_model.h"
#include "riglens/core/rig/rig_json.h"
#include "riglens/core/rig/skinning.h"

namespace riglens::core {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

Error invalid(const fs::path& source, const std::string& message) {
  return errorAt(ErrorCode::Invalid, source.string(), "", message);
}

// One part's mesh to load: its rig name, the path relative to the run's
// folder, and the JSON pointer a failure is reported at.
struct PartMeshJob {
  std::string name, relative, pointer;
};

struct PartMeshResult {
  PartMesh mesh;
  std::string path;  // as resolved (the relative path when it could not be)
  Diagnostics warnings;
};

// Loads one part's mesh; a failure becomes a warning and an empty mesh.
PartMeshResult loadPartMesh(const fs::path& folder, const fs::path& source, const PartMeshJob& job) {
  PartMeshResult result;
  auto path = resolveInside(folder, job.relative, "mesh of part '" + job.name + "'");
  if (!path) {
    result.warnings.push_back(
        {source.string(), job.pointer, path.error().message + "; the part is drawn empty", Severity::Error, job.name});
    result.path = job.relative;
    return result;
  }
  result.path = path->string();
  auto decoded = readGltfFile(*path);
  if (!decoded) {
    result.warnings.push_back({source.string(), job.pointer,
                               "part '" + job.name + "': " + decoded.error().message + "; the part is drawn empty",
                               Severity::Error, job.name});
    return result;
  }
  for (auto& w : decoded->warnings) {
    w.part = job.name;
    result.warnings.push_back(std::move(w));
  }
  if (decoded->skin)
    result.warnings.push_back(
        {path->string(), "", "per-part mesh carries a skin; the skin is ignored", Severity::Warning, job.name});
  result.mesh = std::move(decoded->mesh);
  result.mesh.closed = isClosedOutwardSurface(result.mesh);
  result.mesh.flatFaces = hasFlatFaces(result.mesh);
  return result;
}

// Each part's .glb is independent: they load on up to one thread per core,
// and join the run in rig order (meshes, paths and warnings as one loop would
// give them). A worker stops nothing: whatever goes wrong in one part (memory
// included) is that part's warning.
void loadPartMeshes(LoadedRun& run, const std::vector<PartMeshJob>& jobs) {
  std::vector<PartMeshResult> results(jobs.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i = next++; i < jobs.size(); i = next++) {
      try {
        results[i] = loadPartMesh(run.folder, run.source, jobs[i]);
      } catch (const std::exception& e) {  // memory, or a library throwing
        results[i] = PartMeshResult{};
        results[i].path = jobs[i].relative;
        results[i].warnings.push_back({run.source.string(), jobs[i].pointer,
                                       "part '" + jobs[i].name + "': " + e.what() + "; the part is drawn empty",
                                       Severity::Error, jobs[i].name});
      }
    }
  };
  const std::size_t threads =
      std::min<std::size_t>({std::max(1u, std::thread::hardware_concurrency()), jobs.size(), 8});
  {
    std::vector<std::jthread> helpers;
    for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
    work();
  }  // joined
  for (auto& result : results) {
    run.meshes.push_back(std::move(result.mesh));
    run.meshPaths.push_back(std::move(result.path));
    for (auto& w : result.warnings) run.warnings.push_back(std::move(w));
  }
}

Expected<void> attachRig(LoadedRun& run, const json& spec, const std::string& pointer) {
  auto raw = parseRigSpec(spec, run.source.string(), pointer);
  if (!raw) return raw.error();
  auto built = buildRig(*raw, run.source.string(), pointer);
  if (!built) return built.error();
  run.rig = std::move(built->rig);
  for (auto& w : built->warnings) run.warnings.push_back(std::move(w));
  return {};
}

// A folder with a rig but without meshes/ and with a skinned mesh.glb: the
// skinned form (one mesh, bones named after parts).
bool useSkinnedMesh(const LoadedRun& run) {
  std::error_code ec;
  return !fs::exists(run.folder / "meshes", ec) && fs::exists(run.folder / "mesh.glb", ec);
}

Expected<void> loadSkinned(LoadedRun& run, const fs::path& glb) {
  auto decoded = readGltfFile(glb);
  if (!decoded) return decoded.error();
  for (auto& w : decoded->warnings) run.warnings.push_back(std::move(w));
  if (convertsThroughAssimp(glb))  // what the conversion left out on purpose
    for (std::string& note : assimpReadingNotes(glb)) run.warnings.push_back({glb.string(), "", std::move(note)});
  run.meshPaths = {glb.string()};
  run.meshes.clear();  // not = {std::move(mesh)}: an initializer list copies its elements (a second mesh)
  run.meshes.push_back(std::move(decoded->mesh));
  run.materials = std::move(decoded->materials);
  run.morph = std::move(decoded->morph);
  run.gltf = std::move(decoded->outline);
  if (!decoded->skin) {
    run.kind = RunKind::StaticMesh;
    // A rig whose parts should move it but cannot; a model opened by itself
    // (one part) is simply static.
    if (run.rig.parts().size() > 1)
      run.warnings.push_back({glb.string(), "", "mesh.glb has no skin; drawn unposed under the root part"});
    return {};
  }
  run.kind = RunKind::SkinnedMesh;
  run.skin = std::move(decoded->skin);
  run.boneBounds = boneBindBounds(run.meshes[0], *run.skin);
  if (!run.morph.empty()) run.boneMorphBoxes = boneMorphBoxes(run.meshes[0], *run.skin, run.morph);
  // A bare glTF file's joints follow its own node tree (its rest pose, its clips).
  const bool ownJoints = run.rig.parts().size() <= 1 && !run.gltf.nodes.empty();
  for (std::size_t b = 0; b < run.skin->boneNames.size(); ++b) {
    const int part = run.rig.findPart(run.skin->boneNames[b]);
    // Unnamed bones carry the file's unskinned meshes by their nodes (glb_reader.h).
    const bool meshNode = run.skin->boneNames[b].empty();
    if (part == kNoIndex && !meshNode && !ownJoints)
      run.warnings.push_back({glb.string(), "/skins/0/joints/" + std::to_string(b),
                              "bone '" + run.skin->boneNames[b] + "' is not a rig part; it stays at rest"});
    run.boneParts.push_back(part);
  }
  return {};
}

Expected<LoadedRun> loadModelSpec(const fs::path& file, const json& doc) {
  LoadedRun run;
  run.source = file;
  run.folder = file.parent_path();
  run.kind = RunKind::Rig;
  if (auto ok = attachRig(run, doc, ""); !ok) return ok.error();
  if (useSkinnedMesh(run)) {
    if (auto ok = loadSkinned(run, run.folder / "mesh.glb"); !ok) return ok.error();
    return run;
  }
  std::vector<PartMeshJob> jobs;
  for (std::size_t i = 0; i < run.rig.parts().size(); ++i) {
    const std::string& name = run.rig.parts()[i].name;
    jobs.push_back({name, "meshes/" + name + ".glb", "/parts/" + std::to_string(i)});
  }
  loadPartMeshes(run, jobs);
  return run;
}

Expected<LoadedRun> loadRunRecord(const fs::path& file, const json& doc) {
  LoadedRun run;
  run.source = file;
  run.folder = file.parent_path();
  run.kind = RunKind::RunRecord;
  std::vector<std::string> meshOf, pointerOf;
  auto read = guardRead(file.string(), [&]() -> Expected<void> {
    const JsonRef voxel = JsonRef(doc)["voxel"];
    voxel.object();
    const auto rig = voxel.find("rig");
    if (!rig || !rig->isObject()) throwReadProblem("/voxel/rig", "the run record holds no produced rig");
    if (auto ok = attachRig(run, rig->json(), "/voxel/rig"); !ok) return ok.error();

    if (auto model = voxel.find("model")) {  // what was asked for, kept for comparison; a broken one only warns
      auto raw = parseRigSpec(model->json(), file.string(), "/voxel/model");
      auto built = raw ? buildRig(*raw, file.string(), "/voxel/model") : Expected<BuiltRig>(raw.error());
      if (built)
        run.requiredModel = std::move(built->rig);
      else
        run.warnings.push_back({file.string(), "/voxel/model", "required model not shown: " + built.error().message});
    }

    meshOf.assign(run.rig.parts().size(), {});
    pointerOf.assign(run.rig.parts().size(), {});
    std::unordered_map<std::string, int> partIndex;
    for (std::size_t i = 0; i < run.rig.parts().size(); ++i) partIndex.emplace(run.rig.parts()[i].name, int(i));
    if (auto parts = voxel.find("parts")) {
      for (const JsonRef& entry : parts->elements()) {
        entry.object();
        const std::string name = entry["name"].string();
        const auto part = partIndex.find(name);
        if (part == partIndex.end()) {
          run.warnings.push_back(
              {file.string(), entry.pointer() + "/name", "no rig part named '" + name + "'; ignored"});
          continue;
        }
        if (auto mesh = entry.find("mesh")) {
          meshOf[std::size_t(part->second)] = mesh->string();
          pointerOf[std::size_t(part->second)] = mesh->pointer();
        }
      }
    }
    return {};
  });
  if (!read) return read.error();
  if (useSkinnedMesh(run) && std::all_of(meshOf.begin(), meshOf.end(), [](auto& m) { return m.empty(); })) {
    if (auto ok = loadSkinned(run, run.folder / "mesh.glb"); !ok) return ok.error();
    return run;
  }
  std::vector<PartMeshJob> jobs;
  for (std::size_t i = 0; i < run.rig.parts().size(); ++i) {
    const std::string& name = run.rig.parts()[i].name;
    const bool listed = !meshOf[i].empty();
    jobs.push_back({name, listed ? meshOf[i] : "meshes/" + name + ".glb",
                    listed ? pointerOf[i] : "/voxel/rig/parts/" + std::to_string(i)});
  }
  loadPartMeshes(run, jobs);
  return run;
}

}  // namespace

Expected<LoadedRun> loadModelFile(const fs::path& file) {
  LoadedRun run;
  run.source = file;
  run.folder = file.parent_path();
  run.rig = Rig::singlePart(file.stem().string());
  run.modelFile = true;
  if (auto ok = loadSkinned(run, file); !ok) return ok.error();
  return run;
}

const char* runKindName(RunKind kind) {
  switch (kind) {
    case RunKind::Rig: return "rig";
    case RunKind::RunRecord: return "run-record";
    case RunKind::StaticMesh: return "static-mesh";
    case RunKind::SkinnedMesh: return "skinned-mesh";
  }
  return "rig";
}

std::size_t LoadedRun::cpuBytes() const {
  std::size_t total = 0;
  for (const auto& m : meshes)
    total += (m.positions.size() + m.normals.size() + m.colors.size()) * sizeof(float) +
             m.indices.size() * sizeof(std::uint32_t);
  if (skin)
    total += (skin->joints.size() + skin->rigid.size()) * sizeof(std::uint32_t) + skin->weights.size() * sizeof(float) +
             skin->inverseBinds.size() * sizeof(glm::mat4);
  total += (morph.positionDeltas.size() + morph.normalDeltas.size()) * sizeof(float) +
           (morph.rangeOfVertex.size() + morph.slotOffsets.size()) * sizeof(std::uint32_t);
  return total + materials.bytes();
}

Expected<LoadedRun> loadRunFolder(const fs::path& folder) {
  std::error_code ec;
  if (fs::exists(folder / "rig.json", ec) || fs::exists(folder / "run.json", ec))
    return loadRunJson(folder / (fs::exists(folder / "rig.json", ec) ? "rig.json" : "run.json"));
  if (fs::exists(folder / "mesh.glb", ec)) return loadModelFile(folder / "mesh.glb");
  return errorAt(ErrorCode::Invalid, folder.string(), "", "a run folder needs rig.json, run.json or mesh.glb");
}

Expected<LoadedRun> loadRunJson(const fs::path& file) {
  auto doc = readJsonFile(file);
  if (!doc) return doc.error();
  if (!doc->is_object()) return invalid(file, "/: expected a JSON object (a rig or a run record)");
  if (doc->contains("parts")) return loadModelSpec(file, *doc);
  if (doc->contains("voxel")) return loadRunRecord(file, *doc);
  return invalid(file, "/: neither a rig (no 'parts') nor a run record (no 'voxel')");
}

}  // namespace riglens::core
