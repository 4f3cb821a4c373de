#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SPLAT_VIEW
#include "shader_interface.h"
#include "splat_tiles_common.glsl"
// Compute rasteriser, tile keys 3 of 3: each splat, taken in depth order
// (front to back), writes its tile's index for every tile it touches, at its
// group's offset plus its rank in the group. The keys sit in depth order, so
// the stable sort on the tile alone (16 bits: two radix passes, not the four
// a (tile, depth) key took) leaves each tile's splats front to back, ties in
// splat order, the same every frame. Keys past their room are dropped.
layout(std430, binding = kTilesGroupSums) readonly buffer GroupOffsets { uint groupOffsets[]; };
layout(std430, binding = kTilesKeys) writeonly buffer TileKeys { uint tileKeys[]; };
layout(std430, binding = kTilesValues) writeonly buffer TileValues { uint tileValues[]; };

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint i = splatAt(gl_GlobalInvocationID.x);
    uvec4 r = tileRect(i);
    uint n = (r.z - r.x) * (r.w - r.y);
    scanGroup(lid, n);
    if (n == 0u)
        return;
    uint slot = groupOffsets[gl_WorkGroupID.x] + groupTiles[lid] - n;
    for (uint y = r.y; y < r.w; ++y) {
        for (uint x = r.x; x < r.z; ++x) {
            if (slot >= u.tiles.w)
                return;
            tileKeys[slot] = y * u.tiles.x + x;
            tileValues[slot] = i;
            ++slot;
        }
    }
}
