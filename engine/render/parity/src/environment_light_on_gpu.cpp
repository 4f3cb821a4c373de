#include "riglens/render/parity/environment_light_on_gpu.h"

#include <QtGui/private/qrhi_p.h>

#include "device/compute_buffers.h"
#include "rig/gpu_environment.h"
#include "riglens/core/base/half_float.h"

namespace riglens::render {

namespace {

// A half-float RGBA level as floats.
LightMapLevel levelOf(const QRhiReadbackResult& result) {
  LightMapLevel level;
  level.width = result.pixelSize.width();
  level.height = result.pixelSize.height();
  const auto* halves = reinterpret_cast<const std::uint16_t*>(result.data.constData());
  level.rgba.resize(std::size_t(level.width) * std::size_t(level.height) * 4);
  for (std::size_t i = 0; i < level.rgba.size() && i * 2 < std::size_t(result.data.size()); ++i)
    level.rgba[i] = core::halfToFloat(halves[i]);
  return level;
}

}  // namespace

core::Expected<EnvironmentLightMaps> environmentLightOnGpu(RhiDevice& device,
                                                           std::shared_ptr<const core::EnvironmentMap> map) {
  QRhi* rhi = device.rhi();
  GpuEnvironment environment(rhi);
  if (!environment.supported())
    return core::makeError(core::ErrorCode::Unsupported, "image-based light needs compute shaders");
  if (!environment.create()) return core::makeError(core::ErrorCode::Gpu, "cannot create the environment's maps");
  std::vector<QRhiReadbackResult> prefiltered(GpuEnvironment::kPrefilteredLevels);
  QRhiReadbackResult irradiance, lut;
  core::Expected<bool> made = false;
  auto ran = runOffscreenComputeFrame(rhi, "environment light", [&](QRhiCommandBuffer* cb) {
    QRhiResourceUpdateBatch* batch = rhi->nextResourceUpdateBatch();
    made = environment.update(cb, batch, std::move(map));
    for (int level = 0; level < GpuEnvironment::kPrefilteredLevels; ++level) {
      QRhiReadbackDescription description(environment.prefiltered());
      description.setLevel(level);
      batch->readBackTexture(description, &prefiltered[std::size_t(level)]);
    }
    batch->readBackTexture(QRhiReadbackDescription(environment.irradiance()), &irradiance);
    batch->readBackTexture(QRhiReadbackDescription(environment.brdfLut()), &lut);
    cb->resourceUpdate(batch);
  });
  if (!ran) return ran.error();
  if (!made) return made.error();
  if (!*made) return core::makeError(core::ErrorCode::Usage, "an empty environment map makes no light");
  EnvironmentLightMaps out;
  for (const QRhiReadbackResult& level : prefiltered) out.prefiltered.push_back(levelOf(level));
  out.irradiance = levelOf(irradiance);
  out.brdfLut = levelOf(lut);
  return out;
}

}  // namespace riglens::render
