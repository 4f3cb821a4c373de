#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_COMPOSITE
#include "shader_interface.h"
// The compute rasteriser's image over the viewport: one triangle that covers
// it; the pixel coordinates follow the projection's convention (NDC to
// pixels), so every backend reads the pixel the rasteriser wrote.
layout(location = 0) out vec2 vPixel;

void main()
{
    vec2 ndc = vec2(gl_VertexIndex == 1 ? 3.0 : -1.0, gl_VertexIndex == 2 ? 3.0 : -1.0);
    vPixel = (ndc * 0.5 + 0.5) * composite.viewport.xy;
    gl_Position = vec4(ndc, 0.0, 1.0);
}
