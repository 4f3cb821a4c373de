#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SORT
#include "shader_interface.h"
// GPU radix sort, pass 1 of 3 per 8-bit digit: per-block digit counts,
// written digit-major (hist[digit * blockCount + block]) so one exclusive
// scan gives every block its output offset per digit. CPU reference:
// std::stable_sort on the keys; parity: tests/render (tst_render_character).
layout(local_size_x = kSortGroupSize) in;

layout(std430, binding = kHistogramKeys) readonly buffer Keys { uint keys[]; };
layout(std430, binding = kHistogramCounts) writeonly buffer Hist { uint hist[]; };

shared uint counts[256];

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint block = gl_WorkGroupID.x;
    counts[lid] = 0u;
    barrier();
    uint i = block * 256u + lid;
    if (i < params.count)
        atomicAdd(counts[(keys[i] >> params.shift) & 255u], 1u);
    barrier();
    hist[lid * params.blockCount + block] = counts[lid];
}
