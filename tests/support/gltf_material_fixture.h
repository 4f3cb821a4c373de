// A glTF file that uses every material feature the viewer draws, each on its
// own quad in a row facing +z (x from -3 to 3, y from 0 to 1.5):
//
//   checker  OPAQUE, single-sided: a 4x4 red/white PNG in the binary chunk,
//            NEAREST filters, REPEAT, KHR_texture_transform scale (2, 2) and
//            offset (0.25, 0): 8x8 squares shifted by half of one of them
//   leaf     MASK (cutoff 0.5), double-sided: a 2x1 PNG, its left texel
//            transparent, its right green; TEXCOORD_1 through the
//            transform's texCoord override (TEXCOORD_0 would show nothing);
//            baseColorFactor alpha 1
//   glass    BLEND, untextured, baseColorFactor (0.2, 0.4, 1, 0.5), in front
//            of the checker's right half (z = 0.5)
//   unlit    KHR_materials_unlit, baseColorFactor (1, 0.5, 0, 1)
//   back     OPAQUE, single-sided, cyan, wound to face -z: culled from the front
//
// Images are PNGs written with Qt (an independent encoder from the stb_image
// the viewer decodes with).
#pragma once

#include <QtCore/QBuffer>
#include <QtGui/QImage>
#include <array>

#include "gltf_builder.h"

namespace riglens::test {

inline std::vector<std::uint8_t> pngBytes(const QImage& image) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  image.save(&buffer, "PNG");
  return {bytes.begin(), bytes.end()};
}

// `image` stored in the GLB's buffer as a PNG, and a texture of it (no
// sampler: glTF's defaults); returns the texture's index.
inline int addPngTexture(GltfBuilder& b, const QImage& image) {
  const auto png = pngBytes(image);
  tinygltf::Image gltfImage;
  gltfImage.bufferView = b.view(png.data(), png.size());
  gltfImage.mimeType = "image/png";
  b.model.images.push_back(gltfImage);
  tinygltf::Texture texture;
  texture.source = int(b.model.images.size()) - 1;
  b.model.textures.push_back(texture);
  return int(b.model.textures.size()) - 1;
}

struct MaterialQuad {
  const char* name;
  float x0, x1, z;
  bool facesBack;
};
inline constexpr std::array<MaterialQuad, 5> kMaterialQuads = {{{"checker", -3.0f, -1.0f, 0.0f, false},
                                                                {"leaf", -0.8f, 0.4f, 0.0f, false},
                                                                {"glass", -1.6f, -0.4f, 0.5f, false},
                                                                {"unlit", 0.6f, 1.8f, 0.0f, false},
                                                                {"back", 2.0f, 3.0f, 0.0f, true}}};

inline GltfBuilder makeMaterialShowcase() {
  GltfBuilder b;
  tinygltf::Mesh mesh;
  mesh.name = "showcase";
  // Images and textures: the checker and the leaf.
  QImage checker(4, 4, QImage::Format_RGBA8888);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) checker.setPixelColor(x, y, (x + y) % 2 ? QColor(220, 30, 30) : QColor(255, 255, 255));
  QImage leaf(2, 1, QImage::Format_RGBA8888);
  leaf.setPixelColor(0, 0, QColor(255, 0, 255, 0));
  leaf.setPixelColor(1, 0, QColor(40, 200, 60, 255));
  for (const QImage* image : {&checker, &leaf}) {
    const auto png = pngBytes(*image);
    tinygltf::Image gltfImage;
    gltfImage.bufferView = b.view(png.data(), png.size());
    gltfImage.mimeType = "image/png";
    gltfImage.name = image == &checker ? "checker.png" : "leaf.png";
    b.model.images.push_back(gltfImage);
  }
  tinygltf::Sampler nearest;
  nearest.magFilter = TINYGLTF_TEXTURE_FILTER_NEAREST;
  nearest.minFilter = TINYGLTF_TEXTURE_FILTER_NEAREST;
  b.model.samplers.push_back(nearest);
  for (int i = 0; i < 2; ++i) {
    tinygltf::Texture texture;
    texture.source = i;
    texture.sampler = 0;
    b.model.textures.push_back(texture);
  }
  const auto material = [&](const char* name, std::vector<double> factor) {
    tinygltf::Material m;
    m.name = name;
    m.pbrMetallicRoughness.baseColorFactor = std::move(factor);
    b.model.materials.push_back(m);
    return &b.model.materials.back();
  };
  {
    auto* m = material("checker", {1, 1, 1, 1});
    m->pbrMetallicRoughness.baseColorTexture.index = 0;
    tinygltf::Value::Object transform;
    transform["scale"] = tinygltf::Value(tinygltf::Value::Array{tinygltf::Value(2.0), tinygltf::Value(2.0)});
    transform["offset"] = tinygltf::Value(tinygltf::Value::Array{tinygltf::Value(0.25), tinygltf::Value(0.0)});
    m->pbrMetallicRoughness.baseColorTexture.extensions["KHR_texture_transform"] = tinygltf::Value(transform);
  }
  {
    auto* m = material("leaf", {1, 1, 1, 1});
    m->alphaMode = "MASK";
    m->alphaCutoff = 0.5;
    m->doubleSided = true;
    m->pbrMetallicRoughness.baseColorTexture.index = 1;
    tinygltf::Value::Object transform;
    transform["texCoord"] = tinygltf::Value(1);
    m->pbrMetallicRoughness.baseColorTexture.extensions["KHR_texture_transform"] = tinygltf::Value(transform);
  }
  material("glass", {0.2, 0.4, 1.0, 0.5})->alphaMode = "BLEND";
  material("unlit", {1.0, 0.5, 0.0, 1.0})->extensions["KHR_materials_unlit"] =
      tinygltf::Value(tinygltf::Value::Object{});
  material("back", {0.0, 0.9, 0.9, 1.0});
  b.model.extensionsUsed = {"KHR_texture_transform", "KHR_materials_unlit"};

  for (std::size_t q = 0; q < kMaterialQuads.size(); ++q) {
    const MaterialQuad& quad = kMaterialQuads[q];
    const std::vector<float> positions = {quad.x0, 0.0f, quad.z, quad.x1, 0.0f, quad.z,
                                          quad.x1, 1.5f, quad.z, quad.x0, 1.5f, quad.z};
    const float nz = quad.facesBack ? -1.0f : 1.0f;
    const std::vector<float> normals = {0, 0, nz, 0, 0, nz, 0, 0, nz, 0, 0, nz};
    // glTF's UV origin is the image's top-left: v grows downwards.
    const std::vector<float> uvs = {0, 1, 1, 1, 1, 0, 0, 0};
    const std::vector<std::uint16_t> indices =
        quad.facesBack ? std::vector<std::uint16_t>{0, 2, 1, 0, 3, 2} : std::vector<std::uint16_t>{0, 1, 2, 0, 2, 3};
    tinygltf::Primitive p;
    p.attributes["POSITION"] = b.data(positions, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3);
    b.model.accessors.back().minValues = {quad.x0, 0.0, quad.z};  // glTF requires POSITION's bounds
    b.model.accessors.back().maxValues = {quad.x1, 1.5, quad.z};
    p.attributes["NORMAL"] = b.data(normals, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3);
    p.attributes["TEXCOORD_0"] = b.data(uvs, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2);
    if (quad.name == std::string("leaf")) {
      // Set 0 all at the transparent texel (read it and the leaf vanishes),
      // set 1 the real mapping, which the transform's texCoord selects.
      p.attributes["TEXCOORD_0"] =
          b.data(std::vector<float>(8, 0.1f), TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2);
      p.attributes["TEXCOORD_1"] = b.data(uvs, TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC2);
    }
    p.indices = b.data(indices, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_SCALAR);
    p.material = static_cast<int>(q);
    p.mode = TINYGLTF_MODE_TRIANGLES;
    mesh.primitives.push_back(p);
  }
  b.model.meshes.push_back(mesh);
  tinygltf::Node node;
  node.mesh = 0;
  node.name = "showcase";
  b.model.nodes.push_back(node);
  tinygltf::Scene scene;
  scene.nodes = {0};
  b.model.scenes.push_back(scene);
  b.model.defaultScene = 0;
  return b;
}

}  // namespace riglens::test
