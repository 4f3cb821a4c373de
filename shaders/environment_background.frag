#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_FRAME
#include "shader_interface.h"
#include "pbr.glsl"
#include "environment.glsl"
#include "srgb.glsl"
// The environment behind the model: the prefiltered map at the chosen
// blur (level 0: the map itself), turned as the light is, exposed and
// tone-mapped as the model is.
layout(location = 0) in vec3 vRay;
layout(binding = kPrefilteredBinding) uniform sampler2D prefilteredMap;
layout(location = 0) out vec4 fragColor;

void main()
{
    vec3 d = environmentDirection(normalize(vRay));
    vec3 radiance = textureLod(prefilteredMap, equirectUv(d), frame.environment.w).rgb * frame.exposure.y;
    vec3 rgb = toneMap(radiance);
    fragColor = vec4(frame.mode.y != 0 ? encodeSrgb(rgb) : rgb, 1.0);
}
