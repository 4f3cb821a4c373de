#version 440
// out[i] = matrix * in[i] for every point. CPU reference:
// engine/core point_transform.h (transformPoints); parity: tests/render.
layout(local_size_x = 64) in;

layout(std140, binding = 0) uniform Params {
    mat4 matrix;
    uint count;
} params;

layout(std430, binding = 1) readonly buffer InPoints { vec4 inPoints[]; };
layout(std430, binding = 2) writeonly buffer OutPoints { vec4 outPoints[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= params.count)
        return;
    outPoints[i] = params.matrix * inPoints[i];
}
