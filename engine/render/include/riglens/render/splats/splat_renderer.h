// SplatRenderer: draws 3D gaussians (a .ply scene or a lifted character)
// from a fixed-capacity sink. Per frame, on the GPU: the projection pass
// (shaders/splat_project.comp: conic, radius, culling, sort keys), then one
// of two rasterisers (SplatRaster). Compute (the default): one key per
// screen tile a splat touches, sorted by (tile, depth), each tile blended
// front to back with early termination, the image drawn over the frame.
// Quads: the splats sorted back to front (GpuRadixSort) and drawn as
// premultiplied alpha-blended quads (shaders/splat.vert|frag). The camera
// comes from the FrameState like the rig renderer's. Projection and sort run
// only when the view, the output size or the gaussians changed; otherwise
// the last result is drawn again. Both depth-test (not write) against what
// the pass drew before them, so splats composite with the voxel renderer
// (the compute image at the depth where each pixel turns half opaque).
#pragma once

#include <glm/vec3.hpp>
#include <memory>

#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/core/splats/splat_sink.h"
#include "riglens/render/device/frame_drawable.h"
#include "riglens/render/device/gpu_resources.h"
#include "riglens/render/device/rhi_device.h"
#include "riglens/render/splats/splat_policy.h"

namespace riglens::render {

// Compute on GPUs, Cpu on CPU rasterisers (see SplatRaster);
// RIGLENS_SPLAT_RASTER=compute|quads|auto|cpu overrides it (QA, the app).
SplatRaster defaultSplatRaster(const RhiDevice& device);

class SplatRenderer : public FrameDrawable {
 public:
  explicit SplatRenderer(RhiDevice& device);
  ~SplatRenderer() override;

  // Uploaded on the next prepare(); the sink's capacity is the cloud's size.
  void setCloud(std::shared_ptr<const core::GaussianCloud> cloud);
  // Or draw a sink another pass writes on the GPU (GpuLift::sink); the
  // buffers must outlive this renderer's use of them. Call
  // markGaussiansChanged() after each frame that rewrote them.
  void setSink(const SplatSinkBuffers& sink);
  // The same gaussians the sink holds, also on the CPU (an owner that lifts
  // them there): SplatRaster::Cpu draws these (null: the sink's, as Auto).
  // Set again, or call markGaussiansChanged(), whenever they change.
  void setCpuSink(std::shared_ptr<const core::SplatSink> sink);
  // The CPU rasteriser's time for the last frame it drew (0 on the GPU routes).
  double cpuRasterMs() const;

  bool prepare(QRhiCommandBuffer* cb, QRhiRenderPassDescriptor* renderPass, int sampleCount, QSize outputSize,
               const FrameState& state) override;
  void record(QRhiCommandBuffer* cb, QRect viewport, QSize targetSize) override;
  bool writesTarget() const override;
  bool writeTarget(QRhiCommandBuffer* cb, QRhiTexture* target, const glm::vec4& background) override;
  std::string failure() const override;
  bool wantsAnotherFrame() const override;  // the compute tiles' key count is pending or outgrew their room

  // The gaussians' data changed on the GPU (a lift wrote the sink): the next
  // frame re-projects and re-sorts even if the view did not move.
  void markGaussiansChanged();
  // How many frames ran the projection + sort (the rest reused the order).
  std::size_t sortedFrames() const;
  // Owner-supplied bounds of every gaussian this renderer may draw (the
  // renderer never recomputes them from the GPU): frames whose frustum misses
  // the sphere skip projection, sort and quads. A non-positive radius clears it.
  void setBoundingSphere(glm::vec3 centre, float radius);
  std::size_t culledFrames() const;  // frames skipped that way
  // Benchmarks only: cut frames after a pass (SplatPasses). `rig` is ignored here.
  void setPasses(SplatPasses passes);
  // The device's default (defaultSplatRaster) until set; from the next frame.
  void setRaster(SplatRaster raster);
  // Tests and benchmarks: how the compute tiles cut long runs of keys into
  // parts, from the next frame. Until set, by the cloud's size and the
  // device (RIGLENS_RASTER_PART_KEYS and RIGLENS_RASTER_GROUPS_AT_ONCE where given).
  void setTileParts(SplatTileParts parts);
  SplatRaster raster() const;
  // What the last frame drew with (Compute or Quads): Auto's choice, and
  // Compute falls back to quads for a view whose tile keys exceed 32M.
  SplatRaster rasterUsed() const;
  // The (tile, splat) pairs of the last frame the tiles finished (the CPU
  // tiles': of the last frame they drew); 0 before one.
  std::uint32_t tileKeys() const;
  // The most pairs one tile held in the last frame the CPU tiles drew (0
  // before one, and for the GPU's: only the GPU holds those).
  std::uint32_t longestTileKeys() const;
  // The tiles holding at least one pair in the last frame the CPU tiles or
  // the compute tiles drew (the compute tiles' where the device reads back
  // every frame); 0 before one.
  std::uint32_t tilesHoldingKeys() const;
  std::size_t count() const;  // gaussians the sink holds (what each frame projects)

  // The buffers this renderer owns (a sink set with setSink is its owner's).
  BufferList buffers() const;
  std::size_t gpuBytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace riglens::render
