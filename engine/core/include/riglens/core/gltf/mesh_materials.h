// A glTF model's materials as the viewer draws them (glTF 2.0, section 3.9):
// base colour = vertex colour x baseColorFactor x baseColorTexture, the alpha
// mode (OPAQUE, MASK with its cutoff, BLEND), double-sided or not, and
// KHR_materials_unlit. Full PBR is not the goal: a clear, lit base colour is.
//
// The flattened mesh keeps one section of indices per primitive, each with
// its material; the texture coordinates are the set the base colour texture
// reads, KHR_texture_transform already applied, so the renderer samples
// them as they are. The factor's rgb is in the vertex colours; its alpha is
// the material's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace riglens::core {

enum class AlphaMode { Opaque, Mask, Blend };
enum class TextureWrap { Repeat, ClampToEdge, MirroredRepeat };

// The glTF sampler (section 5.26); filters as the viewer maps them: nearest
// or linear, with or without mipmaps (a missing filter is linear).
struct TextureSampler {
  TextureWrap wrapS = TextureWrap::Repeat, wrapT = TextureWrap::Repeat;
  bool magLinear = true, minLinear = true;
  bool mipmaps = true;
  bool mipLinear = true;
};

// An image decoded to 8-bit RGBA, row 0 at the top; sRGB-encoded as glTF's
// base colour textures are.
struct TextureImage {
  std::string name;
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;
};

struct MeshMaterial {
  std::string name;
  float alphaFactor = 1.0f;  // baseColorFactor's alpha
  int image = -1;            // index into MeshMaterials::images; -1: untextured
  TextureSampler sampler;
  AlphaMode alphaMode = AlphaMode::Opaque;
  float alphaCutoff = 0.5f;
  bool doubleSided = true;  // what the voxel meshes need; a glTF material says false unless it asks
  bool unlit = false;
};

// One primitive's run of indices in the flattened mesh.
struct MeshSection {
  std::uint32_t firstIndex = 0, indexCount = 0;
  int material = 0;  // into MeshMaterials::materials
  int node = -1;     // the glTF node that placed it (a skinned primitive: its mesh's node)
};

struct MeshMaterials {
  std::vector<MeshMaterial> materials;  // empty: one default, opaque, untextured, double-sided
  std::vector<TextureImage> images;
  std::vector<MeshSection> sections;  // empty: the whole mesh, material 0
  std::vector<float> uvs;             // 2 per vertex; empty when nothing is textured

  bool empty() const { return sections.empty(); }
  std::size_t bytes() const;
};

}  // namespace riglens::core
