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
//
// The group's keys are shared out evenly: invocation k writes the group's
// keys k, k + 256, ..., finding the splat each belongs to by a binary search
// over the group's scan, so neighbouring invocations write neighbouring
// words. (A splat per invocation looping over its own tiles left a
// subgroup waiting on its largest splat and scattered every store.)
layout(std430, binding = kTilesGroupSums) readonly buffer GroupOffsets { uint groupOffsets[]; };
layout(std430, binding = kTilesKeys) writeonly buffer TileKeys { uint tileKeys[]; };
layout(std430, binding = kTilesValues) writeonly buffer TileValues { uint tileValues[]; };

shared uvec4 groupRects[kProjectGroupSize];
shared uint groupSplats[kProjectGroupSize];

// The group entry that key k of the group belongs to: the first whose
// inclusive count of keys exceeds k.
uint entryOfKey(uint k)
{
    uint lo = 0u, hi = kProjectGroupSize - 1u;
    while (lo < hi) {
        uint mid = (lo + hi) / 2u;
        if (groupTiles[mid] > k)
            hi = mid;
        else
            lo = mid + 1u;
    }
    return lo;
}

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint i = splatAt(gl_GlobalInvocationID.x);
    uvec4 r = tileRect(i);
    groupRects[lid] = r;
    groupSplats[lid] = i;
    scanGroup(lid, (r.z - r.x) * (r.w - r.y));  // ends with a barrier: the rects are in too
    uint total = groupTiles[kProjectGroupSize - 1u];
    uint base = groupOffsets[gl_WorkGroupID.x];
    for (uint k = lid; k < total; k += kProjectGroupSize) {
        uint slot = base + k;
        if (slot >= u.tiles.w)
            break;
        uint e = entryOfKey(k);
        uvec4 rect = groupRects[e];
        uint within = k - (e == 0u ? 0u : groupTiles[e - 1u]);
        uint width = rect.z - rect.x;
        tileKeys[slot] = (rect.y + within / width) * u.tiles.x + rect.x + within % width;
        tileValues[slot] = groupSplats[e];
    }
}
