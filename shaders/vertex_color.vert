#version 440
// Unlit vertex colours: position through one matrix, colour passed through.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 color;

layout(std140, binding = 0) uniform Frame {
    mat4 mvp;   // clip-space correction already folded in on the CPU
} frame;

layout(location = 0) out vec3 vColor;

void main()
{
    vColor = color;
    gl_Position = frame.mvp * vec4(position, 1.0);
}
