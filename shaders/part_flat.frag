#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_FRAME
#define RIGLENS_WANT_PART
#define RIGLENS_WANT_MATERIAL
#include "shader_interface.h"
#include "review_shading.glsl"
// The face's colour part_flat.vert shaded, front or back; the material's
// alpha as part.frag applies it (the normals tint is opaque there too).
layout(location = 0) flat in vec3 vFront;
layout(location = 1) flat in vec3 vBack;

layout(location = 0) out vec4 fragColor;

void main()
{
    opaqueZero = int(gl_FragCoord.x < 0.0);  // pixels lie at x >= 0
    float alpha;
    if (!reviewAlpha(1.0, alpha))
        discard;
    fragColor = vec4(gl_FrontFacing ? vFront : vBack, uniformBranch(frame.mode.x) == kNormals ? 1.0 : alpha);
}
