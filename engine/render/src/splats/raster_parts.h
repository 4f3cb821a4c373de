// The compute tiles' parts (SplatTileParts) a frame uses unless a caller
// sets them. Private to render/splats.
#pragma once

#include <cstdint>

#include "riglens/render/splats/splat_policy.h"

namespace riglens::render {

// Raster workgroups an NVIDIA SM runs at once: splat_raster.comp's 74
// registers an invocation (bench_shader_stats on the H100) allow three of 256
// invocations in its 65,536.
inline constexpr std::uint32_t kRasterGroupsPerMultiprocessor = 3;
// Where the device does not say how many multiprocessors it has.
inline constexpr int kAssumedMultiprocessors = 128;
// Clouds smaller than this keep every run whole: their runs are short, and
// the parts' two more dispatches cost the sample character (17,821
// gaussians) 0.012 of its 0.199 ms on the H100.
inline constexpr std::uint32_t kPartsFromSplats = 1u << 16;
// A raster batch (kSplatTile^2 keys): a smaller part only adds the work of
// its first dispatch.
inline constexpr std::uint32_t kMinPartKeys = 256;

// `parts` with a part of 0 or at least kMinPartKeys keys.
SplatTileParts validTileParts(SplatTileParts parts);
// For a cloud of `splats` on a device of `multiprocessors` (0: unknown):
// RIGLENS_RASTER_PART_KEYS and RIGLENS_RASTER_GROUPS_AT_ONCE where set (tuning on a
// GPU without rebuilding, CONTRIBUTING.md), else parts of
// gpu::kRasterPartKeys from kPartsFromSplats gaussians, over the workgroups
// the device runs at once.
SplatTileParts defaultTileParts(std::uint32_t splats, int multiprocessors);

}  // namespace riglens::render
