#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SORT
#include "shader_interface.h"
#include "radix_sort_common.glsl"
// Radix sort, kernel 3 of 3 (scatter): each workgroup ranks its tile's keys
// by digit, stably, then writes them out digit by digit. The tile goes
// through in rounds of one key per invocation; within a round an
// invocation's rank among equal digits is a population count over a
// per-digit bit mask of the round (shared memory only: no subgroup
// operations, which Qt 6.4's shader baker cannot compile), so the order of
// equal keys is kept and the output is deterministic. The ranked tile is
// laid out by digit in shared memory first, so consecutive invocations
// write consecutive addresses of a digit's run (coalesced stores).
layout(local_size_x = kSortGroupSize) in;

layout(std430, binding = kSortKeysIn) readonly buffer KeysIn { uint keysIn[]; };
layout(std430, binding = kSortValuesIn) readonly buffer ValuesIn { uint valuesIn[]; };
layout(std430, binding = kSortTileHist) readonly buffer TileHist { uint tileHist[]; };
layout(std430, binding = kSortDigitTotals) readonly buffer DigitTotals { uint digitTotals[]; };
layout(std430, binding = kSortKeysOut) writeonly buffer KeysOut { uint keysOut[]; };
layout(std430, binding = kSortValuesOut) writeonly buffer ValuesOut { uint valuesOut[]; };

const uint kWords = kSortGroupSize / 32u;  // mask words per digit
shared uint counts[256];                    // the tile's keys of each digit so far, then where each digit starts
shared uint scan[256];
shared uint toGlobal[256];                  // a digit's output position minus its position in the tile
shared uint masks[256 * kWords];
shared uint tileKeys[kSortTileKeys];
shared uint tileValues[kSortTileKeys];

// Exclusive scan of one value per invocation over the workgroup (in scan[]).
uint exclusiveScan(uint lid, uint value)
{
    scan[lid] = value;
    barrier();
    for (uint offset = 1u; offset < 256u; offset <<= 1u) {
        uint add = lid >= offset ? scan[lid - offset] : 0u;
        barrier();
        scan[lid] += add;
        barrier();
    }
    return scan[lid] - value;
}

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint tile = gl_WorkGroupID.x;
    uint count = sortCount();
    uint base = tile * kSortTileKeys;
    if (base >= count)
        return;  // uniform per workgroup: no barrier is skipped by some invocations only
    uint inTile = min(kSortTileKeys, count - base);
    counts[lid] = 0u;
    uint word = lid >> 5u, bit = 1u << (lid & 31u);
    uint key[kSortKeysPerThread], value[kSortKeysPerThread], rankInTile[kSortKeysPerThread];
    for (uint k = 0u; k < kSortKeysPerThread; ++k) {
        for (uint w = 0u; w < kWords; ++w)
            masks[lid * kWords + w] = 0u;
        barrier();  // also: the last round's counts are updated
        uint i = base + k * kSortGroupSize + lid;
        bool valid = i < count;
        key[k] = valid ? keysIn[i] : 0u;
        value[k] = valid ? valuesIn[i] : 0u;
        uint digit = digitOf(key[k]);
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
        rankInTile[k] = counts[digit] + rank;
        barrier();  // every invocation has read counts[] and the masks
        if (valid && rank + 1u == same)  // the round's last key of this digit moves the digit on
            counts[digit] += same;
    }
    barrier();
    // Where each digit starts in the tile, and in the output: all keys of
    // lower digits, then this digit's keys of earlier tiles.
    uint tileCountOfDigit = counts[lid];
    uint localStart = exclusiveScan(lid, tileCountOfDigit);
    barrier();
    uint total = digitTotals[lid];
    uint globalStart = exclusiveScan(lid, total) + tileHist[lid * params.tileCount + tile];
    toGlobal[lid] = globalStart - localStart;  // modulo 2^32, added back below
    counts[lid] = localStart;
    barrier();
    for (uint k = 0u; k < kSortKeysPerThread; ++k) {
        uint i = base + k * kSortGroupSize + lid;
        if (i < count) {
            uint at = counts[digitOf(key[k])] + rankInTile[k];
            tileKeys[at] = key[k];
            tileValues[at] = value[k];
        }
    }
    barrier();
    for (uint s = lid; s < inTile; s += kSortGroupSize) {
        uint k = tileKeys[s];
        uint dest = toGlobal[digitOf(k)] + s;
        keysOut[dest] = k;
        valuesOut[dest] = tileValues[s];
    }
}
