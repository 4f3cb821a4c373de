#include "riglens/render/character/gpu_character.h"

#include <QtGui/private/qrhi_p.h>

#include <algorithm>
#include <cstring>

#include "device/compute_buffers.h"
#include "device/gpu_layouts.h"
#include "device/pending_uploads.h"
#include "device/shader_library.h"
#include "riglens/core/character/head_ext.h"
#include "riglens/render/character/gnm_launch.h"

namespace riglens::render {

using core::ErrorCode;
using core::makeError;

namespace {

struct ActiveTerm {
  std::uint32_t index;
  float scale;
};

// Above this share of active coefficients the dense path (every row read
// once with wide loads) beats walking the active list (3 scattered halves
// per coefficient and vertex, one invocation a vertex). Measured on the H200
// at V 17,821, E 383: dense 0.0215 ms whatever the active count, the walk
// 0.0276 ms at 30 active (about 0.9 us per coefficient), so the walk wins
// below about 24 active, a sixteenth.
constexpr std::size_t kDenseDivisor = 16;

}  // namespace

struct GpuGnm::Impl {
  QRhi* rhi = nullptr;
  std::size_t V = 0, E = 0, J = 0;
  std::size_t rowLanes = 0;  // halves per padded basis row
  std::unique_ptr<QRhiBuffer> params, neutral, basis, actives, eyeWeights, stitch, skinIndex, skinWeight, skin, posed,
      laneScales;
  std::vector<float> scales;  // per half of a row, for the dense path
  std::unique_ptr<QRhiShaderResourceBindings> srb;
  std::unique_ptr<QRhiComputePipeline> pipeline;
  PendingUploads uploads;  // the one-time uploads, consumed by the first encode
  gpu::GnmParams frame{};
  std::vector<ActiveTerm> active;
  std::vector<float> skinMatrices;
  bool hasStitch = false;
  const core::AosRigPack* pack = nullptr;
  GnmRoute route = GnmRoute::Gpu;
  std::uint32_t groupSize = kGnmDefaultGroupSize;  // the kernel's workgroup size (gnm_launch.h)
  std::vector<float> cpuPosed;                     // GnmRoute::Cpu: the frame's posed vertices, uploaded by encode

  // The one-time uploads: neutral, the basis as the pack's halves (each row
  // padded to rowLanes), eye weights, stitch, skin indices and weights.
  void stageUploads(std::size_t basisBytes) {
    const core::AosRigPack& from = *pack;
    QRhiResourceUpdateBatch* upload = uploads.batch(rhi);
    upload->uploadStaticBuffer(neutral.get(), 0, int(V * 12), from.neutral.data());
    {
      std::vector<std::uint16_t> lanes(basisBytes / 2, 0);
      const std::size_t row = E * 3;
      for (std::size_t v = 0; v < V; ++v)
        std::copy_n(from.basisHalf.begin() + std::ptrdiff_t(v * row), row,
                    lanes.begin() + std::ptrdiff_t(v * rowLanes));
      upload->uploadStaticBuffer(basis.get(), 0, int(basisBytes), lanes.data());
    }
    upload->uploadStaticBuffer(eyeWeights.get(), 0, int(V * 8), from.eyeWeights.data());
    if (hasStitch) upload->uploadStaticBuffer(stitch.get(), 0, int(V * 12), from.stitchLocal.data());
    std::vector<std::uint32_t> joints(from.skinIndex.begin(),
                                      from.skinIndex.end());  // u16 -> u32 for uvec4
    upload->uploadStaticBuffer(skinIndex.get(), 0, int(V * 16), joints.data());
    upload->uploadStaticBuffer(skinWeight.get(), 0, int(V * 16), from.skinWeight.data());
  }
};

GpuGnm::GpuGnm(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
GpuGnm::~GpuGnm() = default;

GnmRoute defaultGnmRoute(const RhiDevice& device) {
  const QString forced = qEnvironmentVariable("RIGLENS_GNM");
  if (forced == QLatin1String("gpu")) return GnmRoute::Gpu;
  if (forced == QLatin1String("cpu")) return GnmRoute::Cpu;
  return device.isCpuDevice() ? GnmRoute::Cpu : GnmRoute::Gpu;
}

core::Expected<std::unique_ptr<GpuGnm>> GpuGnm::create(RhiDevice& device, const core::AosRigPack& pack, GnmRoute route,
                                                       std::uint32_t groupSize) {
  if (!device.supportsCompute())
    return makeError(ErrorCode::Unsupported, "the GPU backend has no compute shaders: characters need them");
  if (route == GnmRoute::Cpu) {  // only the posed vertices live on the GPU
    auto d = std::make_unique<Impl>();
    d->rhi = device.rhi();
    d->pack = &pack;
    d->route = GnmRoute::Cpu;
    d->V = pack.vertexCount;
    d->E = pack.coeffCount;
    d->posed = newStorageBuffer(d->rhi, d->V * 12, QRhiBuffer::StorageBuffer | QRhiBuffer::VertexBuffer);
    if (!d->posed) return makeError(ErrorCode::Gpu, "cannot allocate the GNM posed vertex buffer");
    return std::unique_ptr<GpuGnm>(new GpuGnm(std::move(d)));
  }
  if (pack.basisHalf.empty())
    return makeError(ErrorCode::Unsupported, "the GPU GNM pass takes an fp16 basis (this pack stores i8)");
  if (groupSize == 0) groupSize = gnmGroupSizeFor(pack.vertexCount, device.multiprocessors());
  if (std::find(kGnmGroupSizes.begin(), kGnmGroupSizes.end(), groupSize) == kGnmGroupSizes.end())
    return makeError(ErrorCode::Usage,
                     "the GNM kernel is not built for groups of " + std::to_string(groupSize) + " invocations");
  auto shader = loadShader(("gnm." + std::to_string(groupSize) + ".comp").c_str());
  if (!shader) return shader.error();
  auto d = std::make_unique<Impl>();
  d->groupSize = groupSize;
  d->rhi = device.rhi();
  d->pack = &pack;
  d->V = pack.vertexCount;
  d->E = pack.coeffCount;
  d->J = pack.joints.size();
  QRhi* rhi = d->rhi;
  // Rows padded to whole uvec4s of halves for the dense path's wide loads.
  d->rowLanes = (d->E * 3 + gpu::kGnmRowAlign - 1) / gpu::kGnmRowAlign * gpu::kGnmRowAlign;
  const std::size_t basisBytes = std::max<std::size_t>(d->V * d->rowLanes * 2, 16);
  if (basisBytes > std::size_t(128) << 20)
    return makeError(ErrorCode::Unsupported, "the basis (" + std::to_string(basisBytes >> 20) +
                                                 " MiB) exceeds the 128 MiB storage binding limit");
  d->hasStitch = pack.stitchLocal.size() == d->V * 3;
  ComputeLayout layout;
  d->params = layout.uniform(gpu::kGnmParamsBinding, newUniformBuffer(rhi, sizeof(gpu::GnmParams)));
  d->neutral = layout.read(gpu::kGnmNeutral, newStorageBuffer(rhi, d->V * 12));
  d->basis = layout.read(gpu::kGnmBasis, newStorageBuffer(rhi, basisBytes));
  d->actives =
      layout.read(gpu::kGnmActives, newStorageBuffer(rhi, std::max<std::size_t>(d->E, 1) * sizeof(ActiveTerm)));
  d->eyeWeights = layout.read(gpu::kGnmEyeWeights, newStorageBuffer(rhi, d->V * 8));
  d->stitch = layout.read(gpu::kGnmStitch, newStorageBuffer(rhi, d->hasStitch ? d->V * 12 : 16));
  d->skinIndex = layout.read(gpu::kGnmSkinIndex, newStorageBuffer(rhi, d->V * 16));
  d->skinWeight = layout.read(gpu::kGnmSkinWeight, newStorageBuffer(rhi, d->V * 16));
  d->skin = layout.read(gpu::kGnmSkin, newStorageBuffer(rhi, d->J * 64));
  d->posed = layout.written(gpu::kGnmPosed,
                            newStorageBuffer(rhi, d->V * 12, QRhiBuffer::StorageBuffer | QRhiBuffer::VertexBuffer));
  d->laneScales = layout.read(gpu::kGnmLaneScales, newStorageBuffer(rhi, d->rowLanes * 4));
  if (!layout.ok()) return makeError(ErrorCode::Gpu, "cannot allocate the GNM GPU buffers");

  d->stageUploads(basisBytes);

  if (!layout.createPipeline(rhi, *shader, d->srb, d->pipeline))
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
  if (d.route == GnmRoute::Cpu) {
    auto posed = core::gnmPose(*d.pack, headExt, &joints, 0);
    if (!posed) return posed.error();
    d.cpuPosed = std::move(posed).value();
    return {};
  }
  gpu::GnmParams& f = d.frame;
  f = {};
  f.vertexCount = std::uint32_t(d.V);
  f.rowLanes = std::uint32_t(d.rowLanes);
  f.activeCount = std::uint32_t(d.active.size());
  f.flags = d.hasStitch ? gpu::kGnmStitchFlag : 0u;
  d.scales.clear();
  if (d.active.size() * kDenseDivisor > d.E && d.rowLanes <= gpu::kGnmMaxDenseLanes) {
    f.flags |= gpu::kGnmDenseFlag;
    d.scales.assign(d.rowLanes, 0.0f);
    for (const ActiveTerm& a : d.active)
      for (std::size_t k = 0; k < 3; ++k) d.scales[a.index * 3 + k] = a.scale;
  }
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

std::span<const float> GpuGnm::cpuPosed() const {
  return m_impl->cpuPosed;
}

void GpuGnm::flushUploads(QRhiCommandBuffer* cb) {
  m_impl->uploads.flush(cb);
}

void GpuGnm::encode(QRhiCommandBuffer* cb) {
  Impl& d = *m_impl;
  QRhiResourceUpdateBatch* batch = d.uploads.takeOrBegin(d.rhi);
  // The CPU posed the vertices in setControls.
  if (d.route == GnmRoute::Cpu) return uploadCpuPosed(d.rhi, cb, batch, d.posed.get(), d.cpuPosed, "gnm upload");
  batch->updateDynamicBuffer(d.params.get(), 0, sizeof(gpu::GnmParams), &d.frame);
  if (!d.active.empty())
    batch->uploadStaticBuffer(d.actives.get(), 0, int(d.active.size() * sizeof(ActiveTerm)), d.active.data());
  if (!d.skinMatrices.empty())
    batch->uploadStaticBuffer(d.skin.get(), 0, int(d.skinMatrices.size() * 4), d.skinMatrices.data());
  const bool dense = (d.frame.flags & gpu::kGnmDenseFlag) != 0;
  if (dense) batch->uploadStaticBuffer(d.laneScales.get(), 0, int(d.scales.size() * 4), d.scales.data());
  const std::uint32_t verticesPerGroup = gnmVerticesPerGroup(d.groupSize, dense);
  // The frame's inputs (controls, joints) copied in before the kernel, timed
  // as their own pass so "gnm" is the kernel alone, as a GEMV peer is timed.
  cb->resourceUpdate(batch);
  markPass(d.rhi, cb, "gnm inputs");
  dispatchComputePass(cb, nullptr, d.pipeline.get(), nullptr, gpu::groupsFor(d.V, verticesPerGroup));
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
  if (d.route == GnmRoute::Cpu) return {bufferBytes("GNM posed vertices", d.posed.get())};
  return {bufferBytes("GNM parameters", d.params.get()),      bufferBytes("GNM neutral", d.neutral.get()),
          bufferBytes("GNM basis (fp16)", d.basis.get()),     bufferBytes("GNM active coefficients", d.actives.get()),
          bufferBytes("GNM eye weights", d.eyeWeights.get()), bufferBytes("GNM seam stitch", d.stitch.get()),
          bufferBytes("GNM skin indices", d.skinIndex.get()), bufferBytes("GNM skin weights", d.skinWeight.get()),
          bufferBytes("GNM skin matrices", d.skin.get()),     bufferBytes("GNM posed vertices", d.posed.get()),
          bufferBytes("GNM lane scales", d.laneScales.get())};
}

std::size_t GpuGnm::gpuBytes() const {
  return totalBytes(buffers());
}
std::size_t GpuGnm::activeCount() const {
  return m_impl->active.size();
}
std::uint32_t GpuGnm::groupSize() const {
  return m_impl->groupSize;
}

core::Expected<std::vector<float>> gnmPoseOnGpu(RhiDevice& device, const core::AosRigPack& pack,
                                                std::span<const float> headExt, const core::GnmJointState* joints,
                                                std::uint32_t groupSize) {
  auto gnm = GpuGnm::create(device, pack, GnmRoute::Gpu, groupSize);
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
