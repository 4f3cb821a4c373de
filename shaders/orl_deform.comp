#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_ORL
#include "shader_interface.h"
// The ORL deform on the GPU, one invocation per vertex: the neutral plus
// every blendshape entry of the vertex's CSR row weighted by its channel
// (zero weights skipped), then linear-blend skinning over maxInfluence
// joints (zero weights skipped). Centimetres. CPU reference: core::orlDeform;
// parity: tests/render.
layout(local_size_x = kOrlGroupSize) in;

layout(std430, binding = kOrlNeutral) readonly buffer Neutral { float neutral[]; };
layout(std430, binding = kOrlCsrOffset) readonly buffer CsrOffset { uint csrOffset[]; };    // V + 1 row starts
layout(std430, binding = kOrlCsrChannel) readonly buffer CsrChannel { uint csrChannel[]; };
layout(std430, binding = kOrlCsrDelta) readonly buffer CsrDelta { float csrDelta[]; };      // 3 per entry, dequantised
layout(std430, binding = kOrlSkinIndex) readonly buffer SkinIndex { uint skinIndex[]; };    // V * maxInfluence
layout(std430, binding = kOrlSkinWeight) readonly buffer SkinWeight { float skinWeight[]; };
layout(std430, binding = kOrlSkinRows) readonly buffer SkinRows { vec4 skinRows[]; };       // 3 per joint
layout(std430, binding = kOrlWeights) readonly buffer Weights { float weights[]; };         // per channel
layout(std430, binding = kOrlPosed) writeonly buffer Posed { float posed[]; };

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v >= params.vertexCount)
        return;
    vec3 p = vec3(neutral[3u * v], neutral[3u * v + 1u], neutral[3u * v + 2u]);
    for (uint e = csrOffset[v]; e < csrOffset[v + 1u]; ++e) {
        float w = weights[csrChannel[e]];
        if (w != 0.0)
            p += w * vec3(csrDelta[3u * e], csrDelta[3u * e + 1u], csrDelta[3u * e + 2u]);
    }
    vec4 h = vec4(p, 1.0);
    vec3 skinned = vec3(0.0);
    for (uint k = 0u; k < params.maxInfluence; ++k) {
        uint i = v * params.maxInfluence + k;
        float w = skinWeight[i];
        if (w == 0.0)
            continue;
        uint j = skinIndex[i];
        skinned += w * vec3(dot(skinRows[3u * j], h), dot(skinRows[3u * j + 1u], h), dot(skinRows[3u * j + 2u], h));
    }
    posed[3u * v] = skinned.x;
    posed[3u * v + 1u] = skinned.y;
    posed[3u * v + 2u] = skinned.z;
}
