// A rig's parts as one skinned mesh.glb beside its rig.json, the kind of
// run contract/RIG.md describes ("bones = parts", identity inverse binds as
// the meshing binaries write them): every part's vertices (part-local, as
// meshes/<part>.glb holds them) on the bone named after their part. With
// `blend`, every third vertex of a part with a parent is shared 60/40 with
// the parent's bone, so the skinning's weighted sum is exercised, not just
// its rigid case.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

#include "gltf_builder.h"
#include "riglens/core/open/asset_readers.h"
#include "riglens/core/rig/run_loader.h"

namespace riglens::test {

// Writes `out`/rig.json (the rig of `run`) and `out`/mesh.glb. Empty on
// success, else the problem.
inline std::string writeSkinnedRun(const std::filesystem::path& run, const std::filesystem::path& out, bool blend) {
  auto loaded = core::loadRun(run);
  if (!loaded) return loaded.error().message;
  std::vector<float> positions, normals, colors, weights;
  std::vector<std::uint16_t> joints;
  std::vector<std::uint32_t> indices;
  const auto& parts = loaded->rig.parts();
  for (std::size_t p = 0; p < parts.size() && p < loaded->meshes.size(); ++p) {
    const core::PartMesh& mesh = loaded->meshes[p];
    const auto base = std::uint32_t(positions.size() / 3);
    positions.insert(positions.end(), mesh.positions.begin(), mesh.positions.end());
    normals.insert(normals.end(), mesh.normals.begin(), mesh.normals.end());
    colors.insert(colors.end(), mesh.colors.begin(), mesh.colors.end());
    for (std::uint32_t i : mesh.indices) indices.push_back(base + i);
    const int parent = parts[p].parent;
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
      const bool shared = blend && parent != core::kNoIndex && v % 3 == 0;
      joints.insert(joints.end(), {std::uint16_t(p), std::uint16_t(shared ? parent : 0), 0, 0});
      weights.insert(weights.end(), {shared ? 0.6f : 1.0f, shared ? 0.4f : 0.0f, 0.0f, 0.0f});
    }
  }
  GltfBuilder b;
  const int position = b.data(positions, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3);
  b.bounds(position, positions);
  b.primitive({{"POSITION", position},
               {"NORMAL", b.data(normals, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)},
               {"COLOR_0", b.data(colors, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)},
               {"JOINTS_0", b.data(joints, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_VEC4)},
               {"WEIGHTS_0", b.data(weights, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4)}},
              b.data(indices, TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR));
  tinygltf::Skin skin;
  for (const auto& part : parts) {
    tinygltf::Node node;
    node.name = part.name;
    skin.joints.push_back(int(b.model.nodes.size()));
    b.model.nodes.push_back(node);
  }
  b.model.skins.push_back(skin);
  b.model.nodes[0].skin = 0;
  std::filesystem::create_directories(out);
  std::filesystem::copy_file(loaded->source, out / "rig.json", std::filesystem::copy_options::overwrite_existing);
  const auto bytes = b.glb();
  std::ofstream file(out / "mesh.glb", std::ios::binary);
  file.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return file.good() ? std::string() : "cannot write " + (out / "mesh.glb").string();
}

}  // namespace riglens::test
