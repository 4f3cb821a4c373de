#include "riglens/render/character/gpu_character.h"

#include <QtGui/private/qrhi_p.h>

#include <cstring>

#include "device/compute_buffers.h"
#include "device/gpu_layouts.h"
#include "device/shader_library.h"
#include "riglens/core/character/head_ext.h"

namespace riglens::render {

using core::ErrorCode;
using core::makeError;

namespace {

struct ActiveTerm {
  std::uint32_t index;
  float scale;
};

}  // namespace

struct GpuGnm::Impl {
  QRhi* rhi = nullptr;
  std::size_t V = 0, E = 0, J = 0;
  std::unique_ptr<QRhiBuffer> params, neutral, basis, actives, eyeWeights, stitch, skinIndex, skinWeight, skin, posed;
  std::unique_ptr<QRhiShaderResourceBindings> srb;
  std::unique_ptr<QRhiComputePipeline> pipeline;
  QRhiResourceUpdateBatch* pending = nullptr;  // the one-time uploads, consumed by the first encode
  gpu::GnmParams frame{};
  std::vector<ActiveTerm> active;
  std::vector<float> skinMatrices;
  bool hasStitch = false;
  const core::AosRigPack* pack = nullptr;
};

GpuGnm::GpuGnm(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
GpuGnm::~GpuGnm() {
  if (m_impl && m_impl->pending) m_impl->pending->release();
}

core::Expected<std::unique_ptr<GpuGnm>> GpuGnm::create(RhiDevice& device, const core::AosRigPack& pack) {
  if (!device.supportsCompute())
    return makeError(ErrorCode::Unsupported, "the GPU backend has no compute shaders: characters need them");
  if (pack.basisHalf.empty())
    return makeError(ErrorCode::Unsupported, "the GPU GNM pass takes an fp16 basis (this pack stores i8)");
  auto shader = loadShader("gnm.comp");
  if (!shader) return shader.error();
  auto d = std::make_unique<Impl>();
  d->rhi = device.rhi();
  d->pack = &pack;
  d->V = pack.vertexCount;
  d->E = pack.coeffCount;
  d->J = pack.joints.size();
  QRhi* rhi = d->rhi;
  const std::size_t basisBytes = (pack.basisHalf.size() + 1) / 2 * 4;
  if (basisBytes > std::size_t(128) << 20)
    return makeError(ErrorCode::Unsupported, "the basis (" + std::to_string(basisBytes >> 20) +
                                                 " MiB) exceeds the 128 MiB storage binding limit");
  d->params.reset(rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, sizeof(gpu::GnmParams)));
  d->neutral = newStorageBuffer(rhi, d->V * 12);
  d->basis = newStorageBuffer(rhi, basisBytes);
  d->actives = newStorageBuffer(rhi, std::max<std::size_t>(d->E, 1) * sizeof(ActiveTerm));
  d->eyeWeights = newStorageBuffer(rhi, d->V * 8);
  d->hasStitch = pack.stitchLocal.size() == d->V * 3;
  d->stitch = newStorageBuffer(rhi, d->hasStitch ? d->V * 12 : 16);
  d->skinIndex = newStorageBuffer(rhi, d->V * 16);
  d->skinWeight = newStorageBuffer(rhi, d->V * 16);
  d->skin = newStorageBuffer(rhi, d->J * 64);
  d->posed = newStorageBuffer(rhi, d->V * 12, QRhiBuffer::StorageBuffer | QRhiBuffer::VertexBuffer);
  if (!d->params->create() || !d->neutral || !d->basis || !d->actives || !d->eyeWeights || !d->stitch ||
      !d->skinIndex || !d->skinWeight || !d->skin || !d->posed)
    return makeError(ErrorCode::Gpu, "cannot allocate the GNM GPU buffers");

  // One-time uploads. The basis goes up as the packed u32 words the pack stores.
  d->pending = rhi->nextResourceUpdateBatch();
  d->pending->uploadStaticBuffer(d->neutral.get(), 0, int(d->V * 12), pack.neutral.data());
  std::vector<std::uint16_t> lanes(pack.basisHalf.begin(), pack.basisHalf.end());
  lanes.resize(basisBytes / 2, 0);
  d->pending->uploadStaticBuffer(d->basis.get(), 0, int(basisBytes), lanes.data());
  d->pending->uploadStaticBuffer(d->eyeWeights.get(), 0, int(d->V * 8), pack.eyeWeights.data());
  if (d->hasStitch) d->pending->uploadStaticBuffer(d->stitch.get(), 0, int(d->V * 12), pack.stitchLocal.data());
  std::vector<std::uint32_t> joints(pack.skinIndex.begin(),
                                    pack.skinIndex.end());  // u16 -> u32 for uvec4
  d->pending->uploadStaticBuffer(d->skinIndex.get(), 0, int(d->V * 16), joints.data());
  d->pending->uploadStaticBuffer(d->skinWeight.get(), 0, int(d->V * 16), pack.skinWeight.data());

  const auto stage = QRhiShaderResourceBinding::ComputeStage;
  d->srb.reset(rhi->newShaderResourceBindings());
  d->srb->setBindings({QRhiShaderResourceBinding::uniformBuffer(gpu::kGnmParamsBinding, stage, d->params.get()),
                       QRhiShaderResourceBinding::bufferLoad(gpu::kGnmNeutral, stage, d->neutral.get()),
                       QRhiShaderResourceBinding::bufferLoad(gpu::kGnmBasis, stage, d->basis.get()),
                       QRhiShaderResourceBinding::bufferLoad(gpu::kGnmActives, stage, d->actives.get()),
                       QRhiShaderResourceBinding::bufferLoad(gpu::kGnmEyeWeights, stage, d->eyeWeights.get()),
                       QRhiShaderResourceBinding::bufferLoad(gpu::kGnmStitch, stage, d->stitch.get()),
                       QRhiShaderResourceBinding::bufferLoad(gpu::kGnmSkinIndex, stage, d->skinIndex.get()),
                       QRhiShaderResourceBinding::bufferLoad(gpu::kGnmSkinWeight, stage, d->skinWeight.get()),
                       QRhiShaderResourceBinding::bufferLoad(gpu::kGnmSkin, stage, d->skin.get()),
                       QRhiShaderResourceBinding::bufferStore(gpu::kGnmPosed, stage, d->posed.get())});
  d->pipeline.reset(rhi->newComputePipeline());
  d->pipeline->setShaderStage({QRhiShaderStage::Compute, *shader});
  d->pipeline->setShaderResourceBindings(d->srb.get());
  if (!d->srb->create() || !d->pipeline->create())
    return makeError(ErrorCode::Gpu, "cannot create the GNM compute pipeline");
  return std::unique_ptr<GpuGnm>(new GpuGnm(std::move(d)));
}

core::Expected<void> GpuGnm::setControls(std::span<const float> headExt, const core::GnmJointState& joints) {
  Impl& d = *m_impl;
  const core::HeadExtLayout& layout = d.pack->headExt;
  auto padded = core::paddedHeadExt(headExt, layout);
  if (!padded) return padded.error();
  const std::vector<float>& c = *padded;
  d.active.clear();
  for (std::size_t i = 0; i < d.E; ++i)
    if (c[i] != 0.0f) d.active.push_back({std::uint32_t(i), c[i] * d.pack->basisScale[i]});
  gpu::GnmParams& f = d.frame;
  f = {};
  f.vertexCount = std::uint32_t(d.V);
  f.coeffCount = std::uint32_t(d.E);
  f.activeCount = std::uint32_t(d.active.size());
  f.flags = d.hasStitch ? gpu::kGnmStitchFlag : 0u;
  if (layout.gazeDim >= 4) {
    const std::span<const float, 4> gaze(c.data() + layout.exprDim, 4);
    const auto rotations = core::gazeToEyeRotations(gaze);
    for (int e = 0; e < 2; ++e) {
      if (gaze[std::size_t(2 * e)] != 0.0f || gaze[std::size_t(2 * e + 1)] != 0.0f)
        f.flags |= gpu::kGnmGazeLeftFlag << e;
      const glm::mat4 r(glm::mat4_cast(rotations[std::size_t(e)]));
      f.eyeRot[e] = gpu::toGpu(r);
      const auto at = [&](int k) { return float(d.pack->eyePositions[std::size_t(e * 3 + k)]); };
      f.eyePos[e] = {at(0), at(1), at(2), 0.0f};
    }
  }
  d.skinMatrices.clear();
  for (const glm::dmat4& m : joints.skinMatrices()) {
    const glm::mat4 fm(m);
    d.skinMatrices.insert(d.skinMatrices.end(), &fm[0][0], &fm[0][0] + 16);
  }
  return {};
}

void GpuGnm::flushUploads(QRhiCommandBuffer* cb) {
  if (!m_impl->pending) return;
  cb->resourceUpdate(m_impl->pending);
  m_impl->pending = nullptr;
}

void GpuGnm::encode(QRhiCommandBuffer* cb) {
  Impl& d = *m_impl;
  QRhiResourceUpdateBatch* batch = d.pending ? d.pending : d.rhi->nextResourceUpdateBatch();
  d.pending = nullptr;
  batch->updateDynamicBuffer(d.params.get(), 0, sizeof(gpu::GnmParams), &d.frame);
  if (!d.active.empty())
    batch->uploadStaticBuffer(d.actives.get(), 0, int(d.active.size() * sizeof(ActiveTerm)), d.active.data());
  if (!d.skinMatrices.empty())
    batch->uploadStaticBuffer(d.skin.get(), 0, int(d.skinMatrices.size() * 4), d.skinMatrices.data());
  dispatchComputePass(cb, batch, d.pipeline.get(), nullptr, gpu::groupsFor(d.V, gpu::kGnmGroupSize));
  markPass(d.rhi, cb, "gnm");
}

core::Expected<void> GpuGnm::runOffscreenFrame() {
  return runOffscreenComputeFrame(m_impl->rhi, "GNM", [&](QRhiCommandBuffer* cb) { encode(cb); });
}

QRhiBuffer* GpuGnm::posedBuffer() const {
  return m_impl->posed.get();
}
std::size_t GpuGnm::vertexCount() const {
  return m_impl->V;
}
BufferList GpuGnm::buffers() const {
  const Impl& d = *m_impl;
  return {bufferBytes("GNM parameters", d.params.get()),      bufferBytes("GNM neutral", d.neutral.get()),
          bufferBytes("GNM basis (fp16)", d.basis.get()),     bufferBytes("GNM active coefficients", d.actives.get()),
          bufferBytes("GNM eye weights", d.eyeWeights.get()), bufferBytes("GNM seam stitch", d.stitch.get()),
          bufferBytes("GNM skin indices", d.skinIndex.get()), bufferBytes("GNM skin weights", d.skinWeight.get()),
          bufferBytes("GNM skin matrices", d.skin.get()),     bufferBytes("GNM posed vertices", d.posed.get())};
}

std::size_t GpuGnm::gpuBytes() const {
  return totalBytes(buffers());
}
std::size_t GpuGnm::activeCount() const {
  return m_impl->active.size();
}

core::Expected<std::vector<float>> gnmPoseOnGpu(RhiDevice& device, const core::AosRigPack& pack,
                                                std::span<const float> headExt, const core::GnmJointState* joints) {
  auto gnm = GpuGnm::create(device, pack);
  if (!gnm) return gnm.error();
  const core::GnmJointState rest(pack);
  if (auto ok = (*gnm)->setControls(headExt, joints ? *joints : rest); !ok) return ok.error();
  QRhiBufferReadbackResult result;
  auto ran = runOffscreenComputeFrame(device.rhi(), "GNM", [&](QRhiCommandBuffer* cb) {
    (*gnm)->encode(cb);
    QRhiResourceUpdateBatch* readback = device.rhi()->nextResourceUpdateBatch();
    readback->readBackBuffer((*gnm)->posedBuffer(), 0, int(pack.vertexCount * 12), &result);
    cb->resourceUpdate(readback);
  });
  if (!ran) return ran.error();
  std::vector<float> out(pack.vertexCount * 3);
  std::memcpy(out.data(), result.data.constData(), out.size() * 4);
  return out;
}

}  // namespace riglens::render
