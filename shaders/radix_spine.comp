#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SORT
#include "shader_interface.h"
#include "radix_sort_common.glsl"
// Radix sort, kernel 2 of 3 (scan): one workgroup per digit turns that
// digit's per-tile counts into exclusive offsets within the digit, and
// writes the digit's total; the downsweep scans the 256 totals itself.
layout(local_size_x = kSortGroupSize) in;

layout(std430, binding = kSortTileHist) buffer TileHist { uint tileHist[]; };
layout(std430, binding = kSortDigitTotals) writeonly buffer DigitTotals { uint digitTotals[]; };

shared uint sums[kSortGroupSize];

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint digit = gl_WorkGroupID.x;
    uint tiles = params.tileCount;
    // Each invocation walks a contiguous run of tiles.
    uint run = (tiles + kSortGroupSize - 1u) / kSortGroupSize;
    uint begin = min(lid * run, tiles), end = min(begin + run, tiles);
    uint row = digit * tiles;
    uint sum = 0u;
    for (uint t = begin; t < end; ++t)
        sum += tileHist[row + t];
    sums[lid] = sum;
    barrier();
    // Hillis-Steele inclusive scan of the runs' sums.
    for (uint offset = 1u; offset < kSortGroupSize; offset <<= 1u) {
        uint add = lid >= offset ? sums[lid - offset] : 0u;
        barrier();
        sums[lid] += add;
        barrier();
    }
    uint running = sums[lid] - sum;
    for (uint t = begin; t < end; ++t) {
        uint value = tileHist[row + t];
        tileHist[row + t] = running;
        running += value;
    }
    if (lid == kSortGroupSize - 1u)
        digitTotals[digit] = sums[lid];
}
