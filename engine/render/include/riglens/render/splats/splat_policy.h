// How a splat frame is drawn: which passes run (SplatPasses, for
// benchmarks) and how splats reach the pixels (SplatRaster, chosen per device
// by measurement). Policy shared by the splat and character renderers, the
// window renderer and the CLI's options.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

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

// How the compute tiles cut a tile's long run of keys into parts, each
// blended by a workgroup of its own (shaders/splat_raster_parts.glsl): a
// frame takes as long as its longest run, and a few long runs (a silhouette
// seen edge-on) leave the rest of the GPU idle. Where fewer tiles hold keys
// than `groupsAtOnce` (the workgroups the GPU runs at once), a run is cut
// where it holds more than a part's keys and more than the frame's keys
// shared over those workgroups: a shorter run ends no later than the GPU's
// share of the rest, and cutting it only adds work. Where the tiles fill the
// GPU, no run is cut.
struct SplatTileParts {
  std::uint32_t keys = 0;          // keys a part holds (0: every run whole; else at least 256)
  std::uint32_t groupsAtOnce = 0;  // 0: every run of a part's keys or more is cut, however many tiles hold keys
};

}  // namespace riglens::render
