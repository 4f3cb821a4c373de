#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SORT
#include "shader_interface.h"
#include "radix_sort_common.glsl"
// Radix sort, kernel 1 of 3 per 8-bit digit (reduce): each workgroup counts
// the digits of its tile of kSortTileKeys keys, written digit-major
// (tileHist[digit * tileCount + tile]) so the spine scans one digit's tiles
// contiguously. Tiles past the count write zeros. CPU reference:
// std::stable_sort on the keys; parity: tests/render (tst_render_character).
layout(local_size_x = kSortGroupSize) in;

layout(std430, binding = kSortKeysIn) readonly buffer Keys { uint keys[]; };
layout(std430, binding = kSortTileHist) writeonly buffer TileHist { uint tileHist[]; };

shared uint counts[256];

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint tile = gl_WorkGroupID.x;
    uint count = sortCount();
    counts[lid] = 0u;
    barrier();
    uint base = tile * kSortTileKeys;
    for (uint k = 0u; k < kSortKeysPerThread; ++k) {
        uint i = base + k * kSortGroupSize + lid;
        if (i < count)
            atomicAdd(counts[digitOf(keys[i])], 1u);
    }
    barrier();
    tileHist[lid * params.tileCount + tile] = counts[lid];
}
