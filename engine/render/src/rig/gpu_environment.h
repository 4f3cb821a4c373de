// GpuEnvironment: the PBR look's image-based light on the GPU, made from an
// environment map (core::EnvironmentMap) by compute passes: the prefiltered
// specular map (equirectangular, one GGX roughness a mip level: level k is
// roughness k / (levels - 1)), the diffuse irradiance map, and the split
// sum's BRDF table (made once). The three textures are made once and keep
// their size, so the materials' bindings name them for good; a new map only
// re-runs the passes into them. Private to engine/render.
#pragma once

#include <QtGui/private/qrhi_p.h>

#include <memory>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/view/environment.h"

namespace riglens::render {

class GpuEnvironment {
 public:
  // The studio environment (core::studioEnvironment), made once a process.
  static std::shared_ptr<const core::EnvironmentMap> studio();

  static constexpr int kPrefilteredWidth = 512, kPrefilteredLevels = 7;
  static constexpr int kIrradianceWidth = 32;
  static constexpr int kBrdfLutSize = 64;
  // The widest source the passes read (wider maps are box-filtered to it on the CPU).
  static constexpr int kMaxSourceWidth = 2048;
  // The irradiance pass sums every texel of the source mip this wide.
  static constexpr int kIrradianceSourceWidth = 64;
  // GGX samples per texel of prefiltered level 1 (each read from the source
  // mip that matches its solid angle); each level down has a quarter of the
  // texels and four times the samples (every level costs the same), up to
  // kMaxPrefilterSamples: a rough lobe spans bright softboxes and dark floor
  // at once and needs them (256 left 6% noise at roughness 1).
  static constexpr int kPrefilterSamples = 256, kMaxPrefilterSamples = 4096, kBrdfLutSamples = 1024;

  explicit GpuEnvironment(QRhi* rhi);
  ~GpuEnvironment();

  // The textures and samplers; false when QRhi refuses one.
  bool create();
  // Whether this device makes image-based light (it needs compute shaders).
  bool supported() const;
  // Records the passes that make the maps from `map` when it is not the map
  // they were made from (the BRDF table the first time): its upload goes
  // into `batch`, which the first pass consumes; `batch` is then a fresh
  // one. Returns whether it recorded anything.
  core::Expected<bool> update(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch*& batch,
                              std::shared_ptr<const core::EnvironmentMap> map);
  // The maps hold an environment's light.
  bool ready() const { return m_ready; }

  QRhiTexture* prefiltered() const { return m_prefiltered.get(); }
  QRhiTexture* irradiance() const { return m_irradiance.get(); }
  QRhiTexture* brdfLut() const { return m_brdfLut.get(); }
  QRhiSampler* mapSampler() const { return m_mapSampler.get(); }  // wraps across, clamps at the poles
  QRhiSampler* lutSampler() const { return m_lutSampler.get(); }
  std::size_t bytes() const;

 private:
  // One dispatch: its parameters and bindings (remade with each source).
  struct Pass {
    std::unique_ptr<QRhiBuffer> params;
    std::unique_ptr<QRhiShaderResourceBindings> bindings;
    QSize target;
  };
  bool makeSource(QRhiResourceUpdateBatch* batch, const core::EnvironmentMap& map);
  bool makePasses(QRhiResourceUpdateBatch* batch);
  bool makePipelines();
  void record(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch);

  QRhi* m_rhi;
  std::unique_ptr<QRhiTexture> m_prefiltered, m_irradiance, m_brdfLut, m_source;
  std::unique_ptr<QRhiSampler> m_mapSampler, m_lutSampler;
  std::vector<Pass> m_passes;
  std::unique_ptr<QRhiComputePipeline> m_prefilterPipeline, m_irradiancePipeline, m_lutPipeline;
  std::shared_ptr<const core::EnvironmentMap> m_map;  // what the maps were made from
  int m_sourceLevels = 1;
  QSize m_sourceSize;
  bool m_ready = false, m_lutMade = false;
};

}  // namespace riglens::render

namespace riglens::render {
// The pipeline that draws the environment behind a model
// (environment_background.vert/.frag: no vertex input, no depth), with
// `bindings` (the frame block and the prefiltered map) as its layout.
std::unique_ptr<QRhiGraphicsPipeline> newEnvironmentBackgroundPipeline(QRhi* rhi, QRhiRenderPassDescriptor* rp,
                                                                       int samples,
                                                                       QRhiShaderResourceBindings* bindings);
}  // namespace riglens::render
