#include "gltf/gltf_materials.h"

#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace riglens::core {

std::size_t MeshMaterials::bytes() const {
  std::size_t total =
      uvs.size() * sizeof(float) + sections.size() * sizeof(MeshSection) + materials.size() * sizeof(MeshMaterial);
  for (const auto& image : images) total += image.rgba.size();
  return total;
}

bool keepEncodedImage(tinygltf::Image* image, const int, std::string*, std::string*, int, int,
                      const unsigned char* bytes, int size, void*) {
  image->as_is = true;
  image->image.assign(bytes, bytes + std::max(size, 0));
  return true;
}

namespace {

TextureWrap wrapOf(int mode) {
  switch (mode) {
    case TINYGLTF_TEXTURE_WRAP_CLAMP_TO_EDGE: return TextureWrap::ClampToEdge;
    case TINYGLTF_TEXTURE_WRAP_MIRRORED_REPEAT: return TextureWrap::MirroredRepeat;
    default: return TextureWrap::Repeat;
  }
}

TextureSampler samplerOf(const tinygltf::Sampler& s) {
  TextureSampler out;
  out.wrapS = wrapOf(s.wrapS);
  out.wrapT = wrapOf(s.wrapT);
  out.magLinear = s.magFilter != TINYGLTF_TEXTURE_FILTER_NEAREST;
  switch (s.minFilter) {
    case TINYGLTF_TEXTURE_FILTER_NEAREST: out.minLinear = false, out.mipmaps = false; break;
    case TINYGLTF_TEXTURE_FILTER_LINEAR: out.mipmaps = false; break;
    case TINYGLTF_TEXTURE_FILTER_NEAREST_MIPMAP_NEAREST: out.minLinear = false, out.mipLinear = false; break;
    case TINYGLTF_TEXTURE_FILTER_LINEAR_MIPMAP_NEAREST: out.mipLinear = false; break;
    case TINYGLTF_TEXTURE_FILTER_NEAREST_MIPMAP_LINEAR: out.minLinear = false; break;
    default: break;  // LINEAR_MIPMAP_LINEAR, or none given: the smoothest
  }
  return out;
}

// KHR_texture_transform on a texture reference: uv' = offset + R(rotation) *
// (scale * uv), R = [cos sin; -sin cos] as the extension writes it, and the
// set it may override.
struct UvTransform {
  double offset[2] = {0, 0}, scale[2] = {1, 1}, rotation = 0;
  int texCoord = 0;
  bool identity() const { return offset[0] == 0 && offset[1] == 0 && scale[0] == 1 && scale[1] == 1 && rotation == 0; }
};

// What glTF allows for images (PNG and JPEG, section 3.8.4) and what
// stb_image must not be shown: a PNG chunk whose length runs past the data
// (stb grows its buffer to the claimed length first: gigabytes from a few
// bytes), or more pixels than the bytes can encode (a deflate stream expands
// at most ~1032:1, a 1-bit PNG packs 8 pixels a byte; JPEG less). The
// problem, or empty when stb may decode it.
constexpr std::size_t kPixelsPerEncodedByte = 8 * 1032;

std::string encodedImageProblem(const std::uint8_t* bytes, std::size_t size) {
  static constexpr std::uint8_t kPng[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};
  const bool png = size >= 8 && std::equal(kPng, kPng + 8, bytes);
  const bool jpeg = size >= 3 && bytes[0] == 0xff && bytes[1] == 0xd8 && bytes[2] == 0xff;
  if (!png && !jpeg) return "the image is neither PNG nor JPEG (glTF's image formats)";
  if (!png) return {};
  for (std::size_t at = 8; at + 12 <= size;) {
    const std::size_t length = std::size_t(bytes[at]) << 24 | std::size_t(bytes[at + 1]) << 16 |
                               std::size_t(bytes[at + 2]) << 8 | std::size_t(bytes[at + 3]);
    if (length > size - at - 12)
      return "the PNG chunk at byte " + std::to_string(at) + " claims " + std::to_string(length) +
             " bytes, past the end of the image";
    if (std::equal(bytes + at + 4, bytes + at + 8, "IEND")) break;
    at += 12 + length;
  }
  return {};
}

UvTransform uvTransformOf(const tinygltf::TextureInfo& info) {
  UvTransform t;
  t.texCoord = info.texCoord;
  const auto ext = info.extensions.find("KHR_texture_transform");
  if (ext == info.extensions.end() || !ext->second.IsObject()) return t;
  const tinygltf::Value& v = ext->second;
  const auto pair = [&](const char* key, double out[2]) {
    if (!v.Has(key)) return;
    const tinygltf::Value& a = v.Get(key);
    if (!a.IsArray() || a.ArrayLen() != 2 || !a.Get(0).IsNumber() || !a.Get(1).IsNumber()) return;
    for (int i = 0; i < 2; ++i) out[i] = a.Get(i).GetNumberAsDouble();
  };
  pair("offset", t.offset);
  pair("scale", t.scale);
  if (v.Has("rotation") && v.Get("rotation").IsNumber()) t.rotation = v.Get("rotation").GetNumberAsDouble();
  if (v.Has("texCoord") && v.Get("texCoord").IsNumber()) t.texCoord = v.Get("texCoord").GetNumberAsInt();
  return t;
}

}  // namespace

MaterialReader::MaterialReader(const tinygltf::Model& model, std::string_view source, Diagnostics& warnings)
    : m_model(model),
      m_source(source),
      m_warnings(warnings),
      m_materialIndex(model.materials.size(), -2),
      m_imageIndex(model.images.size(), -2) {}

int MaterialReader::image(int textureIndex, const std::string& pointer, TextureSampler& sampler) {
  if (textureIndex < 0 || textureIndex >= static_cast<int>(m_model.textures.size())) {
    m_warnings.push_back({std::string(m_source), pointer,
                          "texture " + std::to_string(textureIndex) + " does not exist: drawn untextured"});
    return -1;
  }
  const auto& texture = m_model.textures[std::size_t(textureIndex)];
  if (texture.sampler >= 0 && texture.sampler < static_cast<int>(m_model.samplers.size()))
    sampler = samplerOf(m_model.samplers[std::size_t(texture.sampler)]);
  const int source = texture.source;
  if (source < 0 || source >= static_cast<int>(m_model.images.size())) {
    m_warnings.push_back({std::string(m_source), "/textures/" + std::to_string(textureIndex),
                          "the texture has no image RigLens can decode (PNG or JPEG): drawn untextured"});
    return -1;
  }
  int& index = m_imageIndex[std::size_t(source)];
  if (index != -2) return index;
  index = -1;
  const tinygltf::Image& image = m_model.images[std::size_t(source)];
  const std::string where = "/images/" + std::to_string(source);
  const auto untextured = [&](const std::string& why) {
    m_warnings.push_back({std::string(m_source), where, why + ": drawn untextured"});
    return -1;
  };
  if (image.image.empty() || image.image.size() > std::size_t(std::numeric_limits<int>::max()))
    return untextured("the image has no data");
  const auto* bytes = image.image.data();
  const int size = static_cast<int>(image.image.size());
  if (const std::string problem = encodedImageProblem(bytes, image.image.size()); !problem.empty())
    return untextured(problem);
  int width = 0, height = 0, channels = 0;
  if (!stbi_info_from_memory(bytes, size, &width, &height, &channels))
    return untextured(std::string("the image cannot be decoded (") + stbi_failure_reason() + ")");
  if (width <= 0 || height <= 0 || width > kMaxImageSide || height > kMaxImageSide)
    return untextured("the image is " + std::to_string(width) + "x" + std::to_string(height) + ", past " +
                      std::to_string(kMaxImageSide) + " pixels a side");
  const std::size_t pixels = std::size_t(width) * std::size_t(height);
  if (pixels > kPixelsPerEncodedByte * image.image.size())
    return untextured("the image claims " + std::to_string(width) + "x" + std::to_string(height) + " pixels from " +
                      std::to_string(image.image.size()) + " bytes, more than they can encode");
  if (pixels > kPixelBudget - std::min(kPixelBudget, m_pixels))
    return untextured("the model's images together pass " + std::to_string(kPixelBudget) + " pixels");
  stbi_uc* decoded = stbi_load_from_memory(bytes, size, &width, &height, &channels, 4);
  if (!decoded) return untextured(std::string("the image cannot be decoded (") + stbi_failure_reason() + ")");
  TextureImage out;
  out.name = image.name.empty() ? image.uri : image.name;
  out.width = width;
  out.height = height;
  out.rgba.assign(decoded, decoded + pixels * 4);
  stbi_image_free(decoded);
  m_pixels += pixels;
  index = static_cast<int>(m_out.images.size());
  m_out.images.push_back(std::move(out));
  return index;
}

int MaterialReader::material(int gltfMaterial) {
  if (gltfMaterial < 0 || gltfMaterial >= static_cast<int>(m_model.materials.size())) {
    if (m_default < 0) {
      m_default = static_cast<int>(m_out.materials.size());
      MeshMaterial fallback;
      // glTF's default material is single-sided, but the meshing binaries
      // write no material and their meshes draw both faces (the contract):
      // a material-less primitive keeps drawing as the voxel path does.
      fallback.name = "(default)";
      m_out.materials.push_back(fallback);
    }
    return m_default;
  }
  int& index = m_materialIndex[std::size_t(gltfMaterial)];
  if (index >= 0) return index;
  const tinygltf::Material& m = m_model.materials[std::size_t(gltfMaterial)];
  const std::string pointer = "/materials/" + std::to_string(gltfMaterial);
  MeshMaterial out;
  out.name = m.name;
  const auto& factor = m.pbrMetallicRoughness.baseColorFactor;
  if (factor.size() == 4 && std::isfinite(factor[3])) out.alphaFactor = float(std::clamp(factor[3], 0.0, 1.0));
  if (m.alphaMode == "MASK")
    out.alphaMode = AlphaMode::Mask;
  else if (m.alphaMode == "BLEND")
    out.alphaMode = AlphaMode::Blend;
  out.alphaCutoff = std::isfinite(m.alphaCutoff) ? float(m.alphaCutoff) : 0.5f;
  out.doubleSided = m.doubleSided;
  out.unlit = m.extensions.count("KHR_materials_unlit") > 0;
  // Assimp's glTF exporter (our path for OBJ, FBX, COLLADA...) writes every
  // material twice, as metallic-roughness and as the archived
  // KHR_materials_pbrSpecularGlossiness with the same diffuse colour: the
  // base material is the whole of it, nothing to warn about.
  const bool assimp = m_model.asset.generator.rfind("Open Asset Import Library", 0) == 0;
  for (const auto& [name, value] : m.extensions)  // once per extension per file: a file repeats them per material
    if (name.rfind("KHR_materials_", 0) == 0 && name != "KHR_materials_unlit" &&
        !(assimp && name == "KHR_materials_pbrSpecularGlossiness") && m_approximated.insert(name).second)
      m_warnings.push_back({std::string(m_source), pointer + "/extensions/" + name,
                            name + " is drawn as the base material (approximated)"});
  const auto& base = m.pbrMetallicRoughness.baseColorTexture;
  if (base.index >= 0) out.image = image(base.index, pointer + "/pbrMetallicRoughness/baseColorTexture", out.sampler);
  index = static_cast<int>(m_out.materials.size());
  m_out.materials.push_back(std::move(out));
  return index;
}

Expected<void> MaterialReader::addPrimitive(const tinygltf::Primitive& prim, const std::string& where,
                                            std::size_t firstVertex, std::size_t vertexCount, std::size_t firstIndex,
                                            std::size_t indexCount, int node, const AccessorReader& reader) {
  const int index = material(prim.material);
  if (firstIndex > std::numeric_limits<std::uint32_t>::max() ||
      indexCount > std::numeric_limits<std::uint32_t>::max() - firstIndex)
    return gltfRefusal(m_source, where + ": more indices than a 32-bit index can reach");
  m_out.sections.push_back({std::uint32_t(firstIndex), std::uint32_t(indexCount), index, node});
  const MeshMaterial& material = m_out.materials[std::size_t(index)];
  if (material.image < 0) {
    if (!m_out.uvs.empty()) m_out.uvs.resize((firstVertex + vertexCount) * 2, 0.0f);
    return {};
  }
  const UvTransform transform =
      uvTransformOf(m_model.materials[std::size_t(prim.material)].pbrMetallicRoughness.baseColorTexture);
  m_out.uvs.resize(firstVertex * 2, 0.0f);  // earlier primitives, untextured
  const std::string name = "TEXCOORD_" + std::to_string(transform.texCoord);
  const auto it = prim.attributes.find(name);
  if (it == prim.attributes.end()) {
    m_warnings.push_back({std::string(m_source), "/materials/" + std::to_string(prim.material),
                          where + " has no " + name + " for its base colour texture: drawn with its first texel"});
    m_out.uvs.resize((firstVertex + vertexCount) * 2, 0.0f);
    return {};
  }
  int comps = 0;
  auto uv = reader.read<float>(it->second, where + " " + name, &comps);
  if (!uv) return uv.error();
  if (comps != 2 || uv->size() != vertexCount * 2)
    return gltfRefusal(m_source, where + " " + name + ": expected one VEC2 per vertex");
  const double c = std::cos(transform.rotation), s = std::sin(transform.rotation);
  for (std::size_t v = 0; v < vertexCount; ++v) {
    double u = (*uv)[v * 2], w = (*uv)[v * 2 + 1];
    if (!transform.identity()) {
      const double su = u * transform.scale[0], sw = w * transform.scale[1];
      u = transform.offset[0] + c * su + s * sw;
      w = transform.offset[1] - s * su + c * sw;
    }
    m_out.uvs.push_back(std::isfinite(u) ? float(u) : 0.0f);
    m_out.uvs.push_back(std::isfinite(w) ? float(w) : 0.0f);
  }
  return {};
}

}  // namespace riglens::core
