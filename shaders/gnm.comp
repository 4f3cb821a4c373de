#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_GNM
#include "shader_interface.h"
// GNM on the GPU: expression (active coefficients only) + gaze + neck seam +
// 4-influence LBS, one invocation per vertex, metres. CPU reference:
// engine/core gnm.h (gnmPose); parity: tests/render. Interface: shader_interface.h.
layout(local_size_x = kGnmGroupSize) in;

struct Active { uint index; float scale; };

layout(std430, binding = kGnmNeutral) readonly buffer Neutral { float neutral[]; };
layout(std430, binding = kGnmBasis) readonly buffer Basis { uint basis[]; };          // fp16 pairs, vertex-major (V,E,3)
layout(std430, binding = kGnmActives) readonly buffer Actives { Active actives[]; };
layout(std430, binding = kGnmEyeWeights) readonly buffer EyeWeights { float eyeWeights[]; };  // (2, V)
layout(std430, binding = kGnmStitch) readonly buffer Stitch { float stitch[]; };
layout(std430, binding = kGnmSkinIndex) readonly buffer SkinIndex { uvec4 skinIndex[]; };
layout(std430, binding = kGnmSkinWeight) readonly buffer SkinWeight { vec4 skinWeight[]; };
layout(std430, binding = kGnmSkin) readonly buffer Skin { mat4 skin[]; };
layout(std430, binding = kGnmPosed) writeonly buffer Posed { float posed[]; };

float basisLane(uint lane)
{
    vec2 pair = unpackHalf2x16(basis[lane >> 1]);
    return (lane & 1u) == 0u ? pair.x : pair.y;
}

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v >= params.vertexCount)
        return;
    vec3 p = vec3(neutral[3u * v], neutral[3u * v + 1u], neutral[3u * v + 2u]);
    vec3 acc = vec3(0.0);
    uint row = v * params.coeffCount * 3u;
    for (uint a = 0u; a < params.activeCount; ++a) {
        uint lane = row + actives[a].index * 3u;
        acc += actives[a].scale * vec3(basisLane(lane), basisLane(lane + 1u), basisLane(lane + 2u));
    }
    p += acc;
    for (int e = 0; e < 2; ++e) {
        if ((params.flags & (kGnmGazeLeftFlag << e)) == 0u)
            continue;
        float w = eyeWeights[uint(e) * params.vertexCount + v];
        if (w == 0.0)
            continue;
        vec3 d = p - params.eyePos[e].xyz;
        p += w * (mat3(params.eyeRot[e]) * d - d);
    }
    if ((params.flags & kGnmStitchFlag) != 0u)
        p += vec3(stitch[3u * v], stitch[3u * v + 1u], stitch[3u * v + 2u]);
    uvec4 j = skinIndex[v];
    vec4 w = skinWeight[v];
    vec4 src = vec4(p, 1.0);
    vec4 outp = w.x * (skin[j.x] * src) + w.y * (skin[j.y] * src) + w.z * (skin[j.z] * src) + w.w * (skin[j.w] * src);
    posed[3u * v] = outp.x;
    posed[3u * v + 1u] = outp.y;
    posed[3u * v + 2u] = outp.z;
}
