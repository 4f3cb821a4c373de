#include "rig/gpu_materials.h"

#include <QtGui/QImage>
#include <cmath>

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

GpuMaterials::GpuMaterials(QRhi* rhi, QRhiBuffer* frameBlock, QRhiBuffer* partSlots, int partBlockSize)
    : m_rhi(rhi), m_frameBlock(frameBlock), m_partSlots(partSlots), m_partBlockSize(partBlockSize) {}

core::Expected<GpuMaterial> GpuMaterials::make(QRhiResourceUpdateBatch* batch, const core::MeshMaterial& material,
                                               const core::TextureImage* image) {
  GpuMaterial out;
  out.alphaMode = material.alphaMode;
  out.doubleSided = material.doubleSided;
  gpu::MaterialBlock block{};
  block.alpha = {material.alphaFactor, material.alphaMode == core::AlphaMode::Mask ? material.alphaCutoff : -1.0f,
                 material.alphaMode == core::AlphaMode::Blend ? 1.0f : 0.0f, 0.0f};
  block.flags = {image ? 1 : 0, material.unlit ? 1 : 0, 0, 0};
  out.block.reset(m_rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, sizeof(block)));
  if (!out.block->create()) return gpuError("cannot create a material's uniform buffer");
  batch->updateDynamicBuffer(out.block.get(), 0, sizeof(block), &block);

  const core::TextureSampler& s = material.sampler;
  const bool mipmaps = image && s.mipmaps && (image->width > 1 || image->height > 1);
  if (image) {
    QRhiTexture::Flags flags = QRhiTexture::sRGB;
    if (mipmaps) flags |= QRhiTexture::MipMapped | QRhiTexture::UsedWithGenerateMips;
    out.texture.reset(m_rhi->newTexture(QRhiTexture::RGBA8, QSize(image->width, image->height), 1, flags));
    if (!out.texture->create()) return gpuError("cannot create a material's texture");
    const QImage pixels(image->rgba.data(), image->width, image->height, image->width * 4, QImage::Format_RGBA8888);
    batch->uploadTexture(out.texture.get(), pixels);
    if (mipmaps) batch->generateMips(out.texture.get());
    m_textureBytes += image->rgba.size() * (mipmaps ? 4 : 3) / 3;
  }
  const auto filter = [](bool linear) { return linear ? QRhiSampler::Linear : QRhiSampler::Nearest; };
  out.sampler.reset(m_rhi->newSampler(filter(s.magLinear), filter(s.minLinear),
                                      mipmaps ? filter(s.mipLinear) : QRhiSampler::None, addressOf(s.wrapS),
                                      addressOf(s.wrapT)));
  if (!out.sampler->create()) return gpuError("cannot create a material's sampler");

  const auto both = QRhiShaderResourceBinding::VertexStage | QRhiShaderResourceBinding::FragmentStage;
  const auto fragment = QRhiShaderResourceBinding::FragmentStage;
  out.bindings.reset(m_rhi->newShaderResourceBindings());
  out.bindings->setBindings(
      {QRhiShaderResourceBinding::uniformBuffer(gpu::kFrameBinding, both, m_frameBlock),
       QRhiShaderResourceBinding::uniformBufferWithDynamicOffset(gpu::kPartBinding, both, m_partSlots, m_partBlockSize),
       QRhiShaderResourceBinding::uniformBuffer(gpu::kMaterialBinding, fragment, out.block.get()),
       QRhiShaderResourceBinding::sampledTexture(gpu::kBaseColorBinding, fragment,
                                                 out.texture ? out.texture.get() : m_white.get(), out.sampler.get())});
  if (!out.bindings->create()) return gpuError("cannot create a material's bindings");
  return out;
}

core::Expected<void> GpuMaterials::createDefault(QRhiResourceUpdateBatch* batch) {
  m_white.reset(m_rhi->newTexture(QRhiTexture::RGBA8, QSize(1, 1), 1, QRhiTexture::sRGB));
  if (!m_white->create()) return gpuError("cannot create the white texture");
  QImage white(1, 1, QImage::Format_RGBA8888);
  white.fill(Qt::white);
  batch->uploadTexture(m_white.get(), white);
  auto made = make(batch, core::MeshMaterial{}, nullptr);
  if (!made) return made.error();
  m_default = std::move(made).value();
  return {};
}

core::Expected<void> GpuMaterials::upload(QRhiResourceUpdateBatch* batch, const core::MeshMaterials& materials,
                                          const core::PartMesh& mesh) {
  m_materials.clear();
  m_sections.clear();
  for (const core::MeshMaterial& material : materials.materials) {
    const bool textured = material.image >= 0 && material.image < static_cast<int>(materials.images.size());
    auto made = make(batch, material, textured ? &materials.images[std::size_t(material.image)] : nullptr);
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
  std::vector<float> zeros;
  const std::vector<float>* uv = &materials.uvs;
  if (materials.uvs.size() != mesh.vertexCount() * 2) {
    zeros.assign(mesh.vertexCount() * 2, 0.0f);
    uv = &zeros;
  }
  m_uvs.reset(m_rhi->newBuffer(QRhiBuffer::Immutable, QRhiBuffer::VertexBuffer,
                               static_cast<quint32>(std::max<std::size_t>(uv->size() * sizeof(float), 8))));
  if (!m_uvs->create()) return gpuError("cannot create the texture coordinates");
  if (!uv->empty())
    batch->uploadStaticBuffer(m_uvs.get(), 0, static_cast<quint32>(uv->size() * sizeof(float)), uv->data());
  return {};
}

}  // namespace riglens::render
