#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_FRAME
#include "shader_interface.h"
// Overlay lines (ground grid, axis gizmo, socket markers) in world space.
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 color;  // sRGB display colour, alpha for fading

layout(location = 0) out vec4 vColor;

void main()
{
    vColor = color;
    gl_Position = frame.viewProj * vec4(position, 1.0);
}
