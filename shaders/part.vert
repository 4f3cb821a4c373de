#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_FRAME
#define RIGLENS_WANT_PART
#include "shader_interface.h"
// Voxel part meshes: one draw per part, posed by the part's world matrix.
// Attributes come from separate buffers (the GPU skinning pass writes
// positions and normals on their own). Vertex bindings:
// engine/render/src/device/gpu_layouts.h; blocks: shader_interface.h.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec3 color;
layout(location = 3) in vec3 barycentric;  // per vertex for wireframe, (1,1,1) otherwise

layout(location = 0) out vec3 vNormal;
layout(location = 1) out vec3 vColor;
layout(location = 2) out vec3 vBary;

void main()
{
    vNormal = mat3(part.normalMatrix) * normal;
    vColor = color;
    vBary = barycentric;
    gl_Position = frame.viewProj * part.model * vec4(position, 1.0);
}
