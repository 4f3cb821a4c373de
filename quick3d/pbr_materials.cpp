#include "pbr_materials.h"

#include <QtQuick3D/private/qquick3dprincipledmaterial_p.h>
#include <QtQuick3D/private/qquick3dtexture_p.h>

#include <QtQuick3D/QQuick3DTextureData>
#include <algorithm>
#include <cmath>

#include "object_setup.h"
#include "riglens/core/gltf/mesh_materials.h"

namespace riglens::quick3d {
namespace {

QQuick3DTexture::TilingMode tiling(core::TextureWrap wrap) {
  switch (wrap) {
    case core::TextureWrap::ClampToEdge: return QQuick3DTexture::ClampToEdge;
    case core::TextureWrap::MirroredRepeat: return QQuick3DTexture::MirroredRepeat;
    case core::TextureWrap::Repeat: break;
  }
  return QQuick3DTexture::Repeat;
}

// The file's images as Qt texture data, made on first use and shared by
// every texture that reads them.
class ImageCache {
 public:
  ImageCache(const core::MeshMaterials& materials, QQuick3DObject* parent)
      : m_images(materials.images), m_parent(parent), m_data(materials.images.size(), nullptr) {}

  QQuick3DTextureData* data(int image) {
    if (image < 0 || std::size_t(image) >= m_images.size()) return nullptr;
    QQuick3DTextureData*& data = m_data[std::size_t(image)];
    const core::TextureImage& source = m_images[std::size_t(image)];
    if (data || source.width <= 0 || source.height <= 0 ||
        source.rgba.size() != std::size_t(source.width) * std::size_t(source.height) * 4)
      return data;
    data = new QQuick3DTextureData(m_parent);
    data->setSize(QSize(source.width, source.height));
    data->setFormat(QQuick3DTextureData::RGBA8);
    data->setTextureData(QByteArray(reinterpret_cast<const char*>(source.rgba.data()), qsizetype(source.rgba.size())));
    bool translucent = false;
    for (std::size_t i = 3; i < source.rgba.size() && !translucent; i += 4) translucent = source.rgba[i] != 255;
    data->setHasTransparency(translucent);
    return completed(data);
  }

  // A texture reading `image` with `sampler` from coordinate set `set`
  // (0: the geometry's first, 1: its second); null without an image.
  QQuick3DTexture* texture(int image, const core::TextureSampler& sampler, int set) {
    QQuick3DTextureData* source = data(image);
    if (!source) return nullptr;
    auto* texture = new QQuick3DTexture(m_parent);
    texture->setTextureData(source);
    texture->setIndexUV(set == 1 ? 1 : 0);
    texture->setHorizontalTiling(tiling(sampler.wrapS));
    texture->setVerticalTiling(tiling(sampler.wrapT));
    texture->setMagFilter(sampler.magLinear ? QQuick3DTexture::Linear : QQuick3DTexture::Nearest);
    texture->setMinFilter(sampler.minLinear ? QQuick3DTexture::Linear : QQuick3DTexture::Nearest);
    texture->setGenerateMipmaps(sampler.mipmaps);
    texture->setMipFilter(!sampler.mipmaps    ? QQuick3DTexture::None
                          : sampler.mipLinear ? QQuick3DTexture::Linear
                                              : QQuick3DTexture::Nearest);
    return completed(texture);
  }
  QQuick3DTexture* texture(const core::MaterialTexture& t) { return texture(t.image, t.sampler, t.set); }

 private:
  const std::vector<core::TextureImage>& m_images;
  QQuick3DObject* m_parent;
  std::vector<QQuick3DTextureData*> m_data;
};

QQuick3DPrincipledMaterial::AlphaMode alphaMode(core::AlphaMode mode) {
  switch (mode) {
    case core::AlphaMode::Mask: return QQuick3DPrincipledMaterial::Mask;
    case core::AlphaMode::Blend: return QQuick3DPrincipledMaterial::Blend;
    case core::AlphaMode::Opaque: break;
  }
  return QQuick3DPrincipledMaterial::Opaque;
}

// The base colour, alpha and sidedness: what every look of the material has.
void setSurface(QQuick3DPrincipledMaterial* m, const core::MeshMaterial& material, ImageCache& images) {
  // White: the factor's rgb is in the vertex colours, which Qt multiplies in.
  m->setBaseColor(QColor::fromRgbF(1.0f, 1.0f, 1.0f, std::clamp(material.alphaFactor, 0.0f, 1.0f)));
  m->setBaseColorMap(images.texture(material.image, material.sampler, 0));
  m->setAlphaMode(alphaMode(material.alphaMode));
  m->setAlphaCutoff(material.alphaCutoff);
  m->setCullMode(material.doubleSided ? QQuick3DMaterial::NoCulling : QQuick3DMaterial::BackFaceCulling);
  m->setLighting(material.unlit ? QQuick3DPrincipledMaterial::NoLighting
                                : QQuick3DPrincipledMaterial::FragmentLighting);
}

void setMetalRoughness(QQuick3DPrincipledMaterial* m, const core::PbrInputs& pbr, ImageCache& images) {
  m->setMetalness(std::clamp(pbr.metallic, 0.0f, 1.0f));
  m->setRoughness(std::clamp(pbr.roughness, 0.0f, 1.0f));
  if (QQuick3DTexture* packed = images.texture(pbr.metallicRoughness)) {
    m->setMetalnessMap(packed);
    m->setMetalnessChannel(QQuick3DMaterial::B);
    m->setRoughnessMap(packed);
    m->setRoughnessChannel(QQuick3DMaterial::G);
  }
  m->setIndexOfRefraction(pbr.ior);
}

void setNormalOcclusionEmission(QQuick3DPrincipledMaterial* m, const core::PbrInputs& pbr, ImageCache& images) {
  if (QQuick3DTexture* normal = images.texture(pbr.normal)) {
    m->setNormalMap(normal);
    m->setNormalStrength(pbr.normalScale);
  }
  if (QQuick3DTexture* occlusion = images.texture(pbr.occlusion)) {
    m->setOcclusionMap(occlusion);
    m->setOcclusionChannel(QQuick3DMaterial::R);
    m->setOcclusionAmount(pbr.occlusionStrength);
  }
  const float s = pbr.emissiveStrength;
  m->setEmissiveFactor(QVector3D(pbr.emissiveFactor[0] * s, pbr.emissiveFactor[1] * s, pbr.emissiveFactor[2] * s));
  m->setEmissiveMap(images.texture(pbr.emissive));
}

}  // namespace

std::vector<QQuick3DPrincipledMaterial*> makePbrMaterials(const core::MeshMaterials& materials,
                                                          QQuick3DObject* parent) {
  ImageCache images(materials, parent);
  const std::vector<core::MeshMaterial> fallback(1);
  const auto& list = materials.materials.empty() ? fallback : materials.materials;
  std::vector<QQuick3DPrincipledMaterial*> made;
  made.reserve(list.size());
  for (const core::MeshMaterial& material : list) {
    auto* m = new QQuick3DPrincipledMaterial(parent);
    m->setObjectName(QString::fromStdString(material.name));
    setSurface(m, material, images);
    setMetalRoughness(m, material.pbr, images);
    setNormalOcclusionEmission(m, material.pbr, images);
    made.push_back(completed(m));
  }
  return made;
}

}  // namespace riglens::quick3d
