// A model opened by itself (a glTF file, or a format Assimp reads) has one
// rig part, the whole model; its parts for the viewer are its glTF nodes:
// the Scene panel's tree, and what the part tint, the highlight and the
// visibility toggles name (issue: "a node is a part"). Each node draws the
// sections (primitives) it placed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "riglens/core/rig/run_loader.h"

namespace riglens::core {

// Whether the run's parts, as the viewer lists them, are its glTF nodes: a
// model opened by itself whose sections say which node placed them.
bool listsNodesAsParts(const LoadedRun& run);

struct NodeRow {
  int node = 0;
  int depth = 0;
};

// The scene's nodes depth-first from its roots (children in their order),
// each once; nodes outside the tree follow as roots.
std::vector<NodeRow> nodeTreeOrder(const GltfScene& scene);

// Per node, the triangles of the sections it placed.
std::vector<std::size_t> trianglesPerNode(const LoadedRun& run);

// The node's name, or "node N" for an unnamed one.
std::string nodeLabel(const GltfScene& scene, int node);

// The first node labelled `label` (nodeLabel), or -1.
int findNodeLabelled(const GltfScene& scene, std::string_view label);

}  // namespace riglens::core
