// The GPU side of a model's materials (core::MeshMaterials): per material a
// uniform block, its textures (base colour and emissive sRGB, the PBR data
// textures linear; mipmapped as their samplers ask; each image uploaded once
// per colour space) and samplers, and the binding set part.frag draws it
// with; a default material (white texture, opaque, both faces) for every
// voxel part; and per section the centre the blended ones are sorted by.
#pragma once

#include <QtGui/private/qrhi_p.h>

#include <glm/vec3.hpp>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "rig/gpu_environment.h"
#include "riglens/core/base/expected.h"
#include "riglens/core/gltf/mesh_materials.h"
#include "riglens/core/gltf/part_mesh.h"

namespace riglens::render {

struct GpuMaterial {
  std::unique_ptr<QRhiBuffer> block;
  std::vector<std::unique_ptr<QRhiSampler>> samplers;  // base colour, then the PBR textures
  std::unique_ptr<QRhiShaderResourceBindings> bindings;
  core::AlphaMode alphaMode = core::AlphaMode::Opaque;
  bool doubleSided = true;
  // No texture and not MToon: the PBR look draws it with part_pbr_plain.frag.
  bool plain = true;
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
  // Binds every material to the frame block, the per-part slots (dynamic
  // offset) and the image-based light the rig renderer owns.
  GpuMaterials(QRhi* rhi, QRhiBuffer* frameBlock, QRhiBuffer* partSlots, int partBlockSize,
               const GpuEnvironment* environment);

  // The default material, for voxel parts and wireframes.
  core::Expected<void> createDefault(QRhiResourceUpdateBatch* batch);
  // A model's materials and sections; its texture coordinates are uvs().
  core::Expected<void> upload(QRhiResourceUpdateBatch* batch, const core::MeshMaterials& materials,
                              const core::PartMesh& mesh, bool skinned);

  const GpuMaterial& defaultMaterial() const { return m_default; }
  const std::vector<GpuMaterial>& materials() const { return m_materials; }
  const std::vector<GpuSection>& sections() const { return m_sections; }
  QRhiBuffer* uvs() const { return m_uvs.get(); }    // per vertex, zeros where untextured
  QRhiBuffer* uvs1() const { return m_uvs1.get(); }  // texture set 1, likewise
  // Per vertex (4 floats): the normal maps' tangents; zeros where there are
  // none, and for a skinned mesh (the skinning pass writes its own: GpuPart::tangents).
  QRhiBuffer* tangents() const { return m_tangents.get(); }
  std::size_t textureBytes() const { return m_textureBytes; }
  std::size_t uvBytes() const {
    return (m_uvs ? std::size_t(m_uvs->size()) : 0) + (m_uvs1 ? std::size_t(m_uvs1->size()) : 0) +
           (m_tangents ? std::size_t(m_tangents->size()) : 0);
  }

 private:
  // One texture slot of a material: its image (-1: none) and how it is read.
  struct Slot {
    int image = -1;
    const core::TextureSampler* sampler = nullptr;
    bool srgb = true;
  };
  core::Expected<GpuMaterial> make(QRhiResourceUpdateBatch* batch, const core::MeshMaterial& material,
                                   const std::vector<core::TextureImage>& images);
  // The image on the GPU in that colour space (uploaded on first use); null when it cannot be.
  QRhiTexture* texture(QRhiResourceUpdateBatch* batch, const std::vector<core::TextureImage>& images, const Slot& slot,
                       bool mipmaps);
  // A vertex buffer of `width` floats per vertex: `values`, or zeros when it does not hold them all.
  core::Expected<std::unique_ptr<QRhiBuffer>> vertexBuffer(QRhiResourceUpdateBatch* batch,
                                                           const std::vector<float>& values, std::size_t vertexCount,
                                                           std::size_t width);

  QRhi* m_rhi;
  QRhiBuffer* m_frameBlock;
  QRhiBuffer* m_partSlots;
  int m_partBlockSize;
  const GpuEnvironment* m_environment;
  std::unique_ptr<QRhiTexture> m_white;
  GpuMaterial m_default;
  std::vector<GpuMaterial> m_materials;
  std::vector<GpuSection> m_sections;
  std::unique_ptr<QRhiBuffer> m_uvs, m_uvs1, m_tangents;
  std::map<std::tuple<int, bool, bool>, std::unique_ptr<QRhiTexture>> m_textures;  // (image, sRGB, mipmapped)
  std::size_t m_textureBytes = 0;
};

}  // namespace riglens::render
