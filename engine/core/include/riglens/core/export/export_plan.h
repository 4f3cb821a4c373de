// Planning the whole-rig glTF export (what voxel-to-gltf writes, with node
// frames a game can drive): the node tree, each part's baked geometry and
// every animation channel, independent of the glTF library that writes them.
//
// Node frames. For a part P with joints j1..jk (declared order), pivots
// p1..pk and mounts M1..Mk, and q_P = P's pivot:
//
//   joint node i   local = C_i * D_i(v_i)          C_1 = T(-q_parent) M_1 T(p_1)
//                                                   C_i = T(-p_{i-1}) M_i T(p_i)
//   part node P    local = T(-p_k) T(q_P)           (no joints: T(-q_parent) T(q_P))
//   geometry       v_baked = v_sculpted - q_P
//
// D_i is the joint's rotation about its axis (x mirrored) or its translation
// along it, so world(part node) * v_baked = world(P) * v_sculpted at every
// pose, and each joint is driven by ONE node from its default (rest) TRS:
//   rotation:     node.rotation    = default.rotation * quat(axisVector, value - rest)
//   translation:  node.translation = default.translation + axisVector * (value - rest)
// axisVector is the joint's axis in the node's own frame for rotations (x
// pitch mirroring folded in: (-1,0,0)) and in the parent's frame for
// translations (the direction of C_i's rotation applied to the axis).
//
// Units: voxels, unless ExportOptions::scale multiplies every length
// (positions, translations, pivots, translation ranges) by it.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "riglens/core/base/diagnostic.h"
#include "riglens/core/gltf/part_mesh.h"
#include "riglens/core/rig/run_loader.h"

namespace riglens::core {

struct ExportOptions {
  bool cubic = false;         // CUBICSPLINE where exact (translation channels), sampling elsewhere
  double tolerance = 1e-4;    // max error of the reconstructed joint value (rad or voxel)
  double scale = 1.0;         // length multiplier; 1 keeps voxel units
  double sampleStepMs = 1.0;  // the dense grid the reduction starts from
};

struct PlannedNode {
  std::string name;
  int parent = -1;  // index into ExportPlan::nodes
  glm::dvec3 translation{0.0};
  glm::dquat rotation{1, 0, 0, 0};
  int part = -1;   // a part node: index of the rig part (mesh or socket)
  int joint = -1;  // a joint node: index of the rig joint
  bool socket = false;
};

enum class ChannelPath { Translation, Rotation };
enum class ChannelInterpolation { Linear, Step, CubicSpline };

struct PlannedChannel {
  int node = -1;
  ChannelPath path = ChannelPath::Rotation;
  ChannelInterpolation interpolation = ChannelInterpolation::Linear;
  std::vector<float> times;      // seconds, strictly increasing
  std::vector<float> values;     // 3 (translation) or 4 (xyzw) per key; cubic: in-tangent, value, out-tangent
  std::size_t denseSamples = 0;  // samples on the dense grid before reduction
};

struct PlannedAnimation {
  std::string name;
  bool loop = false;
  bool autoPlay = false;
  std::vector<PlannedChannel> channels;
};

struct ExportPlan {
  std::string name;                // the model's name (folder or file stem)
  std::vector<PlannedNode> nodes;  // parents before children
  std::vector<int> roots;
  std::vector<PartMesh> partMeshes;          // per rig part, baked and scaled (empty: socket)
  std::vector<int> partNode;                 // node index per rig part
  std::vector<int> jointNode;                // node index per rig joint (-1: its part does not exist)
  std::vector<PlannedAnimation> animations;  // the autoPlay idle first
  nlohmann::ordered_json interface;          // {name, joints: [...]}, joints empty when no caller joint
  Diagnostics warnings;
};

ExportPlan planExport(const LoadedRun& run, const ExportOptions& options);

// The joint interface entry of one caller joint, as written to
// <stem>.interface.json and the node's extras.joints.
nlohmann::ordered_json interfaceEntry(const ExportPlan& plan, const Rig& rig, int joint, const ExportOptions& options);

}  // namespace riglens::core
