// A glTF 2.0 file as its scene: the default scene's node hierarchy (TRS or
// matrix), meshes with their primitives and morph targets, skins and
// animations — what a posing client (three.js, a game runtime) keeps, as
// opposed to readGltfFile's single flattened PartMesh. Posing follows the
// glTF 2.0 specification (sections 3.7 "Concepts / Geometry" for skins and
// morph targets, 3.11 "Animations" for sampling):
//   - local = T * R * S (or the node's matrix); world = parent world * local;
//   - an animation channel replaces one path of one node; LINEAR lerps
//     (slerps rotations), STEP holds, CUBICSPLINE is the Hermite spline of
//     its (in-tangent, value, out-tangent) triplets scaled by the key
//     interval, its rotations normalised; a time outside the keys clamps;
//   - morphed = base + sum(weight_i * target_i) (POSITION and NORMAL);
//   - skinned = sum(w_k * world(joint_k) * inverseBind_k) * morphed, the mesh
//     node's own transform ignored; other meshes are placed by their node's world.
// Refusals name the file and the problem (an accessor past its buffer, a
// channel naming a missing node, keys out of order, a joint index past the
// skin), as the mesh decoder's do.
#pragma once

#include <cstdint>
#include <filesystem>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat4x4.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "riglens/core/base/diagnostic.h"
#include "riglens/core/base/expected.h"
#include "riglens/core/gltf/part_mesh.h"
#include "riglens/core/gltf/vrm.h"

namespace riglens::core {

inline constexpr int kGltfNone = -1;

struct GltfNode {
  std::string name;
  int parent = kGltfNone;
  std::vector<int> children;
  glm::dvec3 translation{0.0};
  glm::dquat rotation{1.0, 0.0, 0.0, 0.0};
  glm::dvec3 scale{1.0};
  std::optional<glm::dmat4> matrix;  // a matrix node (never animated)
  int mesh = kGltfNone;
  int skin = kGltfNone;
  std::vector<double> weights;  // the node's morph weights; empty: the mesh's
};

struct GltfMorphTarget {
  std::vector<float> positions;  // deltas, 3 per vertex (empty: none)
  std::vector<float> normals;
};

struct GltfPrimitive {
  PartMesh mesh;  // positions, normals (computed when absent), colours, triangle indices
  std::vector<GltfMorphTarget> targets;
  int influences = 0;                 // joints per vertex: 0 (not skinned), 4 or 8
  std::vector<std::uint32_t> joints;  // influences per vertex, indices into the skin's joints
  std::vector<float> jointWeights;    // influences per vertex
};

struct GltfMesh {
  std::string name;
  std::vector<GltfPrimitive> primitives;
  std::vector<double> weights;   // default morph weights (as many as targets)
  std::size_t morphTargets = 0;  // the most morph targets of any of its primitives (an outline's too)
};

struct GltfSkin {
  std::string name;
  std::vector<int> joints;               // node indices
  std::vector<glm::dmat4> inverseBinds;  // one per joint (identity when absent)
};

enum class GltfPath { Translation, Rotation, Scale, Weights };
enum class GltfInterpolation { Linear, Step, CubicSpline };

struct GltfChannel {
  int node = kGltfNone;
  GltfPath path = GltfPath::Translation;
  GltfInterpolation interpolation = GltfInterpolation::Linear;
  std::vector<double> times;   // seconds, increasing
  std::vector<double> values;  // components per key (x3 for CUBICSPLINE: in-tangent, value, out-tangent)
  int components = 0;          // 3, 4 or the node's morph target count
};

struct GltfAnimation {
  std::string name;
  std::vector<GltfChannel> channels;
  double durationSeconds = 0.0;  // the last key of any channel
};

// A camera the file places (glTF 2.0, 3.10): one per node that names a
// camera, looking down the node's -z with +y up.
struct GltfCamera {
  std::string name;  // the camera's name, else its node's
  int node = kGltfNone;
  bool perspective = true;
  double yfov = 0.0;               // perspective: radians
  double aspectRatio = 0.0;        // perspective: 0 when the file leaves it to the viewport
  double xmag = 0.0, ymag = 0.0;   // orthographic half-extents
  double znear = 0.0, zfar = 0.0;  // zfar 0: an infinite perspective
};

// A KHR_lights_punctual light a node places (at the node's origin, shining
// down its -z).
struct GltfLight {
  enum class Type { Directional, Point, Spot };
  std::string name;
  int node = kGltfNone;
  Type type = Type::Point;
  glm::dvec3 color{1.0};
  double intensity = 1.0;                                            // directional: lux; point and spot: candela
  double range = 0.0;                                                // 0: unbounded
  double innerConeAngle = 0.0, outerConeAngle = 0.7853981633974483;  // spot, radians
};

struct GltfScene {
  std::vector<GltfNode> nodes;
  std::vector<int> roots;      // the default scene's (or every parentless node)
  std::vector<int> drawOrder;  // nodes depth-first from the roots, parents first
  std::vector<GltfMesh> meshes;
  std::vector<GltfSkin> skins;
  std::vector<GltfAnimation> animations;
  std::vector<GltfCamera> cameras;  // in node order
  std::vector<GltfLight> lights;    // in node order
  std::optional<VrmAvatar> vrm;     // a VRM avatar's expressions, humanoid and MToon materials
  Diagnostics warnings;             // what was read but set aside (a camera or light the file gets wrong)

  int findAnimation(std::string_view name) const;  // kGltfNone when absent
};

// What to decode: Outline skips the primitives' geometry (meshes keep their
// names and weights, no primitives): the node tree, skins and clips of a
// large file without a second copy of its vertices (inspect).
enum class GltfDecode { Everything, Outline };

Expected<GltfScene> readGltfScene(const std::filesystem::path& path, GltfDecode decode = GltfDecode::Everything);
// A whole .glb in memory; `sourceName` appears in every message.
Expected<GltfScene> decodeGltfScene(std::span<const std::uint8_t> bytes, std::string_view sourceName);

struct GltfPose {
  std::vector<glm::dmat4> worlds;            // per node
  std::vector<std::vector<double>> weights;  // per node: its morph weights (empty: no morph targets)
};

// The rest pose: every node as the file writes it.
GltfPose gltfRestPose(const GltfScene& scene);
// `animation` sampled at `seconds` (clamped to its keys) over the rest pose.
GltfPose gltfSamplePose(const GltfScene& scene, int animation, double seconds);

// Every drawn primitive's vertices posed (morphed, then skinned or placed by
// its node), xyz per vertex, primitives in drawOrder then primitive order.
std::vector<float> gltfPosedVertices(const GltfScene& scene, const GltfPose& pose);

}  // namespace riglens::core
