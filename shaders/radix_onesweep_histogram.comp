#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_ONESWEEP
#include "shader_interface.h"
// One-sweep radix sort, the first kernel: counts the digits of every pass
// in one read of the keys (hist[pass * 256 + digit], cleared by the sort
// before it; see kOneSweepHistWords), and clears the status words the first
// scatter pass looks back over and the passes' tile counters.
// kOneSweepHistogramGroups workgroups at most, each striding over the keys,
// so the global atomics stay few. CPU reference: std::stable_sort on
// the keys; parity: tests/render (tst_render_character).
layout(local_size_x = kSortGroupSize) in;

layout(std430, binding = kOneSweepCount) readonly buffer Count { uint countFromGpu; };
layout(std430, binding = kOneSweepKeysIn) readonly buffer Keys { uint keys[]; };
layout(std430, binding = kOneSweepHist) buffer Hist { uint hist[]; };
layout(std430, binding = kOneSweepTileCounters) writeonly buffer TileCounters { uint tileCounters[]; };
layout(std430, binding = kOneSweepStatus) writeonly buffer Status { uint status[]; };

shared uint counts[4u * 256u];

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint count = params.countOnGpu != 0u ? min(params.capacity, countFromGpu) : params.capacity;
    if (gl_GlobalInvocationID.x < 4u)
        tileCounters[gl_GlobalInvocationID.x] = 0u;
    uint passes = min(params.passes, 4u);
    for (uint d = lid; d < passes * 256u; d += kSortGroupSize)
        counts[d] = 0u;
    barrier();
    uint stride = params.histogramGroups * kSortGroupSize;
    // kBatch keys loaded before any is counted, so an invocation waits for
    // memory once per batch, not once per key: 16M keys on the H200 took
    // 0.049-0.056 ms instead of 0.059-0.061. (At 1M its 0.020 ms is mostly a
    // cost that does not grow with the keys, 0.005 ms of it the zeroing
    // upload before it: see docs/benchmarks.md, fifth sitting.)
    const uint kBatch = 8u;
    for (uint first = gl_GlobalInvocationID.x; first < count; first += stride * kBatch) {
        uint batch[kBatch];
        for (uint b = 0u; b < kBatch; ++b) {
            uint i = first + b * stride;
            batch[b] = i < count ? keys[i] : 0u;
        }
        for (uint b = 0u; b < kBatch; ++b) {
            if (first + b * stride < count) {
                for (uint p = 0u; p < passes; ++p)
                    atomicAdd(counts[p * 256u + ((batch[b] >> (8u * p)) & 255u)], 1u);
            }
        }
    }
    uint statusWords = (count + kOneSweepTileKeys - 1u) / kOneSweepTileKeys * 256u;
    for (uint s = gl_GlobalInvocationID.x; s < statusWords; s += stride)
        status[s] = 0u;
    barrier();
    for (uint d = lid; d < passes * 256u; d += kSortGroupSize) {
        if (counts[d] != 0u)
            atomicAdd(hist[d], counts[d]);
    }
}
