#version 440
// Linear blend skinning of a skinned mesh.glb (bones = rig parts). CPU
// reference: engine/core skinning.h (skinMesh); parity: tests/render.
layout(local_size_x = 64) in;

layout(std140, binding = 0) uniform Params {
    uint vertexCount;
    uint boneCount;
} params;

layout(std430, binding = 1) readonly buffer RestPositions { float restPositions[]; };
layout(std430, binding = 2) readonly buffer RestNormals { float restNormals[]; };
layout(std430, binding = 3) readonly buffer Joints { uvec4 joints[]; };
layout(std430, binding = 4) readonly buffer Weights { vec4 weights[]; };
layout(std430, binding = 5) readonly buffer Bones { mat4 bones[]; };
layout(std430, binding = 6) writeonly buffer OutPositions { float outPositions[]; };
layout(std430, binding = 7) writeonly buffer OutNormals { float outNormals[]; };

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
