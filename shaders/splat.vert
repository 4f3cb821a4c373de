#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SPLAT_VIEW
#include "shader_interface.h"
// One screen-aligned quad per sorted splat (6 vertices, instanced), sized
// from its projected radius; the fragment evaluates the 2D gaussian.
layout(std430, binding = kDrawProjected) readonly buffer Projected { vec4 projected[]; };
layout(std430, binding = kDrawOrder) readonly buffer Order { uint order[]; };

layout(location = 0) out vec2 vOffset;   // pixels from the centre
layout(location = 1) out vec3 vConic;
layout(location = 2) out vec4 vColor;

const vec2 kCorners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

void main()
{
    uint s = order[gl_InstanceIndex];
    vec4 p = projected[2u * s];
    vec2 corner = kCorners[gl_VertexIndex % 6];
    float radius = p.z;
    vOffset = corner * radius;
    if (u.count.y != 0u)  // the backend's clip space flips y: view-space y is the other way
        vOffset.y = -vOffset.y;
    vec4 q = projected[2u * s + 1u];
    vConic = q.xyz;
    vColor = unpackUnorm4x8(floatBitsToUint(p.w));
    vec2 ndc = p.xy + corner * radius * 2.0 / u.viewport.xy;
    gl_Position = radius > 0.0 ? vec4(ndc, q.w, 1.0) : vec4(0.0, 0.0, 0.0, 0.0);
}
