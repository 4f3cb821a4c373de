// The splat rasteriser on the CPU: what the GPU's compute rasteriser
// (shaders/splat_project.comp, splat_tile_*.comp, splat_raster.comp) draws,
// computed with the same arithmetic on the CPU's cores. Machines without a
// GPU draw through it: a software Vulkan (lavapipe) runs the compute
// shaders' shared memory, barriers and radix sort at a fraction of what the
// same cores do natively. It is also the reference the GPU rasteriser's
// parity test compares against.
//
// Per frame: each gaussian projected (EWA, Zwicker et al. 2001, with the
// 0.3 px^2 low-pass of Kerbl et al. 2023), the visible ones ordered front to
// back by the GPU's 16-bit logarithmic depth (ties by index, as the GPU's
// stable radix sort leaves them), binned into screen tiles, and every tile
// blended front to back until a pixel's transmittance falls below 1e-4.
#pragma once

#include <cstdint>
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <memory>
#include <span>
#include <vector>

#include "riglens/core/splats/gaussian_ply.h"
#include "riglens/core/splats/splat_sink.h"

namespace riglens::core {

// The gaussians, laid out as the GPU's splat sink (core::SplatSink).
struct SplatInputs {
  std::span<const float> center;         // 4 per splat: xyz, 1
  std::span<const float> covarianceA;    // 4 per splat: c00 c01 c02 c11
  std::span<const float> covarianceB;    // 4 per splat: c12 c22, 2 unused
  std::span<const std::uint32_t> color;  // packRgba(r, g, b, opacity); opacity 0: invisible
  int shDegree = 0;                      // > 0: the colour comes from the SH at the view
  std::span<const float> shDc, shRest;   // 3 and 3 * ((degree+1)^2 - 1) per splat (GaussianCloud's layout)
  std::size_t count() const { return color.size(); }
};

// A cloud's gaussians laid out as the sink (what the GPU uploads and the
// rasteriser reads).
SplatSink sinkOfCloud(const GaussianCloud& cloud);
// The inputs over a sink, with the cloud's spherical harmonics when it is
// the sink's cloud and has them.
SplatInputs splatInputs(const SplatSink& sink, const GaussianCloud* cloud = nullptr);

// The view, as the GPU's SplatView block carries it.
struct SplatCamera {
  glm::mat4 view{1.0f};
  glm::mat4 clip{1.0f};   // projection into the target's clip space (the backend's: Vulkan's y runs down)
  glm::vec2 size{0.0f};   // the output in pixels
  glm::vec2 focal{0.0f};  // focal lengths in pixels (the OpenGL projection's P00 w/2, P11 h/2)
  bool flipY = false;     // the clip space's y runs opposite to view space's
  float nearZ = 1e-3f;    // the near plane: nearer centres are culled; the 16-bit log depth:
                          // key = log(depth / nearZ) * logScale, clamped to 16 bits
  float logScale = 1.0f;
};

// The frame: per pixel, row-major from the clip space's first row, two
// words as the GPU's image holds them: the premultiplied colour packed
// (alpha = 1 - transmittance; 0 where no splat reached) and the bits of the
// float NDC depth of the splat that made the pixel half opaque.
struct SplatImage {
  int width = 0, height = 0;
  std::vector<std::uint32_t> pixels;  // 2 per pixel
};

// Pixels [x0, x1) x [y0, y1) of a SplatImage (rows as the image holds them).
struct PixelRect {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool empty() const { return x1 <= x0 || y1 <= y0; }
  int width() const { return x1 - x0; }
  int height() const { return y1 - y0; }
};

struct SplatRasterStats {
  std::size_t visible = 0;      // splats that passed the projection's culling
  std::size_t tileEntries = 0;  // (tile, splat) pairs blended
  std::size_t longestTile = 0;  // the most pairs one tile holds
  std::size_t heldTiles = 0;    // tiles holding at least one pair
  // The union of the tiles any splat was binned to: every pixel outside it
  // is zero, so a consumer may upload and draw only this part of the image
  // (a character often covers a third of the view).
  PixelRect covered;
};

// The (tile, splat) pairs one pass may hold (4 bytes each): a view that
// needs more is drawn in bands of tile rows, each within it.
inline constexpr std::size_t kSplatBandEntries = std::size_t(1) << 24;

// The arrays rasteriseSplats works in (per splat, per tile), kept from one
// frame to the next by a caller that draws every frame: allocated once,
// their pages touched once, not again each frame.
class SplatRasterScratch {
 public:
  SplatRasterScratch();
  ~SplatRasterScratch();
  SplatRasterScratch(SplatRasterScratch&&) noexcept;
  SplatRasterScratch& operator=(SplatRasterScratch&&) noexcept;
  struct Arrays;
  Arrays& arrays() { return *m_arrays; }

 private:
  std::unique_ptr<Arrays> m_arrays;
};

// `threads` 0: every core. The image is resized to the camera's size.
// `scratch` (may be null): the arrays to reuse.
SplatRasterStats rasteriseSplats(const SplatInputs& splats, const SplatCamera& camera, SplatImage& image,
                                 unsigned threads = 0, std::size_t bandEntries = kSplatBandEntries,
                                 SplatRasterScratch* scratch = nullptr);

}  // namespace riglens::core
