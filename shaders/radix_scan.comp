#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SORT
#include "shader_interface.h"
// GPU radix sort, pass 2 of 3: exclusive prefix sum over the whole histogram
// (256 * blockCount entries) in one workgroup: each invocation sums a
// contiguous chunk, the 256 chunk sums are scanned in shared memory, then
// each invocation writes its chunk's running offsets.
layout(local_size_x = kSortGroupSize) in;

layout(std430, binding = kScanCounts) buffer Hist { uint hist[]; };

shared uint sums[256];

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint total = 256u * params.blockCount;
    uint chunk = (total + 255u) / 256u;
    uint begin = min(lid * chunk, total);
    uint end = min(begin + chunk, total);
    uint sum = 0u;
    for (uint i = begin; i < end; ++i)
        sum += hist[i];
    sums[lid] = sum;
    barrier();
    // Hillis-Steele inclusive scan of the 256 chunk sums.
    for (uint offset = 1u; offset < 256u; offset <<= 1u) {
        uint add = lid >= offset ? sums[lid - offset] : 0u;
        barrier();
        sums[lid] += add;
        barrier();
    }
    uint running = sums[lid] - sum;  // exclusive
    for (uint i = begin; i < end; ++i) {
        uint value = hist[i];
        hist[i] = running;
        running += value;
    }
}
