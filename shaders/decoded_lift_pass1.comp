#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_DECODED
#include "shader_interface.h"
// Lift pass 1 (contract/DECODERS.md A6-A8), one thread per texel: the
// triangle's Jacobian frame from the posed vertices (calibrated inline:
// v L + o + corr), centre = base + J * offset, covariance g^2 (J R S)(J R S)^T.
// CPU reference: core::liftPass1 (engine/core/src/decoded/uv_lift.cpp).
layout(local_size_x = kDecodedGroupSize) in;

layout(std430, binding = kPass1Vertices) readonly buffer Vertices { float verts[]; };
layout(std430, binding = kPass1Corr) readonly buffer Corr { float corr[]; };
layout(std430, binding = kPass1Faces) readonly buffer Faces { uint faces[]; };
layout(std430, binding = kPass1Idxim) readonly buffer Idxim { int idxim[]; };
layout(std430, binding = kPass1Barim) readonly buffer Barim { float barim[]; };
layout(std430, binding = kPass1Triim) readonly buffer Triim { int triim[]; };  // < 0 where valid == 0
layout(std430, binding = kPass1Geom) readonly buffer Geom { float geom[]; };
layout(std430, binding = kPass1Texels) writeonly buffer Texels { float texels[]; };

vec3 vertexAt(uint i)
{
    vec3 v = vec3(verts[3u * i], verts[3u * i + 1u], verts[3u * i + 2u]);
    if (params.counts.z != 0u) {
        v = v.x * params.rowL0.xyz + v.y * params.rowL1.xyz + v.z * params.rowL2.xyz + params.offsetO.xyz;
        if (params.counts.w != 0u)
            v += vec3(corr[3u * i], corr[3u * i + 1u], corr[3u * i + 2u]);
    }
    return v;
}

float logSigmoid(float x)
{
    return x >= 0.0 ? -log(1.0 + exp(-x)) : x - log(1.0 + exp(x));
}

float splatScale(float raw)
{
    float logSigma = params.scaleB.x != 0.0 ? params.scaleB.y + logSigmoid(raw + params.scaleB.z)
                                            : raw + params.scaleB.z;
    return exp(min(logSigma, params.scaleA.y));
}

mat3 rotationOf(vec4 q)  // (w, x, y, z), unnormalised; zero divides by 1
{
    float n = length(q);
    if (!(n > 0.0))
        n = 1.0;
    q /= n;
    float w = q.x, x = q.y, y = q.z, z = q.w;
    return mat3(vec3(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y)),
                vec3(2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x)),
                vec3(2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y)));
}

void main()
{
    uint p = gl_GlobalInvocationID.x;
    uint hw = params.dims.z;
    if (p >= hw)
        return;
    int tri = triim[p];
    mat3 J = mat3(1.0);
    bool valid = false;
    vec3 e0 = vec3(0.0), e1 = vec3(0.0);
    if (tri >= 0 && uint(tri) < params.counts.y) {
        vec3 v0 = vertexAt(faces[3u * uint(tri)]);
        e0 = vertexAt(faces[3u * uint(tri) + 1u]) - v0;
        e1 = vertexAt(faces[3u * uint(tri) + 2u]) - v0;
        vec3 n = cross(e0, e1);
        float len = length(n);
        valid = len > 0.0;
        if (valid)
            J = mat3(e0, e1, n / sqrt(max(len, 1e-10)));
    }
    vec3 base = vec3(0.0);
    for (uint k = 0u; k < 3u; ++k) {
        int id = idxim[3u * p + k];
        if (id < 0)
            id += int(params.counts.x);
        base += barim[3u * p + k] * vertexAt(uint(id));
    }
    vec3 pos = base + J * vec3(geom[p], geom[hw + p], geom[2u * hw + p]);
    mat3 R = rotationOf(vec4(geom[3u * hw + p], geom[4u * hw + p], geom[5u * hw + p], geom[6u * hw + p]));
    vec3 s = vec3(splatScale(geom[7u * hw + p]), splatScale(geom[8u * hw + p]), splatScale(geom[9u * hw + p]));
    mat3 M = J * R;
    M[0] *= s.x;
    M[1] *= s.y;
    M[2] *= s.z;
    float g = 1.0;
    if (params.scaleA.z > 0.0 && valid) {
        float edge = max(max(length(e0), length(e1)), length(e1 - e0));
        float area = 0.5 * length(cross(e0, e1));
        float q = clamp(sqrt(max(area, 0.0)) / max(0.6580370064762462 * edge, 1e-12), 0.0, 1.0);
        float bound = edge * (params.scaleA.w > 0.0 ? min(1.0, q / (5.0 * params.scaleA.w)) : 1.0);
        float reach = max(max(length(M[0]), length(M[1])), length(M[2]));
        g = min(1.0, params.scaleA.z * bound / max(reach, 1e-12));
    }
    mat3 S = (g * g) * (M * transpose(M));
    uint o = p * kDecodedTexelFloats;
    texels[o] = pos.x;
    texels[o + 1u] = pos.y;
    texels[o + 2u] = pos.z;
    texels[o + 3u] = S[0][0];
    texels[o + 4u] = S[1][0];
    texels[o + 5u] = S[2][0];
    texels[o + 6u] = S[1][1];
    texels[o + 7u] = S[2][1];
    texels[o + 8u] = S[2][2];
    texels[o + 9u] = geom[10u * hw + p];
    texels[o + 10u] = valid ? 1.0 : 0.0;
    texels[o + 11u] = 0.0;
}
