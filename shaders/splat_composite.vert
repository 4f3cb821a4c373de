#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_COMPOSITE
#include "shader_interface.h"
// The compute rasteriser's image over the viewport, or the part of it that
// holds splats (composite.drawn): two triangles over that rect. The pixel
// coordinates follow the projection's convention (NDC to pixels), so every
// backend reads the pixel the rasteriser wrote, and the rect needs no
// scissor (QRhi 6.4's OpenGL backend keeps a scissor for the next pass's clear).
layout(location = 0) out vec2 vPixel;

void main()
{
    // Corners of the two triangles: (0,0) (1,0) (0,1), (0,1) (1,0) (1,1).
    const int corner[6] = int[6](0, 1, 2, 2, 1, 3);
    int c = corner[gl_VertexIndex];
    vec2 pixel = vec2((c & 1) != 0 ? composite.drawn.z : composite.drawn.x,
                      (c & 2) != 0 ? composite.drawn.w : composite.drawn.y);
    vPixel = pixel;
    gl_Position = vec4(pixel / composite.viewport.xy * 2.0 - 1.0, 0.0, 1.0);
}
