#include "riglens/render/character/gpu_orl.h"

#include <QtGui/private/qrhi_p.h>

#include <cstring>

#include "device/compute_buffers.h"
#include "device/gpu_layouts.h"
#include "device/pending_uploads.h"
#include "device/shader_library.h"

namespace riglens::render {

using core::ErrorCode;
using core::makeError;

OrlCsr buildOrlCsr(const core::OrlPack& pack) {
  const std::size_t V = pack.vertexCount;
  OrlCsr csr;
  csr.offset.assign(V + 1, 0);
  for (auto v : pack.bsIndex) ++csr.offset[v + 1];
  for (std::size_t v = 0; v < V; ++v) csr.offset[v + 1] += csr.offset[v];
  const std::size_t N = pack.bsIndex.size();
  csr.channel.resize(N);
  csr.delta.resize(N * 3);
  std::vector<std::uint32_t> next(csr.offset.begin(), csr.offset.end() - 1);
  for (const core::OrlTarget& t : pack.targets)
    for (std::size_t e = t.offset; e < t.offset + t.count; ++e) {
      const std::uint32_t at = next[pack.bsIndex[e]]++;
      csr.channel[at] = std::uint32_t(t.channel);
      for (std::size_t k = 0; k < 3; ++k) csr.delta[at * 3 + k] = t.scale * float(pack.bsDelta[e * 3 + k]);
    }
  return csr;
}

struct GpuOrl::Impl {
  QRhi* rhi = nullptr;
  const core::OrlCharacter* character = nullptr;
  std::unique_ptr<core::OrlPoser> poser;
  GnmRoute route = GnmRoute::Gpu;
  std::size_t V = 0, J = 0, C = 0, entries = 0;
  std::unique_ptr<QRhiBuffer> params, neutral, csrOffset, csrChannel, csrDelta, skinIndex, skinWeight, skinRows,
      weights, posed;
  std::unique_ptr<QRhiShaderResourceBindings> srb;
  std::unique_ptr<QRhiComputePipeline> pipeline;
  PendingUploads uploads;  // the one-time uploads
  std::vector<float> jointOutputs, channelWeights, rows, cpuPosed;
};

GpuOrl::GpuOrl(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
GpuOrl::~GpuOrl() = default;

core::Expected<std::unique_ptr<GpuOrl>> GpuOrl::create(RhiDevice& device, const core::OrlCharacter& character,
                                                       GnmRoute route) {
  if (!device.supportsCompute())
    return makeError(ErrorCode::Unsupported, "the GPU backend has no compute shaders: characters need them");
  const core::OrlPack& pack = *character.pack;
  auto d = std::make_unique<Impl>();
  d->rhi = device.rhi();
  d->character = &character;
  d->route = route;
  d->V = pack.vertexCount;
  d->J = pack.jointCount;
  // Channels: the pack's count, else the DNA's. A character without a DNA
  // (a pack under test) takes outputs only (setOutputs).
  d->C = pack.channelCount ? pack.channelCount : (character.dna ? character.dna->blendShapeCount() : 0);
  if (character.dna) {
    auto poser = core::OrlPoser::create(character);
    if (!poser) return poser.error();
    d->poser = std::move(poser).value();
  }
  d->jointOutputs.assign(d->J * 9, 0.0f);
  d->channelWeights.assign(d->C, 0.0f);
  QRhi* rhi = d->rhi;
  d->posed = newStorageBuffer(rhi, d->V * 12, QRhiBuffer::StorageBuffer | QRhiBuffer::VertexBuffer);
  if (!d->posed) return makeError(ErrorCode::Gpu, "cannot allocate the ORL posed vertex buffer");
  if (route == GnmRoute::Cpu) return std::unique_ptr<GpuOrl>(new GpuOrl(std::move(d)));

  auto shader = loadShader("orl_deform.comp");
  if (!shader) return shader.error();
  const OrlCsr csr = buildOrlCsr(pack);
  d->entries = csr.channel.size();
  const std::size_t I = std::size_t(pack.maxInfluence);
  ComputeLayout layout;
  d->params = layout.uniform(gpu::kOrlParamsBinding, newUniformBuffer(rhi, sizeof(gpu::OrlParams)));
  d->neutral = layout.read(gpu::kOrlNeutral, newStorageBuffer(rhi, d->V * 12));
  d->csrOffset = layout.read(gpu::kOrlCsrOffset, newStorageBuffer(rhi, csr.offset.size() * 4));
  d->csrChannel = layout.read(gpu::kOrlCsrChannel, newStorageBuffer(rhi, csr.channel.size() * 4));
  d->csrDelta = layout.read(gpu::kOrlCsrDelta, newStorageBuffer(rhi, csr.delta.size() * 4));
  d->skinIndex = layout.read(gpu::kOrlSkinIndex, newStorageBuffer(rhi, d->V * I * 4));
  d->skinWeight = layout.read(gpu::kOrlSkinWeight, newStorageBuffer(rhi, d->V * I * 4));
  d->skinRows = layout.read(gpu::kOrlSkinRows, newStorageBuffer(rhi, d->J * 48));
  d->weights = layout.read(gpu::kOrlWeights, newStorageBuffer(rhi, d->C * 4));
  layout.written(gpu::kOrlPosed, d->posed.get());
  if (!layout.ok()) return makeError(ErrorCode::Gpu, "cannot allocate the ORL GPU buffers");
  QRhiResourceUpdateBatch* batch = d->uploads.batch(rhi);
  const auto upload = [&](QRhiBuffer* b, const void* data, std::size_t bytes) {
    if (bytes) batch->uploadStaticBuffer(b, 0, int(bytes), data);
  };
  upload(d->neutral.get(), pack.neutral.data(), pack.neutral.size() * 4);
  upload(d->csrOffset.get(), csr.offset.data(), csr.offset.size() * 4);
  upload(d->csrChannel.get(), csr.channel.data(), csr.channel.size() * 4);
  upload(d->csrDelta.get(), csr.delta.data(), csr.delta.size() * 4);
  const std::vector<std::uint32_t> joints(pack.skinIndex.begin(), pack.skinIndex.end());  // u16 -> u32
  upload(d->skinIndex.get(), joints.data(), joints.size() * 4);
  upload(d->skinWeight.get(), pack.skinWeight.data(), pack.skinWeight.size() * 4);
  const gpu::OrlParams params{std::uint32_t(d->V), std::uint32_t(I), std::uint32_t(d->C), std::uint32_t(d->J)};
  batch->updateDynamicBuffer(d->params.get(), 0, sizeof(params), &params);

  if (!layout.createPipeline(rhi, *shader, d->srb, d->pipeline))
    return makeError(ErrorCode::Gpu, "cannot create the ORL compute pipeline");
  return std::unique_ptr<GpuOrl>(new GpuOrl(std::move(d)));
}

core::Expected<void> GpuOrl::setControls(std::span<const float> values, core::DnaControlMode mode) {
  Impl& d = *m_impl;
  if (!d.poser) return makeError(ErrorCode::Usage, "the ORL pack has no DNA to evaluate controls with");
  if (auto ok = d.poser->evaluate(values, mode); !ok) return ok;
  return setOutputs(d.poser->jointOutputs(), d.poser->channelWeights());
}

core::Expected<void> GpuOrl::setOutputs(std::span<const float> jointOutputs, std::span<const float> channelWeights) {
  Impl& d = *m_impl;
  const core::OrlPack& pack = *d.character->pack;
  if (jointOutputs.size() != d.J * 9 || channelWeights.size() != d.C)
    return makeError(ErrorCode::Usage, "the ORL outputs do not match the pack's joints and channels");
  d.jointOutputs.assign(jointOutputs.begin(), jointOutputs.end());
  d.channelWeights.assign(channelWeights.begin(), channelWeights.end());
  if (d.route == GnmRoute::Cpu) {
    auto posed = core::orlDeform(pack, jointOutputs, channelWeights);
    if (!posed) return posed.error();
    d.cpuPosed = std::move(posed).value();
    return {};
  }
  const auto worlds = core::orlJointWorlds(pack, jointOutputs);
  d.rows.resize(d.J * 12);
  for (std::size_t j = 0; j < d.J; ++j) {
    const glm::dmat4 skin = worlds[j] * pack.inverseBind[j];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c)
        d.rows[j * 12 + std::size_t(r * 4 + c)] = float(skin[c][r]);  // row r of a column-major matrix
  }
  return {};
}

void GpuOrl::flushUploads(QRhiCommandBuffer* cb) {
  m_impl->uploads.flush(cb);
}

void GpuOrl::encode(QRhiCommandBuffer* cb) {
  Impl& d = *m_impl;
  QRhiResourceUpdateBatch* batch = d.uploads.takeOrBegin(d.rhi);
  // The CPU deformed the vertices in setControls.
  if (d.route == GnmRoute::Cpu) return uploadCpuPosed(d.rhi, cb, batch, d.posed.get(), d.cpuPosed, "orl upload");
  if (!d.rows.empty()) batch->uploadStaticBuffer(d.skinRows.get(), 0, int(d.rows.size() * 4), d.rows.data());
  if (d.C) batch->uploadStaticBuffer(d.weights.get(), 0, int(d.C * 4), d.channelWeights.data());
  dispatchComputePass(cb, batch, d.pipeline.get(), nullptr, gpu::groupsFor(d.V, gpu::kOrlGroupSize));
  markPass(d.rhi, cb, "orl deform");
}

core::Expected<void> GpuOrl::runOffscreenFrame() {
  return runOffscreenComputeFrame(m_impl->rhi, "ORL", [&](QRhiCommandBuffer* cb) { encode(cb); });
}

QRhiBuffer* GpuOrl::posedBuffer() const {
  return m_impl->posed.get();
}
std::span<const float> GpuOrl::cpuPosed() const {
  return m_impl->cpuPosed;
}
std::span<const float> GpuOrl::jointOutputs() const {
  return m_impl->jointOutputs;
}
std::span<const float> GpuOrl::channelWeights() const {
  return m_impl->channelWeights;
}
std::size_t GpuOrl::vertexCount() const {
  return m_impl->V;
}
std::size_t GpuOrl::csrEntries() const {
  return m_impl->entries;
}

BufferList GpuOrl::buffers() const {
  const Impl& d = *m_impl;
  if (d.route == GnmRoute::Cpu) return {bufferBytes("ORL posed vertices", d.posed.get())};
  return {bufferBytes("ORL parameters", d.params.get()),
          bufferBytes("ORL neutral", d.neutral.get()),
          bufferBytes("ORL blendshape CSR row offsets", d.csrOffset.get()),
          bufferBytes("ORL blendshape CSR channels", d.csrChannel.get()),
          bufferBytes("ORL blendshape CSR deltas", d.csrDelta.get()),
          bufferBytes("ORL skin indices", d.skinIndex.get()),
          bufferBytes("ORL skin weights", d.skinWeight.get()),
          bufferBytes("ORL joint skin rows", d.skinRows.get()),
          bufferBytes("ORL channel weights", d.weights.get()),
          bufferBytes("ORL posed vertices", d.posed.get())};
}

core::Expected<std::vector<float>> orlDeformOnGpu(RhiDevice& device, const core::OrlCharacter& character,
                                                  std::span<const float> jointOutputs,
                                                  std::span<const float> channelWeights) {
  auto orl = GpuOrl::create(device, character);
  if (!orl) return orl.error();
  if (auto ok = (*orl)->setOutputs(jointOutputs, channelWeights); !ok) return ok.error();
  const std::size_t V = character.pack->vertexCount;
  QRhiBufferReadbackResult result;
  auto ran = runOffscreenComputeFrame(device.rhi(), "ORL", [&](QRhiCommandBuffer* cb) {
    (*orl)->encode(cb);
    QRhiResourceUpdateBatch* readback = device.rhi()->nextResourceUpdateBatch();
    readback->readBackBuffer((*orl)->posedBuffer(), 0, int(V * 12), &result);
    cb->resourceUpdate(readback);
  });
  if (!ran) return ran.error();
  std::vector<float> out(V * 3);
  std::memcpy(out.data(), result.data.constData(), out.size() * 4);
  return out;
}

}  // namespace riglens::render
