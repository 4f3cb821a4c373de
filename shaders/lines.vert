#version 440
// Overlay lines (ground grid, axis gizmo, socket markers) in world space.
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 color;  // sRGB display colour, alpha for fading

layout(std140, binding = 0) uniform Frame {
    mat4 viewProj;
    vec4 cameraPos;
    vec4 keyDir;
    vec4 fillDir;
    vec4 skyColor;
    vec4 groundColor;
    vec4 highlightColor;
    ivec4 mode;
    vec4 wire;
} frame;

layout(location = 0) out vec4 vColor;

void main()
{
    vColor = color;
    gl_Position = frame.viewProj * vec4(position, 1.0);
}
