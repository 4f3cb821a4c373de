#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_FRAME
#define RIGLENS_WANT_PART
#include "shader_interface.h"
// Voxel part meshes and glTF models: one draw per part, posed by the part's world matrix.
// Attributes come from separate buffers (the GPU skinning pass writes
// positions and normals on their own). Vertex bindings:
// engine/render/src/device/gpu_layouts.h; blocks: shader_interface.h.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec3 color;
layout(location = 3) in vec3 barycentric;  // per vertex for wireframe, (1,1,1) otherwise
layout(location = 4) in vec2 uv;           // the base colour texture's coordinates, (0,0) when untextured

layout(location = 0) out vec3 vNormal;
layout(location = 1) out vec3 vColor;
layout(location = 2) out vec3 vBary;
// centroid: with multisampling an edge pixel samples the texture inside the
// triangle, not past its edge (where a repeating texture wraps around).
layout(location = 3) centroid out vec2 vUv;

void main()
{
    vNormal = mat3(part.normalMatrix) * normal;
    vColor = color;
    vBary = barycentric;
    vUv = uv;
    gl_Position = frame.viewProj * part.model * vec4(position, 1.0);
}
