#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SORT
#include "shader_interface.h"
#include "radix_sort_common.glsl"
// Radix sort, kernel 3 of 3 (scatter): each workgroup ranks its tile's keys
// by digit, stably, and writes each to digitStart + tileOffset + rank. The
// tile goes through in rounds of one key per invocation; within a round an
// invocation's rank among equal digits is a population count over a
// per-digit bit mask of the round (shared memory only: no subgroup
// operations, which Qt 6.4's shader baker cannot compile), so the order of
// equal keys is kept and the output is deterministic.
layout(local_size_x = kSortGroupSize) in;

layout(std430, binding = kSortKeysIn) readonly buffer KeysIn { uint keysIn[]; };
layout(std430, binding = kSortValuesIn) readonly buffer ValuesIn { uint valuesIn[]; };
layout(std430, binding = kSortTileHist) readonly buffer TileHist { uint tileHist[]; };
layout(std430, binding = kSortDigitTotals) readonly buffer DigitTotals { uint digitTotals[]; };
layout(std430, binding = kSortKeysOut) writeonly buffer KeysOut { uint keysOut[]; };
layout(std430, binding = kSortValuesOut) writeonly buffer ValuesOut { uint valuesOut[]; };

const uint kWords = kSortGroupSize / 32u;  // mask words per digit
shared uint next[256];                      // where the tile's next key of each digit goes
shared uint masks[256 * kWords];

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint tile = gl_WorkGroupID.x;
    uint count = sortCount();
    uint base = tile * kSortTileKeys;
    if (base >= count)
        return;  // uniform per workgroup: no barrier is skipped by some invocations only
    // Exclusive scan of the digit totals: where each digit starts in the output.
    uint total = digitTotals[lid];
    next[lid] = total;
    barrier();
    for (uint offset = 1u; offset < 256u; offset <<= 1u) {
        uint add = lid >= offset ? next[lid - offset] : 0u;
        barrier();
        next[lid] += add;
        barrier();
    }
    uint start = next[lid] - total + tileHist[lid * params.tileCount + tile];
    barrier();
    next[lid] = start;
    uint word = lid >> 5u, bit = 1u << (lid & 31u);
    for (uint k = 0u; k < kSortKeysPerThread; ++k) {
        for (uint w = 0u; w < kWords; ++w)
            masks[lid * kWords + w] = 0u;
        barrier();
        uint i = base + k * kSortGroupSize + lid;
        bool valid = i < count;
        uint key = valid ? keysIn[i] : 0u;
        uint digit = digitOf(key);
        if (valid)
            atomicOr(masks[digit * kWords + word], bit);
        barrier();
        uint rank = 0u, same = 0u;
        for (uint w = 0u; w < kWords; ++w) {
            uint m = masks[digit * kWords + w];
            same += bitCount(m);
            if (w < word)
                rank += bitCount(m);
        }
        rank += bitCount(masks[digit * kWords + word] & (bit - 1u));
        uint dest = next[digit] + rank;
        barrier();  // every invocation has read next[] and the masks
        if (valid) {
            keysOut[dest] = key;
            valuesOut[dest] = valuesIn[i];
            if (rank + 1u == same)  // the round's last key of this digit moves the digit on
                next[digit] += same;
        }
    }
}
