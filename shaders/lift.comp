#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_LIFT
#include "shader_interface.h"
// The debug vertex lift: one isotropic gaussian per vertex into the splat
// sink. CPU reference: engine/core character_view.h (debugLiftCpu); the 96-byte
// uniform is written by writeDebugLiftParams. Parity: tests/render.
layout(local_size_x = kLiftGroupSize) in;

layout(std430, binding = kLiftPositions) readonly buffer Positions { float positions[]; };
layout(std430, binding = kLiftTints) readonly buffer Tints { uint tints[]; };
layout(std430, binding = kLiftCenters) buffer Centers { vec4 centers[]; };
layout(std430, binding = kLiftCovA) buffer CovA { vec4 covA[]; };
layout(std430, binding = kLiftCovB) buffer CovB { vec4 covB[]; };
layout(std430, binding = kLiftColors) buffer Colors { uint colors[]; };

bool finite3(vec3 v)
{
    return !(any(isnan(v)) || any(isinf(v)));
}

void main()
{
    uint s = gl_GlobalInvocationID.x;
    if (s >= params.slotCount)
        return;
    uint slot = params.slotOffset + s;
    vec3 p = vec3(0.0);
    bool inside = s < params.vertexCount;
    if (inside)
        p = vec3(positions[3u * s], positions[3u * s + 1u], positions[3u * s + 2u]);
    if (!inside || !finite3(p)) {
        centers[slot] = vec4(0.0, 0.0, 0.0, 1.0);
        covA[slot] = vec4(0.0);
        covB[slot] = vec4(0.0);
        colors[slot] = 0u;
        return;
    }
    vec4 h = vec4(p, 1.0);
    vec3 o = vec3(dot(params.row0, h), dot(params.row1, h), dot(params.row2, h));
    float s2 = params.sigma * params.sigma;
    centers[slot] = vec4(o, 1.0);
    covA[slot] = vec4(s2, 0.0, 0.0, s2);
    covB[slot] = vec4(0.0, s2, 0.0, 0.0);
    vec3 rgb = vec3(0.85, 0.85, 0.9);
    if (params.shading == 0u) {
        rgb = unpackUnorm4x8(tints[s]).rgb;
    } else if (params.shading == 1u) {
        vec3 d = o - params.centre.xyz;
        float len = length(d);
        rgb = 0.5 + 0.5 * (len > 0.0 ? d / len : vec3(0.0));
    }
    colors[slot] = packUnorm4x8(vec4(rgb, params.opacity));
}
