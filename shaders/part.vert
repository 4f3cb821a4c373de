#version 440
// Voxel part meshes: one draw per part, posed by the part's world matrix.
// Attributes come from separate buffers (the GPU skinning pass writes
// positions and normals on their own). Layouts: engine/render/src/gpu_layouts.h.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec3 color;
layout(location = 3) in vec3 barycentric;  // per vertex for wireframe, (1,1,1) otherwise

layout(std140, binding = 0) uniform Frame {
    mat4 viewProj;
    vec4 cameraPos;
    vec4 keyDir;       // xyz: towards the light, w: intensity
    vec4 fillDir;
    vec4 skyColor;     // rgb, w: ambient strength
    vec4 groundColor;
    vec4 highlightColor;  // rgb, w: mix amount
    ivec4 mode;        // x: tint mode, y: encode sRGB, z: wireframe overlay
    vec4 wire;         // x: edge width in pixels, yzw: edge colour
} frame;

layout(std140, binding = 1) uniform Part {
    mat4 model;
    mat4 normalMatrix;  // inverse-transpose of the model's 3x3, in a mat4
    vec4 tint;          // rgb: QA tint, w: 1 when highlighted
} part;

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
