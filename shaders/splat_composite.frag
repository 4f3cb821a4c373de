#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_COMPOSITE
#include "shader_interface.h"
// Draws the compute rasteriser's pixel (premultiplied, blended One /
// OneMinusSrcAlpha like the quads) at the depth of the splat that made it
// half opaque (else its first splat), so the voxel renderer's nearer
// surfaces hide it, as they hide the quads.
layout(location = 0) in vec2 vPixel;
layout(location = 0) out vec4 fragColor;

layout(std430, binding = kCompositeImage) readonly buffer Image { uvec2 image[]; };

void main()
{
    uvec2 p = uvec2(clamp(vPixel, vec2(0.0), composite.viewport.xy - 1.0));
    uvec2 texel = image[p.y * uint(composite.viewport.x) + p.x];
    if (texel.x == 0u)
        discard;
    fragColor = unpackUnorm4x8(texel.x);
    gl_FragDepth = uintBitsToFloat(texel.y) * composite.viewport.z + composite.viewport.w;
}
