#include "rig/gpu_parts.h"

#include <algorithm>
#include <vector>

namespace riglens::render {

Buffer newStaticBuffer(QRhi* rhi, QRhiBuffer::UsageFlags usage, const void* data, std::size_t bytes,
                       QRhiResourceUpdateBatch* batch, QRhiBuffer::Type type) {
  Buffer buf(rhi->newBuffer(type, usage, static_cast<int>(std::max<std::size_t>(bytes, 4))));
  if (!buf->create()) return nullptr;
  if (bytes > 0 && data) batch->uploadStaticBuffer(buf.get(), 0, static_cast<int>(bytes), data);
  return buf;
}

bool uploadPart(QRhi* rhi, const core::PartMesh& mesh, bool skinned, QRhiResourceUpdateBatch* batch, GpuPart& part) {
  const auto vtx = QRhiBuffer::VertexBuffer;
  const QRhiBuffer::UsageFlags skinOut = QRhiBuffer::VertexBuffer | QRhiBuffer::StorageBuffer;
  const std::size_t attrBytes = mesh.positions.size() * sizeof(float);
  // A skinned mesh's positions/normals are written by the skinning pass.
  part.positions = newStaticBuffer(rhi, skinned ? skinOut : vtx, skinned ? nullptr : mesh.positions.data(), attrBytes,
                                   batch, skinned ? QRhiBuffer::Static : QRhiBuffer::Immutable);
  part.normals = newStaticBuffer(rhi, skinned ? skinOut : vtx, skinned ? nullptr : mesh.normals.data(), attrBytes,
                                 batch, skinned ? QRhiBuffer::Static : QRhiBuffer::Immutable);
  part.colors = newStaticBuffer(rhi, vtx, mesh.colors.data(), mesh.colors.size() * sizeof(float), batch);
  part.indices = newStaticBuffer(rhi, QRhiBuffer::IndexBuffer, mesh.indices.data(),
                                 mesh.indices.size() * sizeof(std::uint32_t), batch);
  if (!part.positions || !part.normals || !part.colors || !part.indices) return false;
  part.indexCount = static_cast<quint32>(mesh.indices.size());
  part.closed = mesh.closed && !skinned;
  part.vertexBytes = attrBytes * 2 + mesh.colors.size() * sizeof(float);
  part.indexBytes = mesh.indices.size() * sizeof(std::uint32_t);
  return true;
}

void uploadWireframe(QRhi* rhi, const core::PartMesh& mesh, QRhiResourceUpdateBatch* batch, GpuPart& part) {
  std::vector<float> pos, nrm, col, bary;
  pos.reserve(mesh.indices.size() * 3);
  for (std::size_t i = 0; i < mesh.indices.size(); ++i) {
    const std::uint32_t v = mesh.indices[i];
    for (int c = 0; c < 3; ++c) {
      pos.push_back(mesh.positions[v * 3 + c]);
      nrm.push_back(mesh.normals[v * 3 + c]);
      col.push_back(mesh.colors[v * 3 + c]);
      bary.push_back(static_cast<int>(i % 3) == c ? 1.0f : 0.0f);
    }
  }
  const auto vtx = QRhiBuffer::VertexBuffer;
  part.wirePositions = newStaticBuffer(rhi, vtx, pos.data(), pos.size() * 4, batch);
  part.wireNormals = newStaticBuffer(rhi, vtx, nrm.data(), nrm.size() * 4, batch);
  part.wireColors = newStaticBuffer(rhi, vtx, col.data(), col.size() * 4, batch);
  part.wireBary = newStaticBuffer(rhi, vtx, bary.data(), bary.size() * 4, batch);
  part.wireVertexCount = static_cast<quint32>(mesh.indices.size());
  part.wireBytes = (pos.size() + nrm.size() + col.size() + bary.size()) * 4;
}

}  // namespace riglens::render
