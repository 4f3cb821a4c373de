#include "rig/gpu_environment.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "device/compute_buffers.h"
#include "device/gpu_layouts.h"
#include "device/shader_library.h"
#include "riglens/core/base/half_float.h"

namespace riglens::render {

namespace {

core::Error gpuError(const std::string& what) {
  return core::makeError(core::ErrorCode::Gpu, "riglens::render: " + what);
}

// The dispatches of one update: the BRDF table, the prefiltered levels, the irradiance.
constexpr int kLutPass = 0, kFirstPrefilterPass = 1;
constexpr int kIrradiancePass = kFirstPrefilterPass + GpuEnvironment::kPrefilteredLevels;
constexpr int kPassCount = kIrradiancePass + 1;

constexpr float kLargestHalf = 65504.0f;

int groups(int size) {
  return (size + gpu::kEnvGroupSize - 1) / gpu::kEnvGroupSize;
}

}  // namespace

std::shared_ptr<const core::EnvironmentMap> GpuEnvironment::studio() {
  static const auto map = std::make_shared<const core::EnvironmentMap>(core::studioEnvironment());
  return map;
}

GpuEnvironment::GpuEnvironment(QRhi* rhi) : m_rhi(rhi) {}
GpuEnvironment::~GpuEnvironment() = default;

bool GpuEnvironment::supported() const {
  return m_rhi->isFeatureSupported(QRhi::Compute);
}

bool GpuEnvironment::create() {
  const auto texture = [&](std::unique_ptr<QRhiTexture>& t, QSize size, QRhiTexture::Flags flags) {
    t.reset(m_rhi->newTexture(QRhiTexture::RGBA16F, size, 1, flags | QRhiTexture::UsedWithLoadStore));
    return t->create();
  };
  if (!texture(m_prefiltered, QSize(kPrefilteredWidth, kPrefilteredWidth / 2), QRhiTexture::MipMapped) ||
      !texture(m_irradiance, QSize(kIrradianceWidth, kIrradianceWidth / 2), {}) ||
      !texture(m_brdfLut, QSize(kBrdfLutSize, kBrdfLutSize), {}))
    return false;
  m_mapSampler.reset(m_rhi->newSampler(QRhiSampler::Linear, QRhiSampler::Linear, QRhiSampler::Linear,
                                       QRhiSampler::Repeat, QRhiSampler::ClampToEdge));
  m_lutSampler.reset(m_rhi->newSampler(QRhiSampler::Linear, QRhiSampler::Linear, QRhiSampler::None,
                                       QRhiSampler::ClampToEdge, QRhiSampler::ClampToEdge));
  return m_mapSampler->create() && m_lutSampler->create();
}

std::size_t GpuEnvironment::bytes() const {
  // Half RGBA: 8 bytes a texel; a mip chain adds a third.
  const std::size_t prefiltered = std::size_t(kPrefilteredWidth) * (kPrefilteredWidth / 2) * 8 * 4 / 3;
  const std::size_t fixed = prefiltered + std::size_t(kIrradianceWidth) * (kIrradianceWidth / 2) * 8 +
                            std::size_t(kBrdfLutSize) * kBrdfLutSize * 8;
  return fixed + std::size_t(m_sourceSize.width()) * m_sourceSize.height() * 8 * 4 / 3;
}

bool GpuEnvironment::makeSource(QRhiResourceUpdateBatch* batch, const core::EnvironmentMap& full) {
  const core::EnvironmentMap reduced =
      full.width > kMaxSourceWidth ? core::downsampledEnvironment(full, kMaxSourceWidth) : core::EnvironmentMap{};
  const core::EnvironmentMap& map = reduced.empty() ? full : reduced;
  m_sourceSize = QSize(map.width, map.height);
  m_source.reset(m_rhi->newTexture(QRhiTexture::RGBA16F, m_sourceSize, 1,
                                   QRhiTexture::MipMapped | QRhiTexture::UsedWithGenerateMips));
  if (!m_source->create()) return false;
  m_sourceLevels = m_rhi->mipLevelsForSize(m_sourceSize);
  QByteArray halves(qsizetype(map.width) * map.height * 8, Qt::Uninitialized);
  auto* out = reinterpret_cast<std::uint16_t*>(halves.data());
  for (std::size_t t = 0; t < std::size_t(map.width) * std::size_t(map.height); ++t) {
    // Past the largest half (65504: a bright sun in a real HDR) is clamped, not infinite.
    for (int c = 0; c < 3; ++c) out[t * 4 + c] = core::floatToHalf(std::min(map.rgb[t * 3 + c], kLargestHalf));
    out[t * 4 + 3] = core::floatToHalf(1.0f);
  }
  batch->uploadTexture(m_source.get(),
                       QRhiTextureUploadDescription({0, 0, QRhiTextureSubresourceUploadDescription(halves)}));
  batch->generateMips(m_source.get());
  return true;
}

bool GpuEnvironment::makePipelines() {
  if (m_prefilterPipeline) return true;
  for (const auto& [pipeline, shader, pass] :
       {std::tuple{&m_prefilterPipeline, "env_prefilter.comp", kFirstPrefilterPass},
        std::tuple{&m_irradiancePipeline, "env_irradiance.comp", kIrradiancePass},
        std::tuple{&m_lutPipeline, "env_brdf_lut.comp", kLutPass}})
    if (!(*pipeline = newComputePipeline(m_rhi, shader, m_passes[std::size_t(pass)].bindings.get()))) return false;
  return true;
}

// Each pass's parameters (queued on `batch`) and bindings over the current source.
bool GpuEnvironment::makePasses(QRhiResourceUpdateBatch* batch) {
  m_passes.resize(kPassCount);
  const auto compute = QRhiShaderResourceBinding::ComputeStage;
  const float sourceWidth = float(m_sourceSize.width()), sourceHeight = float(m_sourceSize.height());
  const auto log2Ratio = [](float a, float b) { return std::max(std::log2(a / b), 0.0f); };
  for (int p = 0; p < kPassCount; ++p) {
    Pass& pass = m_passes[std::size_t(p)];
    gpu::EnvParams params{};
    QRhiTexture* target = m_prefiltered.get();
    int level = 0;
    if (p == kLutPass) {
      target = m_brdfLut.get();
      params.size = {kBrdfLutSize, kBrdfLutSize, kBrdfLutSamples, 1};
    } else if (p == kIrradiancePass) {
      target = m_irradiance.get();
      const float sourceLevel =
          std::min(std::round(log2Ratio(sourceWidth, kIrradianceSourceWidth)), float(m_sourceLevels - 1));
      params.size = {kIrradianceWidth, kIrradianceWidth / 2, 0, m_sourceLevels};
      params.sampling = {0.0f, sourceWidth, sourceHeight, sourceLevel};
    } else {
      level = p - kFirstPrefilterPass;
      const QSize size = m_rhi->sizeForMipLevel(level, m_prefiltered->pixelSize());
      const float roughness = float(level) / float(kPrefilteredLevels - 1);
      const int samples = std::min(kPrefilterSamples << (2 * std::max(level - 1, 0)), kMaxPrefilterSamples);
      params.size = {size.width(), size.height(), samples, m_sourceLevels};
      params.sampling = {roughness, sourceWidth, sourceHeight, log2Ratio(sourceWidth, float(size.width()))};
    }
    pass.target = QSize(params.size.x, params.size.y);
    if (!pass.params && !(pass.params = newUniformBuffer(m_rhi, sizeof(gpu::EnvParams)))) return false;
    batch->updateDynamicBuffer(pass.params.get(), 0, sizeof(params), &params);
    QVector<QRhiShaderResourceBinding> bindings = {
        QRhiShaderResourceBinding::uniformBuffer(gpu::kEnvParamsBinding, compute, pass.params.get()),
        QRhiShaderResourceBinding::imageStore(gpu::kEnvTarget, compute, target, level)};
    if (p != kLutPass)
      bindings.push_back(
          QRhiShaderResourceBinding::sampledTexture(gpu::kEnvSource, compute, m_source.get(), m_mapSampler.get()));
    // The same object re-created over the new source: the pipelines made
    // with it take any binding set of its layout.
    if (!pass.bindings) pass.bindings.reset(m_rhi->newShaderResourceBindings());
    pass.bindings->setBindings(bindings.cbegin(), bindings.cend());
    if (!pass.bindings->create()) return false;
  }
  return true;
}

void GpuEnvironment::record(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch) {
  cb->beginComputePass(batch);
  const auto dispatch = [&](QRhiComputePipeline* pipeline, const Pass& pass) {
    cb->setComputePipeline(pipeline);
    cb->setShaderResources(pass.bindings.get());
    cb->dispatch(groups(pass.target.width()), groups(pass.target.height()), 1);
    GpuTimer::countDispatch();
  };
  if (!m_lutMade) dispatch(m_lutPipeline.get(), m_passes[kLutPass]);
  for (int level = 0; level < kPrefilteredLevels; ++level)
    dispatch(m_prefilterPipeline.get(), m_passes[std::size_t(kFirstPrefilterPass + level)]);
  dispatch(m_irradiancePipeline.get(), m_passes[kIrradiancePass]);
  cb->endComputePass();
  markPass(m_rhi, cb, "environment");
}

core::Expected<bool> GpuEnvironment::update(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch*& batch,
                                            std::shared_ptr<const core::EnvironmentMap> map) {
  if (!map || map->empty() || !supported() || (map == m_map && m_ready)) return false;
  m_ready = false;
  if (!makeSource(batch, *map)) return gpuError("cannot create the environment's texture");
  if (!makePasses(batch) || !makePipelines()) return gpuError("cannot create the environment's passes");
  record(cb, batch);
  batch = m_rhi->nextResourceUpdateBatch();
  m_map = std::move(map);
  m_ready = m_lutMade = true;
  return true;
}

}  // namespace riglens::render

namespace riglens::render {

std::unique_ptr<QRhiGraphicsPipeline> newEnvironmentBackgroundPipeline(QRhi* rhi, QRhiRenderPassDescriptor* rp,
                                                                       int samples,
                                                                       QRhiShaderResourceBindings* bindings) {
  auto ps = newGraphicsPipeline(rhi, "environment_background.vert", "environment_background.frag");
  if (!ps) return nullptr;
  ps->setFlags(QRhiGraphicsPipeline::UsesScissor);
  ps->setDepthTest(false);
  ps->setDepthWrite(false);
  return createGraphicsPipeline(std::move(ps), rp, samples, bindings);
}

}  // namespace riglens::render
