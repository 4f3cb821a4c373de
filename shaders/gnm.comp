#version 440
// GNM on the GPU: expression (active coefficients only) + gaze + neck seam +
// 4-influence LBS, one invocation per vertex, metres. CPU reference:
// engine/core gnm.h (gnmPose); parity: tests/render. Layouts mirrored in
// engine/render/src/gpu_layouts.h.
layout(local_size_x = 64) in;

layout(std140, binding = 0) uniform Params {
    uint vertexCount;
    uint coeffCount;
    uint activeCount;
    uint flags;          // bit 0: stitch present, bit 1: gaze left, bit 2: gaze right
    vec4 eyePos[2];
    mat4 eyeRot[2];      // rotation in the upper 3x3
} params;

struct Active { uint index; float scale; };

layout(std430, binding = 1) readonly buffer Neutral { float neutral[]; };
layout(std430, binding = 2) readonly buffer Basis { uint basis[]; };          // fp16 pairs, vertex-major (V,E,3)
layout(std430, binding = 3) readonly buffer Actives { Active actives[]; };
layout(std430, binding = 4) readonly buffer EyeWeights { float eyeWeights[]; };  // (2, V)
layout(std430, binding = 5) readonly buffer Stitch { float stitch[]; };
layout(std430, binding = 6) readonly buffer SkinIndex { uvec4 skinIndex[]; };
layout(std430, binding = 7) readonly buffer SkinWeight { vec4 skinWeight[]; };
layout(std430, binding = 8) readonly buffer Skin { mat4 skin[]; };
layout(std430, binding = 9) writeonly buffer Posed { float posed[]; };

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
        if ((params.flags & (2u << e)) == 0u)
            continue;
        float w = eyeWeights[uint(e) * params.vertexCount + v];
        if (w == 0.0)
            continue;
        vec3 d = p - params.eyePos[e].xyz;
        p += w * (mat3(params.eyeRot[e]) * d - d);
    }
    if ((params.flags & 1u) != 0u)
        p += vec3(stitch[3u * v], stitch[3u * v + 1u], stitch[3u * v + 2u]);
    uvec4 j = skinIndex[v];
    vec4 w = skinWeight[v];
    vec4 src = vec4(p, 1.0);
    vec4 outp = w.x * (skin[j.x] * src) + w.y * (skin[j.y] * src) + w.z * (skin[j.z] * src) + w.w * (skin[j.w] * src);
    posed[3u * v] = outp.x;
    posed[3u * v + 1u] = outp.y;
    posed[3u * v + 2u] = outp.z;
}
