#include "rig/gpu_skinning.h"

#include <vector>

#include "device/compute_buffers.h"
#include "device/gpu_layouts.h"
#include "device/shader_library.h"

namespace riglens::render {

namespace {

// A storage buffer holding `bytes` of `data` (none: left for the pass to fill).
std::unique_ptr<QRhiBuffer> storage(QRhi* rhi, QRhiResourceUpdateBatch* batch, const void* data, std::size_t bytes) {
  auto buf = newStorageBuffer(rhi, bytes);
  if (buf && data && bytes) batch->uploadStaticBuffer(buf.get(), 0, static_cast<int>(bytes), data);
  return buf;
}
}  // namespace

core::Expected<std::unique_ptr<GpuSkinning>> GpuSkinning::create(QRhi* rhi, QRhiResourceUpdateBatch* batch,
                                                                 const core::PartMesh& rest, const core::SkinData& skin,
                                                                 const core::MorphData& morph, Outputs outputs,
                                                                 std::span<const float> restTangents) {
  if (!rhi->isFeatureSupported(QRhi::Compute))
    return core::makeError(core::ErrorCode::Unsupported, "GPU skinning needs compute shaders");
  auto cs = loadShader("skin.comp");
  if (!cs) return cs.error();
  std::unique_ptr<GpuSkinning> s(new GpuSkinning);
  s->m_vertexCount = static_cast<quint32>(rest.vertexCount());
  s->m_boneCount = static_cast<quint32>(skin.boneNames.size());
  std::vector<float> normals = rest.normals;
  normals.resize(rest.positions.size(), 0.0f);
  ComputeLayout layout;
  s->m_params = layout.uniform(gpu::kSkinParamsBinding, newUniformBuffer(rhi, sizeof(gpu::SkinParams)));
  s->m_restPositions =
      layout.read(gpu::kSkinRestPositions, storage(rhi, batch, rest.positions.data(), rest.positions.size() * 4));
  s->m_restNormals = layout.read(gpu::kSkinRestNormals, storage(rhi, batch, normals.data(), normals.size() * 4));
  // A rigid skin: its one bone a vertex, four to a uvec4 (padded), no weights.
  std::vector<std::uint32_t> rigid = skin.rigid;
  rigid.resize((rigid.size() + 3) / 4 * 4, 0);
  s->m_rigid = skin.isRigid();
  s->m_joints =
      layout.read(gpu::kSkinJoints, s->m_rigid ? storage(rhi, batch, rigid.data(), rigid.size() * 4)
                                               : storage(rhi, batch, skin.joints.data(), skin.joints.size() * 4));
  s->m_weights = layout.read(gpu::kSkinWeights, storage(rhi, batch, skin.weights.data(), skin.weights.size() * 4));
  s->m_bones =
      layout.read(gpu::kSkinBones,
                  storage(rhi, batch, nullptr, std::max<std::size_t>(1, skin.boneNames.size()) * sizeof(glm::mat4)));
  layout.written(gpu::kSkinOutPositions, outputs.positions);
  layout.written(gpu::kSkinOutNormals, outputs.normals);
  // Tangents, or 16-byte stand-ins the pass never reads nor writes.
  s->m_tangents = outputs.tangents && restTangents.size() == rest.vertexCount() * 4;
  static constexpr float kStandIn[4] = {};
  s->m_restTangents = layout.read(gpu::kSkinRestTangents,
                                  s->m_tangents ? storage(rhi, batch, restTangents.data(), restTangents.size() * 4)
                                                : storage(rhi, batch, kStandIn, sizeof(kStandIn)));
  if (!s->m_tangents) s->m_outTangentStandIn = storage(rhi, batch, nullptr, sizeof(kStandIn));
  layout.written(gpu::kSkinOutTangents, s->m_tangents ? outputs.tangents : s->m_outTangentStandIn.get());
  // The morph stage's inputs (16-byte stand-ins when nothing morphs: the
  // pass then never reads them).
  s->m_slotCount = morph.empty() ? 0 : static_cast<quint32>(morph.slotCount());
  std::vector<std::uint32_t> ranges;
  for (const auto& r : morph.ranges) ranges.insert(ranges.end(), {r.firstVertex, r.firstSlot, r.slotCount, 0});
  std::vector<std::uint32_t> rangeOf = morph.rangeOfVertex;
  if (s->m_slotCount) rangeOf.resize(rest.vertexCount(), gpu::kSkinNoMorphRange);
  s->m_rangeOf = layout.read(gpu::kSkinMorphRangeOf, storage(rhi, batch, rangeOf.data(), rangeOf.size() * 4));
  s->m_ranges = layout.read(gpu::kSkinMorphRanges, storage(rhi, batch, ranges.data(), ranges.size() * 4));
  s->m_slotOffsets =
      layout.read(gpu::kSkinMorphSlots, storage(rhi, batch, morph.slotOffsets.data(), morph.slotOffsets.size() * 4));
  s->m_morphWeights = layout.read(gpu::kSkinMorphWeights,
                                  storage(rhi, batch, nullptr, std::max<std::size_t>(1, morph.slotCount()) * 4));
  s->m_positionDeltas = layout.read(gpu::kSkinMorphPositions,
                                    storage(rhi, batch, morph.positionDeltas.data(), morph.positionDeltas.size() * 4));
  s->m_normalDeltas = layout.read(gpu::kSkinMorphNormals,
                                  storage(rhi, batch, morph.normalDeltas.data(), morph.normalDeltas.size() * 4));
  if (!layout.ok()) return core::makeError(core::ErrorCode::Gpu, "cannot create the skinning buffers");
  s->m_bytes = (rest.positions.size() + normals.size() + skin.joints.size() + rigid.size() + skin.weights.size() +
                (s->m_tangents ? restTangents.size() : 0)) *
                   4 +
               std::max<std::size_t>(1, skin.boneNames.size()) * sizeof(glm::mat4) + sizeof(gpu::SkinParams) +
               (rangeOf.size() + ranges.size() + morph.slotOffsets.size() * 2 + morph.positionDeltas.size() +
                morph.normalDeltas.size()) *
                   4;
  if (!layout.createPipeline(rhi, *cs, s->m_srb, s->m_pipeline))
    return core::makeError(core::ErrorCode::Gpu, "cannot create the skinning pipeline");
  return s;
}

void GpuSkinning::record(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch, std::span<const glm::mat4> bones,
                         std::span<const float> morphWeights) {
  const gpu::SkinParams params{m_vertexCount,        m_boneCount, m_slotCount, m_rigid ? 1u : 0u,
                               m_tangents ? 1u : 0u, 0u,          0u,          0u};
  if (m_slotCount > 0) {
    std::vector<float> weights(morphWeights.begin(), morphWeights.end());
    weights.resize(m_slotCount, 0.0f);
    batch->uploadStaticBuffer(m_morphWeights.get(), 0, static_cast<int>(weights.size() * sizeof(float)),
                              weights.data());
  }
  batch->updateDynamicBuffer(m_params.get(), 0, sizeof(params), &params);
  std::vector<glm::mat4> padded(bones.begin(), bones.end());
  padded.resize(std::max<std::size_t>(1, m_boneCount), glm::mat4(1.0f));
  batch->uploadStaticBuffer(m_bones.get(), 0, static_cast<int>(padded.size() * sizeof(glm::mat4)), padded.data());
  dispatchComputePass(cb, batch, m_pipeline.get(), nullptr, gpu::groupsFor(m_vertexCount, gpu::kSkinGroupSize));
}

}  // namespace riglens::render
