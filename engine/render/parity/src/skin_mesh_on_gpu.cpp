#include "riglens/render/parity/skin_mesh_on_gpu.h"

#include <QtGui/private/qrhi_p.h>

#include <cstring>

#include "rig/gpu_skinning.h"

namespace riglens::render {

core::Expected<core::PartMesh> skinMeshOnGpu(RhiDevice& device, const core::PartMesh& rest, const core::SkinData& skin,
                                             std::span<const glm::mat4> bones, const core::MorphData& morph,
                                             std::span<const float> morphWeights, std::span<const float> restTangents,
                                             std::vector<float>* skinnedTangents) {
  QRhi* rhi = device.rhi();
  const int bytes = static_cast<int>(std::max<std::size_t>(rest.positions.size() * 4, 16));
  const QRhiBuffer::UsageFlags usage = QRhiBuffer::StorageBuffer | QRhiBuffer::VertexBuffer;
  std::unique_ptr<QRhiBuffer> outPositions(rhi->newBuffer(QRhiBuffer::Static, usage, bytes));
  std::unique_ptr<QRhiBuffer> outNormals(rhi->newBuffer(QRhiBuffer::Static, usage, bytes));
  const bool tangents = skinnedTangents && !restTangents.empty();
  const int tangentBytes = static_cast<int>(std::max<std::size_t>(restTangents.size() * 4, 16));
  std::unique_ptr<QRhiBuffer> outTangents(rhi->newBuffer(QRhiBuffer::Static, usage, tangentBytes));
  if (!outPositions->create() || !outNormals->create() || !outTangents->create())
    return core::makeError(core::ErrorCode::Gpu, "cannot create the skinning output buffers");
  QRhiCommandBuffer* cb = nullptr;
  if (rhi->beginOffscreenFrame(&cb) != QRhi::FrameOpSuccess)
    return core::makeError(core::ErrorCode::Gpu, "cannot begin an offscreen GPU frame");
  QRhiResourceUpdateBatch* batch = rhi->nextResourceUpdateBatch();
  auto skinning =
      GpuSkinning::create(rhi, batch, rest, skin, morph,
                          {outPositions.get(), outNormals.get(), tangents ? outTangents.get() : nullptr}, restTangents);
  if (!skinning) {
    batch->release();
    rhi->endOffscreenFrame();
    return skinning.error();
  }
  (*skinning)->record(cb, batch, bones, morphWeights);
  QRhiBufferReadbackResult positions, normals, turned;
  QRhiResourceUpdateBatch* readback = rhi->nextResourceUpdateBatch();
  readback->readBackBuffer(outPositions.get(), 0, static_cast<int>(rest.positions.size() * 4), &positions);
  readback->readBackBuffer(outNormals.get(), 0, static_cast<int>(rest.positions.size() * 4), &normals);
  if (tangents) readback->readBackBuffer(outTangents.get(), 0, static_cast<int>(restTangents.size() * 4), &turned);
  cb->resourceUpdate(readback);
  if (rhi->endOffscreenFrame() != QRhi::FrameOpSuccess)
    return core::makeError(core::ErrorCode::Gpu, "the skinning GPU frame failed");
  core::PartMesh out;
  out.positions.resize(rest.positions.size());
  out.normals.resize(rest.positions.size());
  std::memcpy(out.positions.data(), positions.data.constData(), out.positions.size() * 4);
  std::memcpy(out.normals.data(), normals.data.constData(), out.normals.size() * 4);
  if (tangents) {
    skinnedTangents->resize(restTangents.size());
    std::memcpy(skinnedTangents->data(), turned.data.constData(), skinnedTangents->size() * 4);
  }
  out.colors = rest.colors;
  out.indices = rest.indices;
  return out;
}

}  // namespace riglens::render
