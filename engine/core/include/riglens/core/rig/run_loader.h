// Loading a voxel run from disk (contract/RIG.md, "A run on disk"):
//
//   run/                 a folder: rig.json, else run.json (a run record), else mesh.glb
//   run/rig.json         a ModelSpec; parts' meshes at meshes/<part>.glb
//   run/run.json, ...    a run record: voxel.rig (the ModelSpec), voxel.parts[]
//                        {name, mesh} (paths relative to the record), voxel.model
//   mesh.glb / x.gltf    a static model (one part) or a skinned one
//
// A part whose mesh is missing, unreadable, malformed or outside the run
// folder loads as an empty mesh with a warning: the rest of the run loads.
// A bad rig (or an unreadable input) fails the whole load.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "riglens/core/base/bounds.h"
#include "riglens/core/base/diagnostic.h"
#include "riglens/core/base/expected.h"
#include "riglens/core/base/file_io.h"
#include "riglens/core/gltf/glb_reader.h"
#include "riglens/core/gltf/part_mesh.h"
#include "riglens/core/rig/rig.h"

namespace riglens::core {

enum class RunKind { Rig, RunRecord, StaticMesh, SkinnedMesh };
const char* runKindName(RunKind kind);

struct LoadedRun {
  std::filesystem::path source;  // the file actually read (rig.json, run.json, mesh.glb)
  std::filesystem::path folder;  // mesh paths resolve against it
  RunKind kind = RunKind::Rig;
  Rig rig;
  // One per rig part (empty for sockets and for meshes that failed to load),
  // except SkinnedMesh: one mesh holding every vertex.
  std::vector<PartMesh> meshes;
  std::vector<std::string> meshPaths;  // as resolved, one per entry of meshes
  std::optional<SkinData> skin;        // SkinnedMesh only
  MorphData morph;                     // SkinnedMesh: meshes[0]'s morph targets (the skinning pass applies them)
  std::vector<int> boneParts;          // SkinnedMesh: rig part per skin bone (kNoIndex: none)
  std::vector<Bounds> boneBounds;      // SkinnedMesh: per bone, the file's vertices it moves (core::boneBindBounds)
  std::vector<BoneMorphBox> boneMorphBoxes;  // SkinnedMesh with morph targets: core::boneMorphBoxes
  std::optional<Rig> requiredModel;          // a run record's voxel.model, for comparison
  GltfScene gltf;                            // a .glb/.gltf's own node tree, skins and clips (no geometry)
  bool modelFile = false;                    // a model file opened by itself: its node tree poses it
  MeshMaterials materials;                   // a single-mesh model's (mesh.glb, a glTF file): meshes[0]'s sections
  Diagnostics warnings;

  std::size_t cpuBytes() const;  // geometry + skin arrays held in memory
};

// The loaders behind the reader table (core/open/asset_readers.h, which
// picks one by the path: openers should go through it, loadRun there):
// a run folder (rig.json, else run.json, else mesh.glb),
Expected<LoadedRun> loadRunFolder(const std::filesystem::path& folder);
// a rig.json (a ModelSpec) or a run record, told apart by their keys,
Expected<LoadedRun> loadRunJson(const std::filesystem::path& file);
// a model file (glTF, or a format Assimp reads) as a one-part or skinned run.
Expected<LoadedRun> loadModelFile(const std::filesystem::path& file);

}  // namespace riglens::core
