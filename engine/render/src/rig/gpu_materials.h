// The GPU side of a model's materials (core::MeshMaterials): per material a
// uniform block, its base colour texture (sRGB, mipmapped as its sampler
// asks) and sampler, and the binding set part.frag draws it with; a default
// material (white texture, opaque, both faces) for every voxel part; and per
// section the centre the blended ones are sorted by.
#pragma once

#include <QtGui/private/qrhi_p.h>

#include <glm/vec3.hpp>
#include <memory>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/gltf/mesh_materials.h"
#include "riglens/core/gltf/part_mesh.h"

namespace riglens::render {

struct GpuMaterial {
  std::unique_ptr<QRhiBuffer> block;
  std::unique_ptr<QRhiTexture> texture;  // null: the shared white one
  std::unique_ptr<QRhiSampler> sampler;
  std::unique_ptr<QRhiShaderResourceBindings> bindings;
  core::AlphaMode alphaMode = core::AlphaMode::Opaque;
  bool doubleSided = true;
};

struct GpuSection {
  quint32 firstIndex = 0, indexCount = 0;
  int material = 0;
  glm::vec3 centre{0.0f};  // the mean of its vertices, in the mesh's space
  int node = -1;           // the glTF node that placed it (core::MeshSection::node)
  int index = 0;           // its place in the run's sections: its uniform slot follows the parts'
};

class GpuMaterials {
 public:
  // Binds every material to the frame block and the per-part slots (dynamic
  // offset) the rig renderer owns.
  GpuMaterials(QRhi* rhi, QRhiBuffer* frameBlock, QRhiBuffer* partSlots, int partBlockSize);

  // The default material, for voxel parts and wireframes.
  core::Expected<void> createDefault(QRhiResourceUpdateBatch* batch);
  // A model's materials and sections; its texture coordinates are uvs().
  core::Expected<void> upload(QRhiResourceUpdateBatch* batch, const core::MeshMaterials& materials,
                              const core::PartMesh& mesh);

  const GpuMaterial& defaultMaterial() const { return m_default; }
  const std::vector<GpuMaterial>& materials() const { return m_materials; }
  const std::vector<GpuSection>& sections() const { return m_sections; }
  QRhiBuffer* uvs() const { return m_uvs.get(); }  // per vertex, zeros where untextured
  std::size_t textureBytes() const { return m_textureBytes; }
  std::size_t uvBytes() const { return m_uvs ? std::size_t(m_uvs->size()) : 0; }

 private:
  core::Expected<GpuMaterial> make(QRhiResourceUpdateBatch* batch, const core::MeshMaterial& material,
                                   const core::TextureImage* image);

  QRhi* m_rhi;
  QRhiBuffer* m_frameBlock;
  QRhiBuffer* m_partSlots;
  int m_partBlockSize;
  std::unique_ptr<QRhiTexture> m_white;
  GpuMaterial m_default;
  std::vector<GpuMaterial> m_materials;
  std::vector<GpuSection> m_sections;
  std::unique_ptr<QRhiBuffer> m_uvs;
  std::size_t m_textureBytes = 0;
};

}  // namespace riglens::render
