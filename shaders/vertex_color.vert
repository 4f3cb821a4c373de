#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_MVP
#include "shader_interface.h"
// Unlit vertex colours: position through one matrix, colour passed through.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 color;

layout(location = 0) out vec3 vColor;

void main()
{
    vColor = color;
    gl_Position = frame.mvp * vec4(position, 1.0);
}
