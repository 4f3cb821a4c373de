// A glTF model's materials as the viewer draws them (glTF 2.0, section 3.9):
// base colour = vertex colour x baseColorFactor x baseColorTexture, the alpha
// mode (OPAQUE, MASK with its cutoff, BLEND), double-sided or not, and
// KHR_materials_unlit: all the review look uses. The PBR look adds the
// metallic-roughness model's other inputs (PbrInputs).
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

// A texture the PBR look reads besides the base colour. Its coordinates:
// set 0 is MeshMaterials::uvs (the base colour's, their transform applied),
// set 1 is MeshMaterials::uvs1 (another TEXCOORD_n, as the file has it);
// `uvTransform` (two rows of an affine 2x3 map) takes them to this
// texture's, its own KHR_texture_transform included.
struct MaterialTexture {
  int image = -1;  // into MeshMaterials::images; -1: none
  TextureSampler sampler;
  int set = 0;
  float uvTransform[6] = {1, 0, 0, 0, 1, 0};
};

// The metallic-roughness model's inputs past the base colour (glTF 2.0,
// 3.9.2-3.9.5), and the extensions the PBR look honours:
// KHR_materials_emissive_strength, KHR_materials_ior, KHR_materials_specular.
struct PbrInputs {
  float metallic = 1.0f, roughness = 1.0f;
  MaterialTexture metallicRoughness;  // linear: roughness in G, metalness in B
  MaterialTexture normal;             // linear, tangent space
  float normalScale = 1.0f;
  MaterialTexture occlusion;  // linear, R
  float occlusionStrength = 1.0f;
  MaterialTexture emissive;  // sRGB
  float emissiveFactor[3] = {0, 0, 0};
  float emissiveStrength = 1.0f;
  float ior = 1.5f;
  float specular = 1.0f;               // KHR_materials_specular's specularFactor
  float specularColor[3] = {1, 1, 1};  // and specularColorFactor
};

// VRM's MToon toon shading (VRMC_materials_mtoon; a VRM 0.x file's
// materialProperties converted as three-vrm converts them), as the PBR look
// draws it: per light, mix(shade, base colour, linearstep(-1 + toony,
// 1 - toony, N.L + shift)) x light / pi, plus the base colour under the
// environment's diffuse light and the emission. Rim light, matcap, outline,
// UV animation, the shading-shift texture and GI equalisation are not
// drawn (three-vrm's own shader has them): a documented approximation.
struct ToonShading {
  bool enabled = false;
  float shadeColor[3] = {0, 0, 0};  // linear
  float shadingShift = 0.0f;
  float shadingToony = 0.9f;
  // The shade multiply texture is the base colour's: the shade is
  // multiplied by its texel (a different texture is not drawn, with a warning).
  bool shadeTimesBaseTexture = false;
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
  PbrInputs pbr;
  ToonShading toon;  // the PBR look draws a toon material so, whatever `unlit` says
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
  std::vector<float> uvs1;            // 2 per vertex, texture set 1; empty when no texture reads it
  // 4 per vertex (xyz, w = bitangent sign), in the mesh's space, for the
  // normal maps: the file's TANGENT, else made by core::mikkTangents from the
  // coordinates the map is read with; empty when no material has a normal map.
  std::vector<float> tangents;

  bool empty() const { return sections.empty(); }
  std::size_t bytes() const;
};

}  // namespace riglens::core
