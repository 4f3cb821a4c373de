#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_SKIN
#include "shader_interface.h"
// Linear blend skinning of a skinned mesh.glb (bones = rig parts). CPU
// reference: engine/core skinning.h (skinMesh); parity: tests/render.
layout(local_size_x = kSkinGroupSize) in;

layout(std430, binding = kSkinRestPositions) readonly buffer RestPositions { float restPositions[]; };
layout(std430, binding = kSkinRestNormals) readonly buffer RestNormals { float restNormals[]; };
layout(std430, binding = kSkinJoints) readonly buffer Joints { uvec4 joints[]; };
layout(std430, binding = kSkinWeights) readonly buffer Weights { vec4 weights[]; };
layout(std430, binding = kSkinBones) readonly buffer Bones { mat4 bones[]; };
layout(std430, binding = kSkinOutPositions) writeonly buffer OutPositions { float outPositions[]; };
layout(std430, binding = kSkinOutNormals) writeonly buffer OutNormals { float outNormals[]; };

void main()
{
    uint v = gl_GlobalInvocationID.x;
    if (v >= params.vertexCount)
        return;
    uvec4 j = joints[v];
    vec4 w = weights[v];
    mat4 blend = w.x * bones[j.x] + w.y * bones[j.y] + w.z * bones[j.z] + w.w * bones[j.w];
    vec3 p = vec3(restPositions[3 * v], restPositions[3 * v + 1], restPositions[3 * v + 2]);
    vec3 n = vec3(restNormals[3 * v], restNormals[3 * v + 1], restNormals[3 * v + 2]);
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
}
