#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_FRAME
#define RIGLENS_WANT_PART
#define RIGLENS_WANT_MATERIAL
#include "shader_interface.h"
#include "srgb.glsl"
// Review shading: the base colour (vertex colour x texture, or a QA tint)
// lit by a key and a fill light over a hemispheric ambient term, in linear
// space, encoded to sRGB on output. The material's alpha masks or blends
// (glTF 2.0, 3.9.4); an unlit material shows its base colour as is.
layout(location = 0) in vec3 vNormal;
layout(location = 1) in vec3 vColor;
layout(location = 2) in vec3 vBary;
layout(location = 3) centroid in vec2 vUv;

// An sRGB texture: sampling returns linear values.
layout(binding = kBaseColorBinding) uniform sampler2D baseColorTexture;

layout(location = 0) out vec4 fragColor;

// Tint modes, as core::TintMode.
const int kColor = 0, kPart = 1, kJoint = 2, kNormals = 3, kWireframe = 4, kSockets = 5;
// Not a core::TintMode: a tint given per vertex in the colour attribute (a
// skinned mesh's joint tint, each vertex its bones' colours by weight).
const int kVertexTint = 6;

void main()
{
    vec4 texel = material.flags.x != 0 ? texture(baseColorTexture, vUv) : vec4(1.0);
    float alpha = material.alpha.x * texel.a;
    if (material.alpha.y >= 0.0 && alpha < material.alpha.y)
        discard;
    alpha = material.alpha.z > 0.5 ? alpha : 1.0;
    vec3 n = normalize(vNormal);
    if (!gl_FrontFacing)
        n = -n;
    int mode = frame.mode.x;
    vec3 rgb;
    if (mode == kNormals) {
        rgb = n * 0.5 + 0.5;  // shown as is: a debugging view, not lit
        fragColor = vec4(rgb, 1.0);
        if (part.tint.w > 0.5)
            fragColor.rgb = mix(fragColor.rgb, frame.highlightColor.rgb, frame.highlightColor.w);
        return;
    }
    bool tinted = mode == kPart || mode == kJoint || mode == kVertexTint;
    vec3 base = mode == kVertexTint ? vColor : tinted ? part.tint.rgb : vColor * texel.rgb;
    float hemi = n.y * 0.5 + 0.5;
    vec3 light = mix(frame.groundColor.rgb, frame.skyColor.rgb, hemi) * frame.skyColor.w
               + max(dot(n, frame.keyDir.xyz), 0.0) * frame.keyDir.w
               + max(dot(n, frame.fillDir.xyz), 0.0) * frame.fillDir.w;
    rgb = (material.flags.y != 0 && !tinted) ? base : base * light;
    if (part.tint.w > 0.5)
        rgb = mix(rgb, frame.highlightColor.rgb, frame.highlightColor.w);
    if (frame.mode.z != 0) {
        // Distance to the nearest edge in pixels, from the barycentrics.
        vec3 d = fwidth(vBary);
        vec3 a = smoothstep(vec3(0.0), d * frame.wire.x, vBary);
        float edge = 1.0 - min(min(a.x, a.y), a.z);
        rgb = mix(rgb, frame.wire.yzw, edge);
    }
    fragColor = vec4(frame.mode.y != 0 ? encodeSrgb(rgb) : rgb, alpha);
}
