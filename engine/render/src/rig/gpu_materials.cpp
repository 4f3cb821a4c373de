#include "rig/gpu_materials.h"

#include <QtGui/QImage>
#include <algorithm>
#include <cmath>
#include <iterator>

#include "device/gpu_layouts.h"

namespace riglens::render {

namespace {

QRhiSampler::AddressMode addressOf(core::TextureWrap wrap) {
  switch (wrap) {
    case core::TextureWrap::ClampToEdge: return QRhiSampler::ClampToEdge;
    case core::TextureWrap::MirroredRepeat: return QRhiSampler::Mirror;
    default: return QRhiSampler::Repeat;
  }
}

core::Error gpuError(const char* what) {
  return core::makeError(core::ErrorCode::Io, std::string("riglens::render: ") + what);
}

}  // namespace

GpuMaterials::GpuMaterials(QRhi* rhi, QRhiBuffer* frameBlock, QRhiBuffer* partSlots, int partBlockSize,
                           const GpuEnvironment* environment)
    : m_rhi(rhi),
      m_frameBlock(frameBlock),
      m_partSlots(partSlots),
      m_partBlockSize(partBlockSize),
      m_environment(environment) {}

QRhiTexture* GpuMaterials::texture(QRhiResourceUpdateBatch* batch, const std::vector<core::TextureImage>& images,
                                   const Slot& slot, bool mipmaps) {
  auto& cached = m_textures[{slot.image, slot.srgb, mipmaps}];
  if (cached) return cached.get();
  const core::TextureImage& image = images[std::size_t(slot.image)];
  QRhiTexture::Flags flags = slot.srgb ? QRhiTexture::sRGB : QRhiTexture::Flags();
  if (mipmaps) flags |= QRhiTexture::MipMapped | QRhiTexture::UsedWithGenerateMips;
  cached.reset(m_rhi->newTexture(QRhiTexture::RGBA8, QSize(image.width, image.height), 1, flags));
  if (!cached->create()) {
    cached.reset();
    return nullptr;
  }
  const QImage pixels(image.rgba.data(), image.width, image.height, image.width * 4, QImage::Format_RGBA8888);
  batch->uploadTexture(cached.get(), pixels);
  if (mipmaps) batch->generateMips(cached.get());
  m_textureBytes += image.rgba.size() * (mipmaps ? 4 : 3) / 3;
  return cached.get();
}

namespace {

// The block of a material; `textured` says which of its slots (base colour,
// then the PBR textures) have a texture on the GPU.
gpu::MaterialBlock materialBlock(const core::MeshMaterial& material, const bool textured[5]) {
  gpu::MaterialBlock block{};
  block.alpha = {material.alphaFactor, material.alphaMode == core::AlphaMode::Mask ? material.alphaCutoff : -1.0f,
                 material.alphaMode == core::AlphaMode::Blend ? 1.0f : 0.0f, 0.0f};
  block.flags = {textured[0] ? 1 : 0, material.unlit ? 1 : 0, 0, 0};
  const auto one = [](bool yes) { return yes ? 1.0f : 0.0f; };
  block.textures = {one(textured[1]), one(textured[2]), one(textured[3]), one(textured[4])};
  const core::PbrInputs& pbr = material.pbr;
  block.pbr = {pbr.metallic, pbr.roughness, pbr.normalScale, pbr.occlusionStrength};
  block.emissive = {pbr.emissiveFactor[0] * pbr.emissiveStrength, pbr.emissiveFactor[1] * pbr.emissiveStrength,
                    pbr.emissiveFactor[2] * pbr.emissiveStrength, 0.0f};
  block.specular = {pbr.specularColor[0], pbr.specularColor[1], pbr.specularColor[2], pbr.specular};
  block.ior = {pbr.ior, 0.0f, 0.0f, 0.0f};
  const core::MaterialTexture* textures[] = {&pbr.metallicRoughness, &pbr.normal, &pbr.occlusion, &pbr.emissive};
  float sets[4] = {};
  for (int t = 0; t < 4; ++t) {
    const core::MaterialTexture& texture = *textures[t];
    sets[t] = float(texture.set);
    const float* m = texture.uvTransform;
    block.uvRows[2 * t] = {m[0], m[1], m[2], 0.0f};
    block.uvRows[2 * t + 1] = {m[3], m[4], m[5], 0.0f};
  }
  block.sets = {sets[0], sets[1], sets[2], sets[3]};
  const core::ToonShading& toon = material.toon;
  block.toonShade = {toon.shadeColor[0], toon.shadeColor[1], toon.shadeColor[2], one(toon.shadeTimesBaseTexture)};
  block.toon = {one(toon.enabled), toon.shadingShift, toon.shadingToony, 0.0f};
  return block;
}

}  // namespace

core::Expected<GpuMaterial> GpuMaterials::make(QRhiResourceUpdateBatch* batch, const core::MeshMaterial& material,
                                               const std::vector<core::TextureImage>& images) {
  GpuMaterial out;
  out.alphaMode = material.alphaMode;
  out.doubleSided = material.doubleSided;
  const core::PbrInputs& pbr = material.pbr;
  const Slot bySlot[] = {{material.image, &material.sampler, true},
                         {pbr.metallicRoughness.image, &pbr.metallicRoughness.sampler, false},
                         {pbr.normal.image, &pbr.normal.sampler, false},
                         {pbr.occlusion.image, &pbr.occlusion.sampler, false},
                         {pbr.emissive.image, &pbr.emissive.sampler, true}};
  const int bindingOf[] = {gpu::kBaseColorBinding, gpu::kMetallicRoughnessBinding, gpu::kNormalBinding,
                           gpu::kOcclusionBinding, gpu::kEmissiveBinding};
  const auto filter = [](bool linear) { return linear ? QRhiSampler::Linear : QRhiSampler::Nearest; };
  const auto fragment = QRhiShaderResourceBinding::FragmentStage;
  QVector<QRhiShaderResourceBinding> textureBindings;
  bool textured[5] = {};
  for (int i = 0; i < 5; ++i) {
    const Slot& slot = bySlot[i];
    const bool present = slot.image >= 0 && std::size_t(slot.image) < images.size();
    const core::TextureSampler& s = *slot.sampler;
    const bool mipmaps = present && s.mipmaps &&
                         (images[std::size_t(slot.image)].width > 1 || images[std::size_t(slot.image)].height > 1);
    QRhiTexture* gpuTexture = present ? texture(batch, images, slot, mipmaps) : nullptr;
    if (present && !gpuTexture) return gpuError("cannot create a material's texture");
    textured[i] = gpuTexture != nullptr;
    auto& sampler = out.samplers.emplace_back(m_rhi->newSampler(filter(s.magLinear), filter(s.minLinear),
                                                                mipmaps ? filter(s.mipLinear) : QRhiSampler::None,
                                                                addressOf(s.wrapS), addressOf(s.wrapT)));
    if (!sampler->create()) return gpuError("cannot create a material's sampler");
    textureBindings.push_back(QRhiShaderResourceBinding::sampledTexture(
        bindingOf[i], fragment, gpuTexture ? gpuTexture : m_white.get(), sampler.get()));
  }
  out.plain =
      !material.toon.enabled && std::none_of(std::begin(textured), std::end(textured), [](bool t) { return t; });
  const gpu::MaterialBlock block = materialBlock(material, textured);
  out.block.reset(m_rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, sizeof(block)));
  if (!out.block->create()) return gpuError("cannot create a material's uniform buffer");
  batch->updateDynamicBuffer(out.block.get(), 0, sizeof(block), &block);

  const auto both = QRhiShaderResourceBinding::VertexStage | QRhiShaderResourceBinding::FragmentStage;
  QVector<QRhiShaderResourceBinding> bindings = {
      QRhiShaderResourceBinding::uniformBuffer(gpu::kFrameBinding, both, m_frameBlock),
      QRhiShaderResourceBinding::uniformBufferWithDynamicOffset(gpu::kPartBinding, both, m_partSlots, m_partBlockSize),
      // Both stages: part_flat.vert shades flat faces per vertex (an unlit material's colour as is).
      QRhiShaderResourceBinding::uniformBuffer(gpu::kMaterialBinding, both, out.block.get())};
  bindings += textureBindings;
  const GpuEnvironment& light = *m_environment;
  bindings +=
      {QRhiShaderResourceBinding::sampledTexture(gpu::kPrefilteredBinding, fragment, light.prefiltered(),
                                                 light.mapSampler()),
       QRhiShaderResourceBinding::sampledTexture(gpu::kIrradianceBinding, fragment, light.irradiance(),
                                                 light.mapSampler()),
       QRhiShaderResourceBinding::sampledTexture(gpu::kBrdfLutBinding, fragment, light.brdfLut(), light.lutSampler())};
  out.bindings.reset(m_rhi->newShaderResourceBindings());
  out.bindings->setBindings(bindings.cbegin(), bindings.cend());
  if (!out.bindings->create()) return gpuError("cannot create a material's bindings");
  return out;
}

core::Expected<void> GpuMaterials::createDefault(QRhiResourceUpdateBatch* batch) {
  m_white.reset(m_rhi->newTexture(QRhiTexture::RGBA8, QSize(1, 1), 1, QRhiTexture::sRGB));
  if (!m_white->create()) return gpuError("cannot create the white texture");
  QImage white(1, 1, QImage::Format_RGBA8888);
  white.fill(Qt::white);
  batch->uploadTexture(m_white.get(), white);
  auto made = make(batch, core::MeshMaterial{}, {});
  if (!made) return made.error();
  m_default = std::move(made).value();
  return {};
}

core::Expected<void> GpuMaterials::upload(QRhiResourceUpdateBatch* batch, const core::MeshMaterials& materials,
                                          const core::PartMesh& mesh, bool skinned) {
  m_materials.clear();  // their bindings first: they name the textures
  m_sections.clear();
  m_textures.clear();
  for (const core::MeshMaterial& material : materials.materials) {
    auto made = make(batch, material, materials.images);
    if (!made) return made.error();
    m_materials.push_back(std::move(made).value());
  }
  for (std::size_t s = 0; s < materials.sections.size(); ++s) {
    const core::MeshSection& section = materials.sections[s];
    if (section.material < 0 || section.material >= static_cast<int>(m_materials.size())) continue;
    if (std::size_t(section.firstIndex) + section.indexCount > mesh.indices.size()) continue;
    GpuSection out{section.firstIndex, section.indexCount, section.material, glm::vec3(0.0f), section.node, int(s)};
    glm::dvec3 sum(0.0);
    for (quint32 i = 0; i < section.indexCount; ++i) {
      const std::uint32_t v = mesh.indices[section.firstIndex + i];
      sum += glm::dvec3(mesh.positions[v * 3], mesh.positions[v * 3 + 1], mesh.positions[v * 3 + 2]);
    }
    if (section.indexCount > 0) out.centre = glm::vec3(sum / double(section.indexCount));
    m_sections.push_back(out);
  }
  auto uvs = vertexBuffer(batch, materials.uvs, mesh.vertexCount(), 2);
  if (!uvs) return uvs.error();
  auto uvs1 = vertexBuffer(batch, materials.uvs1, mesh.vertexCount(), 2);
  if (!uvs1) return uvs1.error();
  auto tangents = vertexBuffer(batch, skinned ? std::vector<float>() : materials.tangents, mesh.vertexCount(), 4);
  if (!tangents) return tangents.error();
  m_uvs = std::move(uvs).value();
  m_uvs1 = std::move(uvs1).value();
  m_tangents = std::move(tangents).value();
  return {};
}

core::Expected<std::unique_ptr<QRhiBuffer>> GpuMaterials::vertexBuffer(QRhiResourceUpdateBatch* batch,
                                                                       const std::vector<float>& values,
                                                                       std::size_t vertexCount, std::size_t width) {
  std::vector<float> zeros;
  const std::vector<float>* uv = &values;
  if (values.size() != vertexCount * width) {
    zeros.assign(vertexCount * width, 0.0f);
    uv = &zeros;
  }
  std::unique_ptr<QRhiBuffer> out(
      m_rhi->newBuffer(QRhiBuffer::Immutable, QRhiBuffer::VertexBuffer,
                       static_cast<quint32>(std::max<std::size_t>(uv->size() * sizeof(float), 8))));
  if (!out->create()) return gpuError("cannot create a material's vertex buffer");
  if (!uv->empty())
    batch->uploadStaticBuffer(out.get(), 0, static_cast<quint32>(uv->size() * sizeof(float)), uv->data());
  return out;
}

}  // namespace riglens::render
