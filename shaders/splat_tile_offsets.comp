#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SPLAT_VIEW
#include "shader_interface.h"
// Compute rasteriser, tile keys 2 of 3: one workgroup turns the group totals
// into exclusive offsets and writes the number of keys (capped by their
// room) where the sort and the ranges read it, and the uncapped number after
// the groups' offsets (the CPU reads it back to grow the room). It also
// clears the count of tiles holding keys, which the ranges pass makes.
layout(local_size_x = kProjectGroupSize) in;

layout(std430, binding = kTilesGroupSums) buffer GroupSums { uint groupSums[]; };
layout(std430, binding = kTilesCount) writeonly buffer Count { uint keyCount; };
layout(std430, binding = kTilesHeld) writeonly buffer Held { uint tilesHeld; };

shared uint sums[kProjectGroupSize];

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint groups = (u.count.x + kProjectGroupSize - 1u) / kProjectGroupSize;
    uint run = (groups + kProjectGroupSize - 1u) / kProjectGroupSize;
    uint begin = min(lid * run, groups), end = min(begin + run, groups);
    uint sum = 0u;
    for (uint g = begin; g < end; ++g)
        sum += groupSums[g];
    sums[lid] = sum;
    barrier();
    for (uint offset = 1u; offset < kProjectGroupSize; offset <<= 1u) {
        uint add = lid >= offset ? sums[lid - offset] : 0u;
        barrier();
        sums[lid] += add;
        barrier();
    }
    uint running = sums[lid] - sum;
    for (uint g = begin; g < end; ++g) {
        uint value = groupSums[g];
        groupSums[g] = running;
        running += value;
    }
    if (lid == kProjectGroupSize - 1u) {
        keyCount = min(sums[lid], u.tiles.w);
        groupSums[groups] = sums[lid];
        tilesHeld = 0u;
    }
}
