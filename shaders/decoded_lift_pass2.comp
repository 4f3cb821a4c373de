#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_DECODED
#include "shader_interface.h"
// Lift pass 2 (contract/DECODERS.md A9), one thread per output slot:
// bilinear resample of pass 1's texels, validity threshold, eigen-
// decomposition floor (cyclic Jacobi), the bundle's world rotation, scale and
// offset, colour and sigmoid opacity packed into the branch's sink slots.
// CPU reference: core::liftPass2 (engine/core/src/decoded/uv_lift.cpp).
layout(local_size_x = kDecodedGroupSize) in;

layout(std430, binding = kPass2Texels) readonly buffer Texels { float texels[]; };
layout(std430, binding = kPass2Color) readonly buffer Color { float color[]; };
layout(std430, binding = kPass2Centers) buffer Centers { vec4 centers[]; };
layout(std430, binding = kPass2CovA) buffer CovA { vec4 covA[]; };
layout(std430, binding = kPass2CovB) buffer CovB { vec4 covB[]; };
layout(std430, binding = kPass2Colors) buffer Colors { uint colors[]; };
layout(std430, binding = kPass2Mask) readonly buffer Mask { float maskValues[]; };  // row-major, top row first

// Bilinear, clamp to edge, at (u, v) in [0, 1] (no V flip): core::liftPass2's sampleMask.
float sampleMask(float u, float v)
{
    int w = int(params.mask.x), h = int(params.mask.y);
    float x = clamp(u * float(w - 1), 0.0, float(w - 1)), y = clamp(v * float(h - 1), 0.0, float(h - 1));
    int x0 = int(x), y0 = int(y), x1 = min(x0 + 1, w - 1), y1 = min(y0 + 1, h - 1);
    float fx = x - float(x0), fy = y - float(y0);
    return (1.0 - fx) * (1.0 - fy) * maskValues[y0 * w + x0] + fx * (1.0 - fy) * maskValues[y0 * w + x1] +
           (1.0 - fx) * fy * maskValues[y1 * w + x0] + fx * fy * maskValues[y1 * w + x1];
}

vec3 rotateWorld(vec3 v)  // v + 2w(u x v) + 2u x (u x v)
{
    vec3 u = params.worldRot.yzw;
    vec3 uv = cross(u, v);
    return v + 2.0 * params.worldRot.x * uv + 2.0 * cross(u, uv);
}

bool finiteValue(float x)
{
    return !isnan(x) && abs(x) < 1e30;
}

void clearSlot(uint slot)
{
    centers[slot] = vec4(0.0, 0.0, 0.0, 1.0);
    covA[slot] = vec4(0.0);
    covB[slot] = vec4(0.0);
    colors[slot] = 0u;
}

void main()
{
    uint s = gl_GlobalInvocationID.x;
    uint H = params.dims.x, W = params.dims.y, hw = params.dims.z, N = params.dims.w;
    if (s >= min(hw, params.slotRange.y))
        return;
    uint slot = params.slotRange.x + s;
    int oy = int(s / N), ox = int(s % N);
    float py = float(oy) * float(H) / float(N - 1u) - 0.5;
    float px = float(ox) * float(W) / float(N - 1u) - 0.5;
    float fy0 = floor(py), fx0 = floor(px);
    float fx = px - fx0, fy = py - fy0;
    int x0 = int(fx0), y0 = int(fy0);
    float acc[10];
    for (int c = 0; c < 10; ++c)
        acc[c] = 0.0;
    vec3 rgb = vec3(0.0);
    float validity = 0.0;
    float w[4] = float[4]((1.0 - fx) * (1.0 - fy), fx * (1.0 - fy), (1.0 - fx) * fy, fx * fy);
    for (int k = 0; k < 4; ++k) {
        int x = x0 + (k & 1), y = y0 + (k >> 1);
        if (x < 0 || y < 0 || x >= int(W) || y >= int(H))
            continue;
        uint p = uint(y) * W + uint(x);
        uint o = p * kDecodedTexelFloats;
        for (int c = 0; c < 10; ++c)
            acc[c] += w[k] * texels[o + uint(c)];
        rgb += w[k] * vec3(color[p], color[hw + p], color[2u * hw + p]);
        validity += w[k] * texels[o + 10u];
    }
    if (validity < 0.99 || params.slotRange.z != 0u) {
        clearSlot(slot);
        return;
    }
    if (params.mask.w != 0.0 &&
        sampleMask(float(ox) / float(N - 1u), float(oy) / float(N - 1u)) < params.mask.z) {
        clearSlot(slot);
        return;
    }
    // Cyclic Jacobi, the largest off-diagonal pivot, <= 30 rotations.
    mat3 a = mat3(vec3(acc[3], acc[4], acc[5]), vec3(acc[4], acc[6], acc[7]), vec3(acc[5], acc[7], acc[8]));
    mat3 v = mat3(1.0);
    for (int sweep = 0; sweep < 30; ++sweep) {
        int P = 0, Q = 1;
        float pivot = abs(a[0][1]);
        if (abs(a[0][2]) > pivot) { P = 0; Q = 2; pivot = abs(a[0][2]); }
        if (abs(a[1][2]) > pivot) { P = 1; Q = 2; pivot = abs(a[1][2]); }
        float off = abs(a[0][1]) + abs(a[0][2]) + abs(a[1][2]);
        float diag = abs(a[0][0]) + abs(a[1][1]) + abs(a[2][2]);
        if (off < 1e-12 * (diag + 1e-30) || a[P][Q] == 0.0)
            break;
        float theta = (a[Q][Q] - a[P][P]) / (2.0 * a[P][Q]);
        float t = (theta >= 0.0 ? 1.0 : -1.0) / (abs(theta) + sqrt(theta * theta + 1.0));
        float cs = 1.0 / sqrt(t * t + 1.0), sn = t * cs;
        // a is symmetric and indexed a[row][col] the same both ways round.
        for (int k = 0; k < 3; ++k) {
            float akp = a[k][P], akq = a[k][Q];
            a[k][P] = cs * akp - sn * akq;
            a[k][Q] = sn * akp + cs * akq;
        }
        for (int k = 0; k < 3; ++k) {
            float apk = a[P][k], aqk = a[Q][k];
            a[P][k] = cs * apk - sn * aqk;
            a[Q][k] = sn * apk + cs * aqk;
        }
        for (int k = 0; k < 3; ++k) {
            float vkp = v[k][P], vkq = v[k][Q];
            v[k][P] = cs * vkp - sn * vkq;
            v[k][Q] = sn * vkp + cs * vkq;
        }
    }
    bool ok = finiteValue(acc[0]) && finiteValue(acc[1]) && finiteValue(acc[2]);
    vec3 vecs[3];
    for (int k = 0; k < 3; ++k) {
        ok = ok && finiteValue(a[k][k]);
        vecs[k] = vec3(v[0][k], v[1][k], v[2][k]);  // column k of v (v[row][col])
        ok = ok && finiteValue(vecs[k].x) && finiteValue(vecs[k].y) && finiteValue(vecs[k].z);
    }
    if (!ok) {
        clearSlot(slot);
        return;
    }
    if (dot(vecs[0], cross(vecs[1], vecs[2])) < 0.0)
        vecs[0] = -vecs[0];
    float ws = params.worldOffset.w;
    vec3 c0 = vec3(0.0), c1 = vec3(0.0);  // c00 c01 c02 / c11 c12 c22
    for (int k = 0; k < 3; ++k) {
        vec3 e = rotateWorld(vecs[k]) * (sqrt(max(1e-12, a[k][k])) * ws);
        c0 += e.x * e;
        c1 += vec3(e.y * e.y, e.y * e.z, e.z * e.z);
    }
    vec3 centre = rotateWorld(vec3(acc[0], acc[1], acc[2]) * ws) + params.worldOffset.xyz;
    centers[slot] = vec4(centre, 1.0);
    covA[slot] = vec4(c0, c1.x);
    covB[slot] = vec4(c1.y, c1.z, 0.0, 0.0);
    colors[slot] = packUnorm4x8(vec4(clamp(rgb, 0.0, 1.0), 1.0 / (1.0 + exp(-acc[9]))));
}
