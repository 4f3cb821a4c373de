#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SORT
#include "shader_interface.h"
// GPU radix sort, pass 3 of 3: each element goes to its block's offset for
// its digit plus its rank among the block's earlier elements with the same
// digit, which keeps the sort stable (so 4 passes of 8 bits sort 32-bit keys).
layout(local_size_x = kSortGroupSize) in;

layout(std430, binding = kScatterKeysIn) readonly buffer KeysIn { uint keysIn[]; };
layout(std430, binding = kScatterValuesIn) readonly buffer ValuesIn { uint valuesIn[]; };
layout(std430, binding = kScatterCounts) readonly buffer Hist { uint hist[]; };
layout(std430, binding = kScatterKeysOut) writeonly buffer KeysOut { uint keysOut[]; };
layout(std430, binding = kScatterValuesOut) writeonly buffer ValuesOut { uint valuesOut[]; };

shared uint digits[256];

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint block = gl_WorkGroupID.x;
    uint i = block * 256u + lid;
    uint key = i < params.count ? keysIn[i] : 0u;
    uint digit = i < params.count ? (key >> params.shift) & 255u : 256u;
    digits[lid] = digit;
    barrier();
    if (i >= params.count)
        return;
    uint rank = 0u;
    for (uint j = 0u; j < lid; ++j)
        rank += digits[j] == digit ? 1u : 0u;
    uint dest = hist[digit * params.blockCount + block] + rank;
    keysOut[dest] = key;
    valuesOut[dest] = valuesIn[i];
}
