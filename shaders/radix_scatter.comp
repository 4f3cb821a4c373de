#version 440
// GPU radix sort, pass 3 of 3: each element goes to its block's offset for
// its digit plus its rank among the block's earlier elements with the same
// digit, which keeps the sort stable (so 4 passes of 8 bits sort 32-bit keys).
layout(local_size_x = 256) in;

layout(std140, binding = 0) uniform Params {
    uint count;
    uint shift;
    uint blockCount;
    uint pad;
} params;

layout(std430, binding = 1) readonly buffer KeysIn { uint keysIn[]; };
layout(std430, binding = 2) readonly buffer ValuesIn { uint valuesIn[]; };
layout(std430, binding = 3) readonly buffer Hist { uint hist[]; };
layout(std430, binding = 4) writeonly buffer KeysOut { uint keysOut[]; };
layout(std430, binding = 5) writeonly buffer ValuesOut { uint valuesOut[]; };

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
