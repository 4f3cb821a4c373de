#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_FRAME
#include "shader_interface.h"
// The PBR look's background: one triangle over the viewport, carrying the
// world-space ray through each corner (points on one plane of constant
// depth: their screen positions are affine in them, so the ray
// interpolates exactly).
layout(location = 0) out vec3 vRay;

void main()
{
    vec2 ndc = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2)) * 2.0 - 1.0;
    vec4 far = inverse(frame.viewProj) * vec4(ndc, 0.5, 1.0);
    vRay = far.xyz / far.w - frame.cameraPos.xyz;
    gl_Position = vec4(ndc, 0.0, 1.0);
}
