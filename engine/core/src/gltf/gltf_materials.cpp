#include "gltf/gltf_materials.h"

#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "gltf/toon_material.h"

namespace riglens::core {

std::size_t MeshMaterials::bytes() const {
  std::size_t total = (uvs.size() + uvs1.size() + tangents.size()) * sizeof(float) +
                      sections.size() * sizeof(MeshSection) + materials.size() * sizeof(MeshMaterial);
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
  // The map as two rows of an affine 2x3 matrix.
  void rows(double out[6]) const {
    const double c = std::cos(rotation), s = std::sin(rotation);
    const double r[6] = {c * scale[0], s * scale[1], offset[0], -s * scale[0], c * scale[1], offset[1]};
    std::copy(r, r + 6, out);
  }
};

// Affine 2x3 maps (rows): a after b, and the inverse (false when singular:
// a texture transform that scales by ~1e-6 or less on both axes, which maps
// a whole texture into less than a texel of any real image).
constexpr double kSingularDeterminant = 1e-12;
void composeAffine(const double a[6], const double b[6], double out[6]) {
  const double r[6] = {a[0] * b[0] + a[1] * b[3], a[0] * b[1] + a[1] * b[4], a[0] * b[2] + a[1] * b[5] + a[2],
                       a[3] * b[0] + a[4] * b[3], a[3] * b[1] + a[4] * b[4], a[3] * b[2] + a[4] * b[5] + a[5]};
  std::copy(r, r + 6, out);
}
bool invertAffine(const double m[6], double out[6]) {
  const double det = m[0] * m[4] - m[1] * m[3];
  if (!std::isfinite(det) || std::abs(det) < kSingularDeterminant) return false;
  const double a = m[4] / det, b = -m[1] / det, c = -m[3] / det, d = m[0] / det;
  const double r[6] = {a, b, -(a * m[2] + b * m[5]), c, d, -(c * m[2] + d * m[5])};
  std::copy(r, r + 6, out);
  return true;
}

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

// Any of tinygltf's texture references (TextureInfo, NormalTextureInfo,
// OcclusionTextureInfo): they share index, texCoord and extensions.
template <class Info>
UvTransform uvTransformOf(const Info& info) {
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
      m_uvSets.push_back({});  // untextured
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
  const auto& base = m.pbrMetallicRoughness.baseColorTexture;
  if (base.index >= 0) out.image = image(base.index, pointer + "/pbrMetallicRoughness/baseColorTexture", out.sampler);
  UvSets sets;
  readPbr(m, pointer, out, sets);
  const ToonReading toon = readToonShading(m_model, gltfMaterial);
  out.toon = toon.toon;
  if (toon.shadeTextureDropped && m_approximated.insert("MToon shade texture").second)
    m_warnings.push_back({std::string(m_source), pointer,
                          "MToon's shade texture is not the base colour's: the shade is drawn without it "
                          "(approximated)"});
  index = static_cast<int>(m_out.materials.size());
  m_out.materials.push_back(std::move(out));
  m_uvSets.push_back(sets);
  return index;
}

namespace {

double finiteOr(double value, double fallback, double lo, double hi) {
  return std::isfinite(value) ? std::clamp(value, lo, hi) : fallback;
}

// A number in an extension object, clamped; `fallback` when absent or not a number.
double extensionNumber(const tinygltf::Value& ext, const char* key, double fallback, double lo, double hi) {
  if (!ext.IsObject() || !ext.Has(key) || !ext.Get(key).IsNumber()) return fallback;
  return finiteOr(ext.Get(key).GetNumberAsDouble(), fallback, lo, hi);
}

}  // namespace

void MaterialReader::honouredExtensions(const tinygltf::Material& m, const std::string& pointer, PbrInputs& pbr) {
  const auto ext = [&](const char* name) -> const tinygltf::Value* {
    const auto it = m.extensions.find(name);
    return it == m.extensions.end() ? nullptr : &it->second;
  };
  constexpr double kUnbounded = std::numeric_limits<double>::max();
  if (const auto* e = ext("KHR_materials_emissive_strength"))
    pbr.emissiveStrength = float(extensionNumber(*e, "emissiveStrength", 1.0, 0.0, kUnbounded));
  if (const auto* e = ext("KHR_materials_ior")) {
    // 0 is the extension's own "infinitely reflective" value; below 1 is not allowed.
    const double ior = extensionNumber(*e, "ior", 1.5, 0.0, kUnbounded);
    pbr.ior = float(ior == 0.0 || ior >= 1.0 ? ior : 1.5);
  }
  if (const auto* e = ext("KHR_materials_specular")) {
    pbr.specular = float(extensionNumber(*e, "specularFactor", 1.0, 0.0, 1.0));
    if (e->Has("specularColorFactor") && e->Get("specularColorFactor").IsArray() &&
        e->Get("specularColorFactor").ArrayLen() == 3)
      for (int c = 0; c < 3; ++c) {
        const tinygltf::Value& v = e->Get("specularColorFactor").Get(c);
        pbr.specularColor[c] = v.IsNumber() ? float(finiteOr(v.GetNumberAsDouble(), 1.0, 0.0, kUnbounded)) : 1.0f;
      }
    for (const char* texture : {"specularTexture", "specularColorTexture"})
      if (e->Has(texture) && m_approximated.insert(std::string("KHR_materials_specular/") + texture).second)
        m_warnings.push_back({std::string(m_source), pointer + "/extensions/KHR_materials_specular/" + texture,
                              std::string(texture) + " is not drawn: its factor alone is (approximated)"});
  }
  // Assimp's glTF exporter (our path for OBJ, FBX, COLLADA...) writes every
  // material twice, as metallic-roughness and as the archived
  // KHR_materials_pbrSpecularGlossiness with the same diffuse colour: the
  // base material is the whole of it, nothing to warn about.
  const bool assimp = m_model.asset.generator.rfind("Open Asset Import Library", 0) == 0;
  static const std::set<std::string, std::less<>> kHonoured = {"KHR_materials_unlit", "KHR_materials_emissive_strength",
                                                               "KHR_materials_ior", "KHR_materials_specular"};
  for (const auto& [name, value] : m.extensions)  // once per extension per file: a file repeats them per material
    if (name.rfind("KHR_materials_", 0) == 0 && !kHonoured.count(name) &&
        !(assimp && name == "KHR_materials_pbrSpecularGlossiness") && m_approximated.insert(name).second)
      m_warnings.push_back({std::string(m_source), pointer + "/extensions/" + name,
                            name + " is drawn as the base material (approximated)"});
}

void MaterialReader::readPbr(const tinygltf::Material& m, const std::string& pointer, MeshMaterial& out, UvSets& sets) {
  const auto& mr = m.pbrMetallicRoughness;
  PbrInputs& pbr = out.pbr;
  pbr.metallic = float(finiteOr(mr.metallicFactor, 1.0, 0.0, 1.0));
  pbr.roughness = float(finiteOr(mr.roughnessFactor, 1.0, 0.0, 1.0));
  constexpr double kNormalScaleBound = 1e6;  // any larger only overflows the float the shader gets
  pbr.normalScale = float(finiteOr(m.normalTexture.scale, 1.0, -kNormalScaleBound, kNormalScaleBound));
  pbr.occlusionStrength = float(finiteOr(m.occlusionTexture.strength, 1.0, 0.0, 1.0));
  if (m.emissiveFactor.size() == 3)
    for (int c = 0; c < 3; ++c)
      pbr.emissiveFactor[c] = float(finiteOr(m.emissiveFactor[std::size_t(c)], 0.0, 0.0, 1.0));
  honouredExtensions(m, pointer, pbr);

  const UvTransform baseTransform = uvTransformOf(mr.baseColorTexture);
  if (out.image >= 0) {
    sets.primary = baseTransform.texCoord;
    baseTransform.rows(sets.primaryTransform);
  }
  // The sets the other textures read: set 0 is the base colour's (else the
  // lowest they use), set 1 the lowest other one; a texture on a third set
  // reads set 0, with a warning.
  std::set<int> used;
  const auto note = [&](const auto& info) {
    if (info.index >= 0) used.insert(uvTransformOf(info).texCoord);
  };
  note(mr.metallicRoughnessTexture);
  note(m.normalTexture);
  note(m.occlusionTexture);
  note(m.emissiveTexture);
  if (sets.primary < 0 && !used.empty()) sets.primary = *used.begin();
  for (int texCoord : used)
    if (texCoord != sets.primary) {
      sets.secondary = texCoord;
      break;
    }
  const auto read = [&](const auto& info, const char* key, MaterialTexture& target) {
    if (info.index < 0) return;
    const std::string where = pointer + key;
    target.image = image(info.index, where, target.sampler);
    if (target.image < 0) return;
    const UvTransform t = uvTransformOf(info);
    double own[6];
    t.rows(own);
    double toOwn[6];
    std::copy(own, own + 6, toOwn);
    target.set = t.texCoord == sets.secondary ? 1 : 0;
    if (target.set == 0) {
      if (t.texCoord != sets.primary)
        m_warnings.push_back({std::string(m_source), where,
                              "a third texture coordinate set (TEXCOORD_" + std::to_string(t.texCoord) +
                                  ") is not drawn: read from TEXCOORD_" + std::to_string(sets.primary)});
      // Set 0 holds the primary coordinates with their transform applied: undo it first.
      double undo[6];
      if (invertAffine(sets.primaryTransform, undo))
        composeAffine(own, undo, toOwn);
      else
        m_warnings.push_back({std::string(m_source), where,
                              "the base colour's texture transform is singular: this texture reads its coordinates"});
    }
    for (int i = 0; i < 6; ++i) target.uvTransform[i] = float(toOwn[i]);
  };
  read(mr.metallicRoughnessTexture, "/pbrMetallicRoughness/metallicRoughnessTexture", pbr.metallicRoughness);
  read(m.normalTexture, "/normalTexture", pbr.normal);
  read(m.occlusionTexture, "/occlusionTexture", pbr.occlusion);
  read(m.emissiveTexture, "/emissiveTexture", pbr.emissive);
}

Expected<void> MaterialReader::addPrimitive(const tinygltf::Primitive& prim, const std::string& where,
                                            std::size_t firstVertex, std::size_t vertexCount, std::size_t firstIndex,
                                            std::size_t indexCount, int node, const AccessorReader& reader) {
  const int index = material(prim.material);
  if (firstIndex > std::numeric_limits<std::uint32_t>::max() ||
      indexCount > std::numeric_limits<std::uint32_t>::max() - firstIndex)
    return gltfRefusal(m_source, where + ": more indices than a 32-bit index can reach");
  m_out.sections.push_back({std::uint32_t(firstIndex), std::uint32_t(indexCount), index, node});
  const UvSets& sets = m_uvSets[std::size_t(index)];
  const auto pad = [&](std::vector<float>& uvs) {
    if (!uvs.empty()) uvs.resize((firstVertex + vertexCount) * 2, 0.0f);
  };
  if (sets.primary < 0) {
    pad(m_out.uvs);
    pad(m_out.uvs1);
    return {};
  }
  if (auto ok =
          appendUvs(prim, where, sets.primary, sets.primaryTransform, firstVertex, vertexCount, reader, m_out.uvs);
      !ok)
    return ok;
  if (sets.secondary < 0) {
    pad(m_out.uvs1);
    return {};
  }
  static constexpr double kIdentity[6] = {1, 0, 0, 0, 1, 0};
  return appendUvs(prim, where, sets.secondary, kIdentity, firstVertex, vertexCount, reader, m_out.uvs1);
}

Expected<void> MaterialReader::appendUvs(const tinygltf::Primitive& prim, const std::string& where, int texCoord,
                                         const double transform[6], std::size_t firstVertex, std::size_t vertexCount,
                                         const AccessorReader& reader, std::vector<float>& out) {
  out.resize(firstVertex * 2, 0.0f);  // earlier primitives, untextured
  const std::string name = "TEXCOORD_" + std::to_string(texCoord);
  const auto it = prim.attributes.find(name);
  if (it == prim.attributes.end()) {
    m_warnings.push_back({std::string(m_source), "/materials/" + std::to_string(prim.material),
                          where + " has no " + name + " for its textures: drawn with their first texel"});
    out.resize((firstVertex + vertexCount) * 2, 0.0f);
    return {};
  }
  int comps = 0;
  auto uv = reader.read<float>(it->second, where + " " + name, &comps);
  if (!uv) return uv.error();
  if (comps != 2 || uv->size() != vertexCount * 2)
    return gltfRefusal(m_source, where + " " + name + ": expected one VEC2 per vertex");
  for (std::size_t v = 0; v < vertexCount; ++v) {
    const double u = (*uv)[v * 2], w = (*uv)[v * 2 + 1];
    const double tu = transform[0] * u + transform[1] * w + transform[2];
    const double tw = transform[3] * u + transform[4] * w + transform[5];
    out.push_back(std::isfinite(tu) ? float(tu) : 0.0f);
    out.push_back(std::isfinite(tw) ? float(tw) : 0.0f);
  }
  return {};
}

}  // namespace riglens::core
