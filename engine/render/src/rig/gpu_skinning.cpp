#include "rig/gpu_skinning.h"

#include <vector>

#include "device/compute_buffers.h"
#include "device/gpu_layouts.h"
#include "device/shader_library.h"

namespace riglens::render {

namespace {

std::unique_ptr<QRhiBuffer> storage(QRhi* rhi, QRhiResourceUpdateBatch* batch, const void* data, std::size_t bytes) {
  std::unique_ptr<QRhiBuffer> buf(rhi->newBuffer(QRhiBuffer::Static, QRhiBuffer::StorageBuffer,
                                                 static_cast<int>(std::max<std::size_t>(bytes, 16))));
  if (!buf->create()) return nullptr;
  if (data && bytes) batch->uploadStaticBuffer(buf.get(), 0, static_cast<int>(bytes), data);
  return buf;
}
}  // namespace

core::Expected<std::unique_ptr<GpuSkinning>> GpuSkinning::create(QRhi* rhi, QRhiResourceUpdateBatch* batch,
                                                                 const core::PartMesh& rest, const core::SkinData& skin,
                                                                 QRhiBuffer* outPositions, QRhiBuffer* outNormals) {
  if (!rhi->isFeatureSupported(QRhi::Compute))
    return core::makeError(core::ErrorCode::Unsupported, "GPU skinning needs compute shaders");
  auto cs = loadShader("skin.comp");
  if (!cs) return cs.error();
  std::unique_ptr<GpuSkinning> s(new GpuSkinning);
  s->m_vertexCount = static_cast<quint32>(rest.vertexCount());
  s->m_boneCount = static_cast<quint32>(skin.boneNames.size());
  std::vector<float> normals = rest.normals;
  normals.resize(rest.positions.size(), 0.0f);
  s->m_restPositions = storage(rhi, batch, rest.positions.data(), rest.positions.size() * 4);
  s->m_restNormals = storage(rhi, batch, normals.data(), normals.size() * 4);
  s->m_joints = storage(rhi, batch, skin.joints.data(), skin.joints.size() * 4);
  s->m_weights = storage(rhi, batch, skin.weights.data(), skin.weights.size() * 4);
  s->m_bones = storage(rhi, batch, nullptr, std::max<std::size_t>(1, skin.boneNames.size()) * sizeof(glm::mat4));
  s->m_params.reset(rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, sizeof(gpu::SkinParams)));
  if (!s->m_restPositions || !s->m_restNormals || !s->m_joints || !s->m_weights || !s->m_bones ||
      !s->m_params->create())
    return core::makeError(core::ErrorCode::Gpu, "cannot create the skinning buffers");
  s->m_bytes = (rest.positions.size() + normals.size() + skin.joints.size() + skin.weights.size()) * 4 +
               std::max<std::size_t>(1, skin.boneNames.size()) * sizeof(glm::mat4) + sizeof(gpu::SkinParams);
  const auto stage = QRhiShaderResourceBinding::ComputeStage;
  s->m_srb.reset(rhi->newShaderResourceBindings());
  s->m_srb->setBindings(
      {QRhiShaderResourceBinding::uniformBuffer(gpu::kSkinParamsBinding, stage, s->m_params.get()),
       QRhiShaderResourceBinding::bufferLoad(gpu::kSkinRestPositions, stage, s->m_restPositions.get()),
       QRhiShaderResourceBinding::bufferLoad(gpu::kSkinRestNormals, stage, s->m_restNormals.get()),
       QRhiShaderResourceBinding::bufferLoad(gpu::kSkinJoints, stage, s->m_joints.get()),
       QRhiShaderResourceBinding::bufferLoad(gpu::kSkinWeights, stage, s->m_weights.get()),
       QRhiShaderResourceBinding::bufferLoad(gpu::kSkinBones, stage, s->m_bones.get()),
       QRhiShaderResourceBinding::bufferStore(gpu::kSkinOutPositions, stage, outPositions),
       QRhiShaderResourceBinding::bufferStore(gpu::kSkinOutNormals, stage, outNormals)});
  s->m_pipeline.reset(rhi->newComputePipeline());
  s->m_pipeline->setShaderStage({QRhiShaderStage::Compute, *cs});
  s->m_pipeline->setShaderResourceBindings(s->m_srb.get());
  if (!s->m_srb->create() || !s->m_pipeline->create())
    return core::makeError(core::ErrorCode::Gpu, "cannot create the skinning pipeline");
  return s;
}

void GpuSkinning::record(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch, std::span<const glm::mat4> bones) {
  const gpu::SkinParams params{m_vertexCount, m_boneCount};
  batch->updateDynamicBuffer(m_params.get(), 0, sizeof(params), &params);
  std::vector<glm::mat4> padded(bones.begin(), bones.end());
  padded.resize(std::max<std::size_t>(1, m_boneCount), glm::mat4(1.0f));
  batch->uploadStaticBuffer(m_bones.get(), 0, static_cast<int>(padded.size() * sizeof(glm::mat4)), padded.data());
  dispatchComputePass(cb, batch, m_pipeline.get(), nullptr, gpu::groupsFor(m_vertexCount, gpu::kSkinGroupSize));
}

}  // namespace riglens::render
