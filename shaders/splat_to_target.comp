#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_COMPOSITE
#include "shader_interface.h"
// A frame of splats alone, written whole without a render pass
// (OffscreenCanvas on a drawable that draws nothing else): each pixel of the
// target is the splat image's premultiplied pixel blended over the
// background, One / OneMinusSrcAlpha as splat_composite.frag's pipeline
// blends it over the pass's clear colour. Nothing else is drawn, so the
// image's depth plays no part. Rows follow splat_composite.vert: image row y
// is the target's row y on every backend (the texture's first row is where
// NDC y = -1 lands).
layout(local_size_x = kCompositeGroupSize, local_size_y = kCompositeGroupSize) in;

layout(std430, binding = kCompositeImage) readonly buffer Image { uvec2 image[]; };
layout(binding = kCompositeTarget, rgba8) uniform writeonly image2D target;

void main()
{
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= uint(composite.viewport.x) || p.y >= uint(composite.viewport.y))
        return;
    vec4 colour = composite.background;
    // Outside `drawn` the image holds an older frame's pixels (a CPU upload covers only its rect).
    bool inDrawn = all(greaterThanEqual(vec2(p), composite.drawn.xy)) && all(lessThan(vec2(p), composite.drawn.zw));
    uint word = inDrawn ? image[p.y * uint(composite.viewport.x) + p.x].x : 0u;
    if (word != 0u) {
        vec4 splat = unpackUnorm4x8(word);
        colour = splat + (1.0 - splat.a) * colour;
    }
    imageStore(target, ivec2(p), colour);
}
