// FrameDrawable: something that draws into a QRhi frame in two steps:
// prepare() outside any pass (uploads, uniforms, compute), record() inside
// the pass. RigRenderer (voxel rigs) and SplatRenderer (gaussians) are
// drawables; OffscreenCanvas and the app's viewport drive them.
#pragma once

#include <QtCore/QRect>
#include <QtCore/QSize>
#include <optional>
#include <string>
#include <string_view>

#include "riglens/render/device/frame_state.h"

class QRhiCommandBuffer;
class QRhiRenderPassDescriptor;

namespace riglens::render {

// Which passes of a splat frame run: all of them normally; benchmarks cut
// frames after a pass to see what the rest costs (GpuTimer gives each pass's
// own GPU time on Vulkan).
struct SplatPasses {
  bool rig = true;      // characters: GNM + lift (when the controls changed)
  bool project = true;  // projection (3D -> 2D conic, culling, sort keys)
  bool sort = true;     // radix sort of the keys
  bool raster = true;   // the blended quads, or the tiles of the compute rasteriser
};

// How splats reach the pixels. Compute: tiles blended front to back in a
// compute pass with early termination, then drawn over the frame in one
// triangle; Quads: one alpha-blended quad per splat, back to front, through
// the rasteriser; Auto: quads, unless the view's gaussians touch more than
// kAutoTileKeysPerSplat tiles each on average (large, piled-up gaussians),
// then compute. The default is chosen per device by measurement (bench_render
// BM_SplatFrame / BM_CharacterFrame, docs/benchmarks.md): Compute on GPUs
// (the NVIDIA H200: faster than quads on every scene measured), Auto on CPU
// rasterisers before Cpu existed (lavapipe: quads draw the sample character and dense scenes,
// 2-5 keys per splat, faster; compute draws the torus of 6 cm gaussians, 12
// keys per splat, 1.2-1.6x faster).
// Cpu: the CPU's rasteriser (core::rasteriseSplats, the compute tiles'
// arithmetic on the CPU's cores), its image drawn like Compute's; it needs
// the gaussians on the CPU (a cloud, or a sink the owner lifts there) and
// draws as Auto without them. Machines without a GPU draw with it: lavapipe
// runs the compute tiles' shared memory, barriers and sort at a fraction of
// what the same cores do natively (262k gaussians: 1.9 s through lavapipe,
// 0.23 s on the CPU, docs/benchmarks.md).
enum class SplatRaster { Compute, Quads, Auto, Cpu };
inline constexpr unsigned kAutoTileKeysPerSplat = 10;
const char* splatRasterName(SplatRaster raster);  // "compute", "quads", "auto", "cpu"
std::optional<SplatRaster> splatRasterNamed(std::string_view name);

class FrameDrawable {
 public:
  virtual ~FrameDrawable() = default;
  virtual bool prepare(QRhiCommandBuffer* cb, QRhiRenderPassDescriptor* renderPass, int sampleCount, QSize outputSize,
                       const FrameState& state) = 0;
  virtual void record(QRhiCommandBuffer* cb, QRect viewport, QSize targetSize) = 0;
  // How many passes the drawable splits its drawing into on a target that
  // keeps its contents between passes (OffscreenCanvas; a window's frame is
  // one pass and calls record()). Asked after prepare(). A CPU rasteriser
  // keeps what it bins for a pass until the pass ends (lavapipe, large
  // sample at 4x MSAA: ~450 MB for 2.7M triangles in one pass, docs/benchmarks.md).
  virtual int passesWanted() const { return 1; }
  // Pass `pass` of passesWanted(): together they draw what record() draws.
  virtual void recordPass(QRhiCommandBuffer* cb, QRect viewport, QSize targetSize, int pass) {
    if (pass == 0) record(cb, viewport, targetSize);
  }
  // Why the last prepare() failed, when the drawable knows (empty otherwise).
  virtual std::string failure() const { return {}; }
  // The last frame is not final yet (a GPU result it depends on is on its way
  // back, or it showed the drawable needs more room): draw another.
  virtual bool wantsAnotherFrame() const { return false; }
  // The drawable is still uploading its data over several frames and drew
  // none of it: draw another (each such frame makes progress, so no limit).
  virtual bool uploading() const { return false; }
};

}  // namespace riglens::render
