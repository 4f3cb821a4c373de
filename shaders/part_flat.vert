#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_FRAME
#define RIGLENS_WANT_PART
#define RIGLENS_WANT_MATERIAL
#include "shader_interface.h"
#include "srgb.glsl"
#include "review_shading.glsl"
// Parts of flat faces (core::hasFlatFaces), untextured, in the review look:
// a triangle's corners share one normal and one colour, so part.frag's
// shading is the same at all its pixels; it is done here, once per vertex,
// for the front and the back face (part.frag flips the normal of a face
// seen from behind), and part_flat.frag picks one. On a CPU rasteriser, which
// shades a 4x4 block for every sub-pixel triangle, this is a third of a voxel
// run's frame. Same inputs as part.vert (gpu_layouts.h); the barycentrics and
// texture coordinates it does not read.
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec3 color;

layout(location = 0) flat out vec3 vFront;
layout(location = 1) flat out vec3 vBack;

vec3 faceColor(vec3 n)
{
    bool shownAsIs;
    vec3 rgb = reviewShade(n, color, vec3(1.0), shownAsIs);
    return shownAsIs || uniformBranch(frame.mode.y) == 0 ? rgb : encodeSrgb(rgb);
}

void main()
{
    // A coordinate past 3e38 overflows any projection: such a vertex draws nothing.
    opaqueZero = int(position.x >= 3.0e38);
    vec3 n = normalize(mat3(part.normalMatrix) * normal);
    vFront = faceColor(n);
    vBack = faceColor(-n);
    gl_Position = frame.viewProj * part.model * vec4(position, 1.0);
}
