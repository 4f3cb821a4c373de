#include "riglens/core/rig/model_nodes.h"

#include <algorithm>

namespace riglens::core {

bool listsNodesAsParts(const LoadedRun& run) {
  if (run.rig.parts().size() != 1 || run.gltf.nodes.empty() || run.materials.sections.empty()) return false;
  return std::all_of(run.materials.sections.begin(), run.materials.sections.end(),
                     [&](const MeshSection& s) { return s.node >= 0 && s.node < int(run.gltf.nodes.size()); });
}

std::vector<NodeRow> nodeTreeOrder(const GltfScene& scene) {
  const int count = int(scene.nodes.size());
  std::vector<NodeRow> rows;
  rows.reserve(scene.nodes.size());
  std::vector<bool> listed(scene.nodes.size(), false);
  // An explicit stack: a file may nest nodes as deep as it likes.
  std::vector<NodeRow> stack;
  const auto walkFrom = [&](int root) {
    stack.push_back({root, 0});
    while (!stack.empty()) {
      const NodeRow row = stack.back();
      stack.pop_back();
      if (row.node < 0 || row.node >= count || listed[std::size_t(row.node)]) continue;
      listed[std::size_t(row.node)] = true;
      rows.push_back(row);
      const auto& children = scene.nodes[std::size_t(row.node)].children;
      for (auto c = children.rbegin(); c != children.rend(); ++c) stack.push_back({*c, row.depth + 1});
    }
  };
  for (int n = 0; n < count; ++n)
    if (scene.nodes[std::size_t(n)].parent < 0) walkFrom(n);
  for (int n = 0; n < count; ++n)
    if (!listed[std::size_t(n)]) walkFrom(n);
  return rows;
}

std::vector<std::size_t> trianglesPerNode(const LoadedRun& run) {
  std::vector<std::size_t> triangles(run.gltf.nodes.size(), 0);
  for (const MeshSection& s : run.materials.sections)
    if (s.node >= 0 && s.node < int(triangles.size())) triangles[std::size_t(s.node)] += s.indexCount / 3;
  return triangles;
}

std::string nodeLabel(const GltfScene& scene, int node) {
  if (node < 0 || node >= int(scene.nodes.size())) return {};
  const std::string& name = scene.nodes[std::size_t(node)].name;
  return name.empty() ? "node " + std::to_string(node) : name;
}

int findNodeLabelled(const GltfScene& scene, std::string_view label) {
  for (int n = 0; n < int(scene.nodes.size()); ++n)
    if (nodeLabel(scene, n) == label) return n;
  return -1;
}

}  // namespace riglens::core
