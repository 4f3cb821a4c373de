#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_FRAME
#define RIGLENS_WANT_PART
#include "shader_interface.h"
// part.vert for the PBR look (part_pbr.frag): the same, and the world
// position and texture set 1 its shading reads. Kept apart so the review
// look's pipeline interpolates no more than it uses (llvmpipe pays per varying).
// Voxel part meshes and glTF models: one draw per part, posed by the part's world matrix.
// Attributes come from separate buffers (the GPU skinning pass writes
// positions and normals on their own). Vertex bindings:
// engine/render/src/device/gpu_layouts.h; blocks: shader_interface.h.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec3 color;
layout(location = 3) in vec3 barycentric;  // the wireframe's; unused here (the wireframe draws in review shading)
layout(location = 4) in vec2 uv;           // the base colour texture's coordinates, (0,0) when untextured
layout(location = 5) in vec2 uv1;          // texture set 1 (core::MeshMaterials::uvs1), (0,0) when none
layout(location = 6) in vec4 tangent;      // the normal map's (xyz, bitangent sign); zero when none

layout(location = 0) out vec3 vNormal;
layout(location = 1) out vec3 vColor;
// centroid: with multisampling an edge pixel samples the texture inside the
// triangle, not past its edge (where a repeating texture wraps around).
layout(location = 3) centroid out vec2 vUv;
layout(location = 4) out vec3 vWorld;  // the PBR look's view and light vectors start here
layout(location = 5) centroid out vec2 vUv1;
layout(location = 6) out vec4 vTangent;  // world space; w flips with a mirroring model matrix

void main()
{
    vNormal = mat3(part.normalMatrix) * normal;
    vColor = color;
    vUv = uv;
    vUv1 = uv1;
    mat3 model = mat3(part.model);
    vTangent = vec4(model * tangent.xyz, determinant(model) < 0.0 ? -tangent.w : tangent.w);
    vec4 world = part.model * vec4(position, 1.0);
    vWorld = world.xyz;
    gl_Position = frame.viewProj * world;
}
