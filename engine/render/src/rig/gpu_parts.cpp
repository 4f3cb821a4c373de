#include "rig/gpu_parts.h"

#include <algorithm>
#include <vector>

#include "device/gpu_layouts.h"
#include "device/shader_library.h"

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
  part.flatFaces = mesh.flatFaces && !skinned;
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

std::unique_ptr<QRhiGraphicsPipeline> newPartPipeline(QRhi* rhi, QRhiRenderPassDescriptor* rp, int samples,
                                                      QRhiShaderResourceBindings* bindings, PartVariant variant) {
  const char* pbrFragment = variant.plain ? "part_pbr_plain.frag" : "part_pbr.frag";
  auto ps = variant.pbr    ? newGraphicsPipeline(rhi, "part_pbr.vert", pbrFragment)
            : variant.flat ? newGraphicsPipeline(rhi, "part_flat.vert", "part_flat.frag")
                           : newGraphicsPipeline(rhi, "part.vert", "part.frag");
  if (!ps) return nullptr;
  const auto perVertex = [](bool yes, quint32 stride) {
    return yes ? QRhiVertexInputBinding(stride) : QRhiVertexInputBinding(stride, QRhiVertexInputBinding::PerInstance);
  };
  QRhiVertexInputLayout layout;
  layout.setBindings({{3 * sizeof(float)},
                      {3 * sizeof(float)},
                      {3 * sizeof(float)},
                      perVertex(variant.wireframe, 3 * sizeof(float)),
                      perVertex(variant.textured, 2 * sizeof(float)),
                      perVertex(variant.textured, 2 * sizeof(float)),
                      perVertex(variant.textured, 4 * sizeof(float))});
  layout.setAttributes({{gpu::kPositions, 0, QRhiVertexInputAttribute::Float3, 0},
                        {gpu::kNormals, 1, QRhiVertexInputAttribute::Float3, 0},
                        {gpu::kColors, 2, QRhiVertexInputAttribute::Float3, 0},
                        {gpu::kBarycentrics, 3, QRhiVertexInputAttribute::Float3, 0},
                        {gpu::kUvs, 4, QRhiVertexInputAttribute::Float2, 0},
                        {gpu::kUvs1, 5, QRhiVertexInputAttribute::Float2, 0},
                        {gpu::kTangents, 6, QRhiVertexInputAttribute::Float4, 0}});
  ps->setVertexInputLayout(layout);
  ps->setDepthTest(true);
  ps->setDepthWrite(!variant.blended);
  if (variant.blended) ps->setTargetBlends({overBlend(false)});  // straight alpha (glTF BLEND)
  // Voxel meshers differ in winding care: both faces drawn, the shader flips
  // a back face's normal. A single-sided glTF material and a closed part
  // cull them.
  ps->setCullMode(variant.cull);
  ps->setFrontFace(QRhiGraphicsPipeline::CCW);
  ps->setFlags(QRhiGraphicsPipeline::UsesScissor);
  return createGraphicsPipeline(std::move(ps), rp, samples, bindings);
}

}  // namespace riglens::render
