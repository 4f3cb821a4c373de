// Decoding glTF 2.0 (.glb, or .gltf with its buffers) into a PartMesh with
// tinygltf. Takes what the meshing binaries write (float VEC3 POSITION /
// NORMAL / COLOR_0, uint32 indices, one node) and any other valid glTF a user
// throws at it: normalized u8/u16 or VEC4 colours, missing normals (computed,
// area-weighted), u8/u16/u32 or no indices, interleaved views, several
// primitives and nodes (node transforms baked in), strips and fans. The empty
// socket file the binaries write (empty arrays, a 0-byte BIN chunk) decodes
// to an empty mesh even though tinygltf refuses it.
//
// Refusals name the source and the problem: bad magic, wrong version, a
// length that disagrees with the file, a truncated chunk, an accessor past
// its buffer, an index past the vertex count, non-finite positions.
#pragma once

#include <cstdint>
#include <filesystem>
#include <glm/mat4x4.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "riglens/core/base/diagnostic.h"
#include "riglens/core/base/expected.h"
#include "riglens/core/gltf/gltf_scene.h"
#include "riglens/core/gltf/mesh_materials.h"
#include "riglens/core/gltf/part_mesh.h"

namespace riglens::core {

// JOINTS_0 / WEIGHTS_0 and skins[0] of a skinned mesh.glb. A file with
// animations or morph targets but no skin gets one of node bones only (so
// its nodes move and its targets morph in the skinning pass). A skinned file's
// primitives without JOINTS_0 are placed at their node's rest world and bound
// whole to one more bone per such node, unnamed (never a rig part), whose
// inverse bind is the inverse of that rest world: at rest it is the
// identity, posed it carries the node's motion.
struct SkinData {
  std::vector<std::uint32_t> joints;    // 4 per vertex, indices into boneNames
  std::vector<float> weights;           // 4 per vertex
  std::vector<std::string> boneNames;   // skin joint node names (= rig part names); empty for a mesh node's bone
  std::vector<int> boneNodes;           // per bone, its glTF node (-1: none, it never moves)
  std::vector<glm::mat4> inverseBinds;  // one per bone (identity when absent)
  // A skinless file's (clips or morph targets, no skin): each vertex wholly
  // on one node bone, one index a vertex, and joints and weights empty (an
  // eighth of their memory for the exported rigs that are mostly this).
  std::vector<std::uint32_t> rigid;

  bool isRigid() const { return !rigid.empty(); }
  std::size_t vertexCount() const { return rigid.empty() ? joints.size() / 4 : rigid.size(); }
  // Vertex v's k-th influence (k < 4), whichever way it is stored.
  std::uint32_t joint(std::size_t v, std::size_t k) const { return rigid.empty() ? joints[v * 4 + k] : rigid[v]; }
  float weight(std::size_t v, std::size_t k) const {
    return rigid.empty() ? weights[v * 4 + k] : (k == 0 ? 1.0f : 0.0f);
  }
};

// The morph targets of the flattened mesh (glTF 2.0 section 3.7.2.2):
// morphed = base + sum(weight_i * delta_i), positions and normals. Each
// primitive instance with targets is a range of vertices with one slot per
// target; a slot's deltas are its range's vertices in order (node transforms
// already applied, as to the base vertices), its weight the node's morph
// weight of that target in the current glTF pose.
struct MorphData {
  static constexpr std::uint32_t kNoRange = 0xffffffffu;
  struct Range {
    std::uint32_t firstVertex = 0, vertexCount = 0;
    std::uint32_t firstSlot = 0, slotCount = 0;
    int node = -1;  // whose weights drive it
  };
  std::vector<Range> ranges;
  std::vector<std::uint32_t> rangeOfVertex;  // per vertex, kNoRange when nothing morphs it
  std::vector<std::uint32_t> slotOffsets;    // per slot, where its deltas start (in floats)
  std::vector<float> positionDeltas, normalDeltas;

  std::size_t slotCount() const { return slotOffsets.size(); }
  bool empty() const { return ranges.empty(); }
};

// What one morph target slot does to the vertices of one skin bone: the box
// of its position deltas over them (core::boneMorphBoxes).
struct BoneMorphBox {
  std::uint32_t bone = 0, slot = 0;
  glm::vec3 min{0.0f}, max{0.0f};
};

// Per slot, its weight in `pose` (the node's weights; 0 where it has fewer).
std::vector<float> morphWeights(const MorphData& morph, const GltfPose& pose);

// `rest` with the morph targets applied at `weights` (one per slot); normals
// renormalised. The CPU reference of the GPU skinning pass's morph stage.
PartMesh morphMesh(const PartMesh& rest, const MorphData& morph, std::span<const float> weights);

struct DecodedGltf {
  PartMesh mesh;
  MeshMaterials materials;  // per primitive: its section of mesh.indices, material and texture coordinates
  std::optional<SkinData> skin;
  MorphData morph;       // empty: no morph targets
  GltfScene outline;     // the file's node tree, skins and clips (GltfDecode::Outline: no geometry)
  Diagnostics warnings;  // e.g. skipped point/line primitives, a scene that could not be outlined
};

// `bytes` is a whole .glb file. `sourceName` appears in every message.
Expected<DecodedGltf> decodeGlb(std::span<const std::uint8_t> bytes, std::string_view sourceName);

// Reads a .glb or .gltf file (by content: binary when it starts with "glTF"),
// or a model Assimp reads (.obj, .fbx, .dae, .stl, a mesh .ply: which file
// is which kind is the reader table's, core/open/) as the GLB Assimp exports.
Expected<DecodedGltf> readGltfFile(const std::filesystem::path& path);

// Area-weighted vertex normals for a mesh without them.
std::vector<float> computeVertexNormals(const PartMesh& mesh);

}  // namespace riglens::core
