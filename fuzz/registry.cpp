#include <array>

#include "fuzz_target.h"

namespace riglens::fuzz {

namespace {
constexpr std::array kTargets{
    Target{"rig_json", "rig.json (a ModelSpec), posed, played and planned for export", &rigJson, &stageRigJson},
    Target{"run_record", "a run record (voxel.rig, voxel.parts[].mesh, voxel.model) in a run folder", &runRecord,
           &stageRunRecord},
    Target{"part_glb", "a part .glb (any glTF binary the loader decodes)", &partGlb, &stagePartGlb},
    Target{"mesh_glb", "a run's skinned mesh.glb beside a rig.json, skinned at rest", &meshGlb, &stageMeshGlb},
    Target{"gltf", "a .gltf text file with data-URI or external buffers", &gltfText, &stageGltf},
    Target{"model_formats", "an OBJ, STL, PLY, COLLADA or FBX file (the first byte picks) read through Assimp",
           &modelFormat, &stageModelFormat},
    Target{"aosrig", "an .aosrig GNM pack, posed at rest, with controls and joint overrides", &aosrig, &stageAosrig},
    Target{"orl_pack", "an ORLPACK1 pack, deformed and shell-bound", &orlPack, nullptr},
    Target{"ply", "a 3DGS .ply scene", &gaussianPly, &stagePly},
    Target{"bundle_scene", "a bundle's scene.json beside a GNM pack, branch mesh and names", &bundleScene,
           &stageBundleScene},
    Target{"bundle_mesh", "a bundle branch's mesh_<b>.json beside its .bin", &bundleMesh, &stageBundleMesh},
    Target{"npy", "a branch's rig_presets table (.npy, float32 2-D)", &npyTable, nullptr},
    Target{"controls", "a controls JSON for a GNM pack (array or {name: value})", &controlsJson, nullptr},
    Target{"body_pose", "a body pose JSON ({bones: [{name, rotation}], rootPos}) applied to a GNM pack", &bodyPoseJson,
           nullptr},
    Target{"joint_worlds", "a joint-worlds JSON for a GNM pack", &jointWorldsJson, nullptr},
    Target{"orl_outputs", "an ORL outputs JSON ({jointOut, bsOut})", &orlOutputsJson, nullptr},
    Target{"dna", "a MetaHuman DNA (v2.1 sections or a v2.2+ layer index), evaluated in GUI and raw mode at every LOD",
           &dna, nullptr},
    Target{"environment", "an environment map (.hdr or .exr, the first byte picks), decoded from memory",
           &environmentMap, nullptr},
    Target{"ict_face", "the names.json of an ICT-FaceKit face folder (--ict DIR)", &ictFace, nullptr},
};
}  // namespace

std::span<const Target> targets() {
  return kTargets;
}

const Target* findTarget(std::string_view name) {
  for (const Target& t : kTargets)
    if (name == t.name) return &t;
  return nullptr;
}

}  // namespace riglens::fuzz
