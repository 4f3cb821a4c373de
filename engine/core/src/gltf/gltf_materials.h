// Reading a glTF model's materials for the flattened mesh (glb_reader.cpp):
// each material once, its base colour image decoded once (stb_image, from
// Debian's libstb) and only when a material draws with it, and per primitive
// the texture coordinates that image reads, KHR_texture_transform applied.
// Private to engine/core.
#pragma once

#include <tiny_gltf.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gltf/gltf_accessor_reader.h"
#include "riglens/core/base/diagnostic.h"
#include "riglens/core/gltf/mesh_materials.h"

namespace riglens::core {

// tinygltf's image callback: keeps the encoded bytes (as_is), decoded later
// only for the images a material draws with.
bool keepEncodedImage(tinygltf::Image* image, const int, std::string*, std::string*, int, int,
                      const unsigned char* bytes, int size, void*);

class MaterialReader {
 public:
  // Every image decoded here together stays under this many pixels; past it
  // a material draws untextured, with a warning (a small file may not make
  // the viewer allocate gigabytes).
  static constexpr std::size_t kPixelBudget = std::size_t(1) << 27;  // 128 M pixels, 512 MB of RGBA
  static constexpr int kMaxImageSide = 16384;

  MaterialReader(const tinygltf::Model& model, std::string_view source, Diagnostics& warnings);

  // The MeshMaterials index of a primitive's material (-1 or past the end: the default).
  int material(int gltfMaterial);

  // Appends one section and, when its material is textured (or earlier
  // primitives were), `vertexCount` texture coordinates.
  Expected<void> addPrimitive(const tinygltf::Primitive& prim, const std::string& where, std::size_t firstVertex,
                              std::size_t vertexCount, std::size_t firstIndex, std::size_t indexCount, int node,
                              const AccessorReader& reader);

  MeshMaterials take() { return std::move(m_out); }

 private:
  int image(int textureIndex, const std::string& pointer, TextureSampler& sampler);
  // Where a material's textures read their coordinates (MaterialTexture).
  struct UvSets {
    int primary = -1;    // TEXCOORD_n of set 0 (-1: nothing is textured)
    int secondary = -1;  // of set 1 (-1: none)
    double primaryTransform[6] = {1, 0, 0, 0, 1, 0};
  };
  void readPbr(const tinygltf::Material& m, const std::string& pointer, MeshMaterial& out, UvSets& sets);
  void honouredExtensions(const tinygltf::Material& m, const std::string& pointer, PbrInputs& pbr);
  Expected<void> appendUvs(const tinygltf::Primitive& prim, const std::string& where, int texCoord,
                           const double transform[6], std::size_t firstVertex, std::size_t vertexCount,
                           const AccessorReader& reader, std::vector<float>& out);

  const tinygltf::Model& m_model;
  std::string_view m_source;
  Diagnostics& m_warnings;
  MeshMaterials m_out;
  std::vector<int> m_materialIndex;  // per glTF material (-2: not yet converted)
  std::vector<UvSets> m_uvSets;      // per MeshMaterials material
  std::vector<int> m_imageIndex;     // per glTF image (-2: not yet decoded, -1: could not be)
  int m_default = -1;
  std::size_t m_pixels = 0;
  std::set<std::string, std::less<>> m_approximated;  // KHR_materials_* warned about already
};

}  // namespace riglens::core
