#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_TRANSFORM
#include "shader_interface.h"
// out[i] = matrix * in[i] for every point. CPU reference:
// engine/core point_transform.h (transformPoints); parity: tests/render.
layout(local_size_x = kTransformGroupSize) in;

layout(std430, binding = kTransformIn) readonly buffer InPoints { vec4 inPoints[]; };
layout(std430, binding = kTransformOut) writeonly buffer OutPoints { vec4 outPoints[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= params.count)
        return;
    outPoints[i] = params.matrix * inPoints[i];
}
