// glTF files for the PBR look's tests, written with tinygltf:
//
//   makePbrQuads     flat 1 x 1 quads facing +z in a row (quad i spans
//                    x = 1.2 i .. 1.2 i + 1, y = 0 .. 1, z = 0), one
//                    metallic-roughness material each (PbrQuad), so every
//                    pixel of a quad has the same normal and material and
//                    its expected colour follows from the camera and lights.
//   makePbrSpheres   UV spheres of radius 0.5: a row of dielectrics and a row
//                    of metals from smooth to rough, and a third row with a
//                    normal map (a bump pattern), occlusion and emission, to
//                    look at.
#pragma once

#include <QtGui/QImage>
#include <cmath>
#include <vector>

#include "gltf_builder.h"
#include "gltf_material_fixture.h"  // addPngTexture

namespace riglens::test {

struct PbrQuad {
  double base[3] = {0.8, 0.8, 0.8};
  double metallic = 0, roughness = 0.5;
  double emissive[3] = {0, 0, 0};
  double emissiveStrength = 1;  // KHR_materials_emissive_strength when not 1
  double ior = 1.5;             // KHR_materials_ior when not 1.5
  double specular = 1;          // KHR_materials_specular when not 1 or the colour is not white
  double specularColor[3] = {1, 1, 1};
  // VRM 1.0's MToon (VRMC_materials_mtoon) with these factors, and
  // KHR_materials_unlit beside it as UniVRM's fallback writes it (the toon
  // shading must win): the base colour is its lit colour.
  bool toon = false;
  double shade[3] = {0, 0, 0};
  double shadingShift = 0, shadingToony = 0.9;
};

inline constexpr float kPbrQuadPitch = 1.2f;

namespace detail {

inline tinygltf::Value numbers(std::initializer_list<double> values) {
  tinygltf::Value::Array out;
  for (double v : values) out.emplace_back(v);
  return tinygltf::Value(out);
}

inline tinygltf::Material pbrMaterial(const PbrQuad& q) {
  tinygltf::Material m;
  m.pbrMetallicRoughness.baseColorFactor = {q.base[0], q.base[1], q.base[2], 1.0};
  m.pbrMetallicRoughness.metallicFactor = q.metallic;
  m.pbrMetallicRoughness.roughnessFactor = q.roughness;
  m.emissiveFactor = {q.emissive[0], q.emissive[1], q.emissive[2]};
  if (q.emissiveStrength != 1) {
    tinygltf::Value::Object e;
    e["emissiveStrength"] = tinygltf::Value(q.emissiveStrength);
    m.extensions["KHR_materials_emissive_strength"] = tinygltf::Value(e);
  }
  if (q.ior != 1.5) {
    tinygltf::Value::Object e;
    e["ior"] = tinygltf::Value(q.ior);
    m.extensions["KHR_materials_ior"] = tinygltf::Value(e);
  }
  if (q.specular != 1 || q.specularColor[0] != 1 || q.specularColor[1] != 1 || q.specularColor[2] != 1) {
    tinygltf::Value::Object e;
    e["specularFactor"] = tinygltf::Value(q.specular);
    e["specularColorFactor"] = numbers({q.specularColor[0], q.specularColor[1], q.specularColor[2]});
    m.extensions["KHR_materials_specular"] = tinygltf::Value(e);
  }
  if (q.toon) {
    tinygltf::Value::Object e;
    e["specVersion"] = tinygltf::Value(std::string("1.0"));
    e["shadeColorFactor"] = numbers({q.shade[0], q.shade[1], q.shade[2]});
    e["shadingShiftFactor"] = tinygltf::Value(q.shadingShift);
    e["shadingToonyFactor"] = tinygltf::Value(q.shadingToony);
    m.extensions["VRMC_materials_mtoon"] = tinygltf::Value(e);
    m.extensions["KHR_materials_unlit"] = tinygltf::Value(tinygltf::Value::Object());
  }
  return m;
}

}  // namespace detail

inline GltfBuilder makePbrQuads(const std::vector<PbrQuad>& quads) {
  GltfBuilder b;
  b.model.extensionsUsed = {"KHR_materials_emissive_strength", "KHR_materials_ior", "KHR_materials_specular",
                            "KHR_materials_unlit", "VRMC_materials_mtoon"};
  for (std::size_t i = 0; i < quads.size(); ++i) {
    b.model.materials.push_back(detail::pbrMaterial(quads[i]));
    const float x0 = kPbrQuadPitch * float(i), x1 = x0 + 1.0f;
    const std::vector<float> positions = {x0, 0, 0, x1, 0, 0, x1, 1, 0, x0, 1, 0};
    const std::vector<float> normals = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    const std::vector<std::uint16_t> indices = {0, 1, 2, 0, 2, 3};
    b.primitive({{"POSITION", b.positionData(positions)},
                 {"NORMAL", b.data(normals, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)}},
                b.data(indices, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_SCALAR));
    b.model.meshes[0].primitives.back().material = int(i);
  }
  return b;
}

// makePbrQuads(quads) with a white 2 x 2 texture in every slot that only
// scales its factor (base colour, metallic-roughness, occlusion, emission)
// and texture coordinates on each quad: the same colours drawn through the
// textured materials' pipeline (white sRGB and linear texels are exactly 1).
inline GltfBuilder makeWhiteTexturedPbrQuads(const std::vector<PbrQuad>& quads) {
  GltfBuilder b = makePbrQuads(quads);
  QImage white(2, 2, QImage::Format_RGBA8888);
  white.fill(Qt::white);
  const int texture = addPngTexture(b, white);
  for (tinygltf::Material& m : b.model.materials) {
    m.pbrMetallicRoughness.baseColorTexture.index = texture;
    m.pbrMetallicRoughness.metallicRoughnessTexture.index = texture;
    m.occlusionTexture.index = texture;
    m.emissiveTexture.index = texture;
  }
  const std::vector<float> uvs = {0, 1, 1, 1, 1, 0, 0, 0};
  for (tinygltf::Primitive& p : b.model.meshes[0].primitives)
    p.attributes["TEXCOORD_0"] = b.data(uvs, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2);
  return b;
}

// The normal-mapped quads: three white dielectric quads placed as
// makePbrQuads places them, all reading one constant normal map texel
// `mapped` (tangent space, unit), with texture coordinates u = x, v = 1 - y
// on the first (the usual), u mirrored on the second (so its tangent turns
// round and its sign flips) — neither with TANGENT, so the reader makes them
// — and on the third the usual coordinates with the file's own TANGENT of
// +y, sign +1 (not what MikkTSpace would make), which the renderer must use.
inline GltfBuilder makeNormalMappedQuads(const unsigned char mapped[3]) {
  GltfBuilder b;
  QImage normal(4, 4, QImage::Format_RGBA8888);
  normal.fill(QColor(mapped[0], mapped[1], mapped[2]));
  const int texture = addPngTexture(b, normal);
  PbrQuad white;
  white.base[0] = white.base[1] = white.base[2] = 0.9, white.roughness = 0.4;
  tinygltf::Material m = detail::pbrMaterial(white);
  m.normalTexture.index = texture;
  b.model.materials.push_back(m);
  for (int q = 0; q < 3; ++q) {
    const float x0 = kPbrQuadPitch * float(q), x1 = x0 + 1.0f;
    const std::vector<float> positions = {x0, 0, 0, x1, 0, 0, x1, 1, 0, x0, 1, 0};
    const std::vector<float> normals = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    const std::vector<float> uvs =
        q == 1 ? std::vector<float>{1, 1, 0, 1, 0, 0, 1, 0} : std::vector<float>{0, 1, 1, 1, 1, 0, 0, 0};
    const std::vector<std::uint16_t> indices = {0, 1, 2, 0, 2, 3};
    std::map<std::string, int> attributes = {
        {"POSITION", b.positionData(positions)},
        {"NORMAL", b.data(normals, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)},
        {"TEXCOORD_0", b.data(uvs, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2)}};
    if (q == 2) {
      const std::vector<float> tangents = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
      attributes["TANGENT"] = b.data(tangents, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4);
    }
    b.primitive(attributes, b.data(indices, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_SCALAR));
    b.model.meshes[0].primitives.back().material = 0;
  }
  return b;
}

// Quads whose colour on screen owes nothing to the lights, placed as
// makePbrQuads places them: quad 0 unlit (KHR_materials_unlit) with a base
// colour texture whose upper half is `upper` and lower half `lower` (sRGB
// texels; u = x, v = 1 - y, so the image's top row is the quad's top), then
// one black metal per entry of `glows` with that emissive factor and
// strength (a black metal reflects nothing: F0 is its base colour).
struct Glow {
  double emissive[3];
  double strength;
};
inline GltfBuilder makeUnlitAndGlowingQuads(QColor upper, QColor lower, const std::vector<Glow>& glows) {
  std::vector<PbrQuad> quads(1 + glows.size());
  for (std::size_t g = 0; g < glows.size(); ++g) {
    PbrQuad& q = quads[g + 1];
    q.base[0] = q.base[1] = q.base[2] = 0, q.metallic = 1, q.roughness = 1;
    for (int c = 0; c < 3; ++c) q.emissive[c] = glows[g].emissive[c];
    q.emissiveStrength = glows[g].strength;
  }
  GltfBuilder b = makePbrQuads(quads);
  QImage halves(4, 4, QImage::Format_RGBA8888);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) halves.setPixelColor(x, y, y < 2 ? upper : lower);
  tinygltf::Material& unlit = b.model.materials[0];
  unlit.pbrMetallicRoughness.baseColorFactor = {1, 1, 1, 1};
  unlit.pbrMetallicRoughness.baseColorTexture.index = addPngTexture(b, halves);
  unlit.extensions["KHR_materials_unlit"] = tinygltf::Value(tinygltf::Value::Object{});
  b.model.extensionsUsed.push_back("KHR_materials_unlit");
  const std::vector<float> uvs = {0, 1, 1, 1, 1, 0, 0, 0};
  b.model.meshes[0].primitives[0].attributes["TEXCOORD_0"] =
      b.data(uvs, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2);
  return b;
}

// A UV sphere's primitive (radius 0.5 about `centre`), with texture coordinates.
inline void addSphere(GltfBuilder& b, float cx, float cy, int material) {
  constexpr int kSlices = 48, kStacks = 32;
  constexpr double kPi = 3.14159265358979323846;
  std::vector<float> positions, normals, uvs;
  std::vector<std::uint16_t> indices;
  for (int j = 0; j <= kStacks; ++j)
    for (int i = 0; i <= kSlices; ++i) {
      const double u = double(i) / kSlices, v = double(j) / kStacks;
      const double theta = u * 2 * kPi, phi = v * kPi;
      const double nx = std::sin(phi) * std::sin(theta), ny = std::cos(phi), nz = std::sin(phi) * std::cos(theta);
      positions.insert(positions.end(), {cx + 0.5f * float(nx), cy + 0.5f * float(ny), 0.5f * float(nz)});
      normals.insert(normals.end(), {float(nx), float(ny), float(nz)});
      uvs.insert(uvs.end(), {float(u), float(v)});
    }
  for (int j = 0; j < kStacks; ++j)
    for (int i = 0; i < kSlices; ++i) {
      const auto a = std::uint16_t(j * (kSlices + 1) + i), c = std::uint16_t(a + kSlices + 1);
      indices.insert(indices.end(), {a, c, std::uint16_t(a + 1), std::uint16_t(a + 1), c, std::uint16_t(c + 1)});
    }
  b.primitive({{"POSITION", b.positionData(positions)},
               {"NORMAL", b.data(normals, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3)},
               {"TEXCOORD_0", b.data(uvs, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2)}},
              b.data(indices, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_SCALAR));
  b.model.meshes[0].primitives.back().material = material;
}

inline GltfBuilder makePbrSpheres() {
  GltfBuilder b;
  constexpr double kRoughness[] = {0.05, 0.25, 0.5, 0.75, 1.0};
  for (int row = 0; row < 2; ++row)
    for (int col = 0; col < 5; ++col) {
      PbrQuad q;
      q.base[0] = row ? 0.95 : 0.8, q.base[1] = row ? 0.64 : 0.1, q.base[2] = row ? 0.54 : 0.1;  // copper, red
      q.metallic = row;
      q.roughness = kRoughness[col];
      b.model.materials.push_back(detail::pbrMaterial(q));
      addSphere(b, 1.2f * float(col), 1.2f * float(1 - row) + 1.2f, int(b.model.materials.size()) - 1);
    }
  // Row 3: bumps (a normal map of hemispherical dimples), occlusion darkening
  // the dimples, and an emissive stripe, on a white dielectric.
  constexpr int kSide = 64;
  QImage normal(kSide, kSide, QImage::Format_RGBA8888), occlusion(kSide, kSide, QImage::Format_RGBA8888),
      emissive(kSide, kSide, QImage::Format_RGBA8888);
  for (int y = 0; y < kSide; ++y)
    for (int x = 0; x < kSide; ++x) {
      const double dx = (x % 16 - 7.5) / 6.0, dy = (y % 16 - 7.5) / 6.0, r2 = dx * dx + dy * dy;
      const double z = r2 < 1 ? std::sqrt(1 - r2) : 1;
      const double nx = r2 < 1 ? dx : 0, ny = r2 < 1 ? dy : 0, nz = r2 < 1 ? z : 1;
      normal.setPixelColor(
          x, y, QColor(int((nx * 0.5 + 0.5) * 255), int((ny * 0.5 + 0.5) * 255), int((nz * 0.5 + 0.5) * 255)));
      const int ao = r2 < 1 ? int(255 * (0.4 + 0.6 * z)) : 255;
      occlusion.setPixelColor(x, y, QColor(ao, ao, ao));
      emissive.setPixelColor(x, y, (y / 8) % 4 == 0 ? QColor(255, 120, 20) : QColor(0, 0, 0));
    }
  for (const QImage* image : {&normal, &occlusion, &emissive}) addPngTexture(b, *image);
  for (int col = 0; col < 3; ++col) {
    PbrQuad q;
    q.base[0] = q.base[1] = q.base[2] = 0.9;
    q.roughness = 0.35;
    tinygltf::Material m = detail::pbrMaterial(q);
    if (col == 0) m.normalTexture.index = 0;
    if (col == 1) m.normalTexture.index = 0, m.occlusionTexture.index = 1;
    if (col == 2) m.emissiveTexture.index = 2, m.emissiveFactor = {1, 1, 1};
    b.model.materials.push_back(m);
    addSphere(b, 1.2f * float(col), 0.0f, int(b.model.materials.size()) - 1);
  }
  return b;
}

}  // namespace riglens::test
