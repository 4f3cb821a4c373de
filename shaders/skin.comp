#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SKIN
#include "shader_interface.h"
// Morph targets, then linear blend skinning, of a skinned mesh.glb (bones =
// rig parts) or a glTF model (bones = its joints and mesh nodes). CPU
// reference: engine/core morphMesh then skinMesh; parity: tests/render.
layout(local_size_x = kSkinGroupSize) in;

layout(std430, binding = kSkinRestPositions) readonly buffer RestPositions { float restPositions[]; };
layout(std430, binding = kSkinRestNormals) readonly buffer RestNormals { float restNormals[]; };
layout(std430, binding = kSkinJoints) readonly buffer Joints { uvec4 joints[]; };
layout(std430, binding = kSkinWeights) readonly buffer Weights { vec4 weights[]; };
layout(std430, binding = kSkinBones) readonly buffer Bones { mat4 bones[]; };
layout(std430, binding = kSkinOutPositions) writeonly buffer OutPositions { float outPositions[]; };
layout(std430, binding = kSkinOutNormals) writeonly buffer OutNormals { float outNormals[]; };
// Per vertex its morph range (kSkinNoMorphRange: none); per range (first
// vertex, first slot, slot count, 0); per slot where its deltas start and
// its weight this frame; the deltas, three floats per vertex of the range.
layout(std430, binding = kSkinMorphRangeOf) readonly buffer MorphRangeOf { uint rangeOf[]; };
layout(std430, binding = kSkinMorphRanges) readonly buffer MorphRanges { uvec4 ranges[]; };
layout(std430, binding = kSkinMorphSlots) readonly buffer MorphSlots { uint slotOffsets[]; };
layout(std430, binding = kSkinMorphWeights) readonly buffer MorphWeights { float morphWeights[]; };
layout(std430, binding = kSkinMorphPositions) readonly buffer MorphPositions { float positionDeltas[]; };
layout(std430, binding = kSkinMorphNormals) readonly buffer MorphNormals { float normalDeltas[]; };
// The tangents (params.tangents: else 16-byte stand-ins, never read). The
// morph targets' tangent deltas are not applied (three.js does not either);
// the fragment shader makes the tangent perpendicular to the morphed normal.
layout(std430, binding = kSkinRestTangents) readonly buffer RestTangents { vec4 restTangents[]; };
layout(std430, binding = kSkinOutTangents) writeonly buffer OutTangents { vec4 outTangents[]; };

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v >= params.vertexCount)
        return;
    mat4 blend;
    if (params.rigid != 0u) {
        blend = bones[joints[v >> 2u][v & 3u]];
    } else {
        uvec4 j = joints[v];
        vec4 w = weights[v];
        blend = w.x * bones[j.x] + w.y * bones[j.y] + w.z * bones[j.z] + w.w * bones[j.w];
    }
    vec3 p = vec3(restPositions[3 * v], restPositions[3 * v + 1], restPositions[3 * v + 2]);
    vec3 n = vec3(restNormals[3 * v], restNormals[3 * v + 1], restNormals[3 * v + 2]);
    uint r = params.slotCount > 0u ? rangeOf[v] : kSkinNoMorphRange;
    if (r != kSkinNoMorphRange) {
        uvec4 range = ranges[r];
        uint local = 3u * (v - range.x);
        for (uint t = 0u; t < range.z; ++t) {
            float mw = morphWeights[range.y + t];
            if (mw == 0.0)
                continue;
            uint at = slotOffsets[range.y + t] + local;
            p += mw * vec3(positionDeltas[at], positionDeltas[at + 1u], positionDeltas[at + 2u]);
            n += mw * vec3(normalDeltas[at], normalDeltas[at + 1u], normalDeltas[at + 2u]);
        }
    }
    vec4 sp = blend * vec4(p, 1.0);
    vec3 sn = mat3(blend) * n;
    float len = length(sn);
    if (len > 0.0)
        sn /= len;
    outPositions[3 * v] = sp.x;
    outPositions[3 * v + 1] = sp.y;
    outPositions[3 * v + 2] = sp.z;
    outNormals[3 * v] = sn.x;
    outNormals[3 * v + 1] = sn.y;
    outNormals[3 * v + 2] = sn.z;
    if (params.tangents != 0u) {
        // core::skinTangents: turned like the normal; a mirroring blend
        // turns the bitangent over, so its sign flips.
        vec4 t = restTangents[v];
        vec3 st = mat3(blend) * t.xyz;
        float tl = length(st);
        outTangents[v] = vec4(tl > 0.0 ? st / tl : st, determinant(mat3(blend)) < 0.0 ? -t.w : t.w);
    }
}
