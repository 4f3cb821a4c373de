#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SPLAT_VIEW
#include "shader_interface.h"
#include "splat_footprint.glsl"
// One quad per sorted splat (6 vertices, instanced) along the axes of its
// projected ellipse, reaching exactly as far as the fragment can be seen
// (splatReach: where its opacity falls to 1/255).
// An elongated or faint splat covers a fraction of the square its radius
// bounds, and every covered fragment costs, on a software rasteriser most
// of all. The fragment evaluates the 2D gaussian.
layout(std430, binding = kDrawProjected) readonly buffer Projected { vec4 projected[]; };
layout(std430, binding = kDrawOrder) readonly buffer Order { uint order[]; };

layout(location = 0) out vec2 vOffset;   // pixels from the centre, in the conic's frame
layout(location = 1) out vec3 vConic;
layout(location = 2) out vec4 vColor;

const vec2 kCorners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

void main()
{
    uint s = order[gl_InstanceIndex];
    vec4 p = projected[2u * s];
    vec4 q = projected[2u * s + 1u];
    vec2 corner = kCorners[gl_VertexIndex % 6];
    vConic = q.xyz;
    vColor = unpackUnorm4x8(floatBitsToUint(p.w));
    // The conic [a b; b c] is the inverse covariance: its eigenvectors are the
    // ellipse's axes, 1/sqrt(eigenvalue) the sigma along each.
    float a = q.x, b = q.y, c = q.z;
    float mid = 0.5 * (a + c);
    float spread = sqrt(max(0.0, 0.25 * (a - c) * (a - c) + b * b));
    float small = max(mid - spread, 1e-12), large = max(mid + spread, 1e-12);
    vec2 major = abs(b) > 1e-12 * (abs(a) + abs(c)) ? normalize(vec2(b, small - a)) : (a <= c ? vec2(1, 0) : vec2(0, 1));
    vec2 minor = vec2(-major.y, major.x);
    float reach = splatReach(vColor.a);
    vOffset = reach * (corner.x * major / sqrt(small) + corner.y * minor / sqrt(large));
    float radius = p.z;  // 0: culled by the projection
    vec2 screen = vOffset;
    if (u.count.y != 0u)  // the backend's clip space flips y: view-space y is the other way
        screen.y = -screen.y;
    vec2 ndc = p.xy + screen * 2.0 / u.viewport.xy;
    gl_Position = radius > 0.0 && reach > 0.0 ? vec4(ndc, q.w, 1.0) : vec4(0.0, 0.0, 0.0, 0.0);
}
