#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_FRAME
#define RIGLENS_WANT_PART
#define RIGLENS_WANT_MATERIAL
#include "shader_interface.h"
#include "srgb.glsl"
#include "review_shading.glsl"
// Review shading at every pixel (review_shading.glsl), encoded to sRGB on
// output, with the wireframe tint's edges. The material's alpha masks or
// blends (glTF 2.0, 3.9.4); an unlit material shows its base colour as is.
// Parts of flat faces take part_flat.vert / part_flat.frag instead.
layout(location = 0) in vec3 vNormal;
layout(location = 1) in vec3 vColor;
layout(location = 2) in vec3 vBary;
layout(location = 3) centroid in vec2 vUv;

// An sRGB texture: sampling returns linear values.
layout(binding = kBaseColorBinding) uniform sampler2D baseColorTexture;

layout(location = 0) out vec4 fragColor;

void main()
{
    opaqueZero = int(gl_FragCoord.x < 0.0);  // pixels lie at x >= 0
    vec4 texel = material.flags.x != 0 ? texture(baseColorTexture, vUv) : vec4(1.0);
    float alpha;
    if (!reviewAlpha(texel.a, alpha))
        discard;
    vec3 n = normalize(vNormal);
    if (!gl_FrontFacing)
        n = -n;
    bool shownAsIs;
    vec3 rgb = reviewShade(n, vColor, texel.rgb, shownAsIs);
    if (shownAsIs) {
        fragColor = vec4(rgb, 1.0);
        return;
    }
    if (frame.mode.z != 0) {
        // Distance to the nearest edge in pixels, from the barycentrics.
        vec3 d = fwidth(vBary);
        vec3 a = smoothstep(vec3(0.0), d * frame.wire.x, vBary);
        float edge = 1.0 - min(min(a.x, a.y), a.z);
        rgb = mix(rgb, frame.wire.yzw, edge);
    }
    fragColor = vec4(frame.mode.y != 0 ? encodeSrgb(rgb) : rgb, alpha);
}
