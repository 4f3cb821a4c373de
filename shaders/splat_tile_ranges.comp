#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SPLAT_VIEW
#include "shader_interface.h"
// Compute rasteriser, after the sort of the tile keys: where each tile's run
// of keys starts and ends (ranges[2 tile], ranges[2 tile + 1]), and how many
// tiles hold keys (for the parts' rule, splat_raster_parts.glsl). Nothing
// clears the ranges between frames: a tile no key reaches keeps an old range,
// which the raster recognises (no key of this frame is that tile's).
layout(local_size_x = kProjectGroupSize) in;

layout(std430, binding = kRangesKeys) readonly buffer Keys { uint keys[]; };
layout(std430, binding = kRangesCount) readonly buffer Count { uint countFromGpu; };
layout(std430, binding = kRangesOut) writeonly buffer Ranges { uint ranges[]; };
layout(std430, binding = kRangesHeld) buffer Held { uint tilesHeld; };

void main()
{
    // A fixed grid strides over the keys: only the GPU knows their count.
    uint count = min(countFromGpu, u.tiles.w);
    uint stride = kRangeGroups * kProjectGroupSize;
    for (uint i = gl_GlobalInvocationID.x; i < count; i += stride) {
        uint tile = keys[i];
        if (i == 0u || keys[i - 1u] != tile) {
            ranges[2u * tile] = i;
            atomicAdd(tilesHeld, 1u);
        }
        if (i + 1u == count || keys[i + 1u] != tile)
            ranges[2u * tile + 1u] = i + 1u;
    }
}
