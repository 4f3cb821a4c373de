// GpuSkinning: the skin.comp pass for one skinned mesh: rest positions,
// normals, joints, weights and morph targets uploaded once; bones and morph
// weights uploaded per frame; writes
// skinned positions and normals (and tangents, for normal maps) into
// buffers that are also vertex buffers. Shared by RigRenderer (draws them) and skinMeshOnGpu (reads them
// back for the parity test). Private to engine/render.
#pragma once

#include <QtGui/private/qrhi_p.h>

#include <glm/mat4x4.hpp>
#include <memory>
#include <span>

#include "riglens/core/base/expected.h"
#include "riglens/core/gltf/glb_reader.h"
#include "riglens/core/gltf/part_mesh.h"

namespace riglens::render {

class GpuSkinning {
 public:
  // Where the pass writes: positions and normals (3 floats a vertex) and,
  // when `tangents` is set, tangents (4 floats a vertex, skinned from the
  // rest tangents given to create); each with the StorageBuffer usage.
  struct Outputs {
    QRhiBuffer* positions = nullptr;
    QRhiBuffer* normals = nullptr;
    QRhiBuffer* tangents = nullptr;
  };

  // Uploads through `batch`. `restTangents`: 4 floats a vertex, or empty
  // (then outputs.tangents is not written).
  static core::Expected<std::unique_ptr<GpuSkinning>> create(QRhi* rhi, QRhiResourceUpdateBatch* batch,
                                                             const core::PartMesh& rest, const core::SkinData& skin,
                                                             const core::MorphData& morph, Outputs outputs,
                                                             std::span<const float> restTangents = {});

  // Records the bone and morph weight uploads (into `batch`, consumed) and
  // the compute pass. `morphWeights`: one per morph slot (missing ones 0).
  void record(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch, std::span<const glm::mat4> bones,
              std::span<const float> morphWeights = {});

  std::size_t bytes() const { return m_bytes; }

 private:
  GpuSkinning() = default;
  std::unique_ptr<QRhiBuffer> m_params, m_restPositions, m_restNormals, m_joints, m_weights, m_bones;
  std::unique_ptr<QRhiBuffer> m_rangeOf, m_ranges, m_slotOffsets, m_morphWeights, m_positionDeltas, m_normalDeltas;
  std::unique_ptr<QRhiBuffer> m_restTangents, m_outTangentStandIn;
  std::unique_ptr<QRhiShaderResourceBindings> m_srb;
  std::unique_ptr<QRhiComputePipeline> m_pipeline;
  quint32 m_vertexCount = 0, m_boneCount = 0, m_slotCount = 0;
  bool m_rigid = false, m_tangents = false;
  std::size_t m_bytes = 0;
};

}  // namespace riglens::render
