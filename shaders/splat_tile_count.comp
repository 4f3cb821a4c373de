#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SPLAT_VIEW
#include "shader_interface.h"
#include "splat_tiles_common.glsl"
// Compute rasteriser, tile keys 1 of 3: each workgroup's total of tile keys.
layout(std430, binding = kTilesGroupSums) writeonly buffer GroupSums { uint groupSums[]; };

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uvec4 r = tileRect(splatAt(gl_GlobalInvocationID.x));
    scanGroup(lid, (r.z - r.x) * (r.w - r.y));
    if (lid == kProjectGroupSize - 1u)
        groupSums[gl_WorkGroupID.x] = groupTiles[lid];
}
