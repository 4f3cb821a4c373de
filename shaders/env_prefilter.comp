#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_ENVIRONMENT
#define RIGLENS_ENV_SAMPLING
#include "shader_interface.h"
#include "environment.glsl"
// One level of the prefiltered specular map (the split sum's first factor,
// Karis 2013): per texel direction n, with n = v, the radiance around n
// weighted by the GGX lobe of the level's roughness and by n.l,
//   sum L(l) (n.l) / sum (n.l)  over l drawn with pdf D(h) / 4,
// each sample read from the source's mip whose texels cover the sample's
// solid angle (filtered importance sampling, Colbert and Krivanek 2007,
// without Karis' extra level: it blurred the lobe's edges 5-10% past the
// integral), so few samples do not alias.
// Roughness 0 (level 0) is the source itself, resampled.
layout(local_size_x = kEnvGroupSize, local_size_y = kEnvGroupSize) in;
layout(binding = kEnvSource) uniform sampler2D source;
layout(binding = kEnvTarget, rgba16f) uniform writeonly image2D target;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= env.size.x || p.y >= env.size.y)
        return;
    vec3 n = equirectDirection((vec2(p) + 0.5) / vec2(env.size.xy));
    float alpha = env.sampling.x * env.sampling.x;
    if (alpha <= 0.0) {
        imageStore(target, p, vec4(textureLod(source, equirectUv(n), env.sampling.w).rgb, 1.0));
        return;
    }
    uint count = uint(env.size.z);
    // A source texel spans pi / height radians down the map everywhere but
    // only (2 pi / width) sin(theta) across, so towards the poles its area
    // vanishes while its height does not: the mip is chosen by the height
    // (the horizon's square texel), or samples near the poles would read
    // mips that reach far down the map.
    float texelAngle = (kEnvPi / env.sampling.z) * (kEnvPi / env.sampling.z);
    float topLevel = float(env.size.w - 1);
    vec3 sum = vec3(0.0);
    float weight = 0.0;
    for (uint i = 0u; i < count; ++i) {
        vec3 h = ggxHalfVector(hammersley(i, count), n, alpha);
        vec3 l = 2.0 * dot(n, h) * h - n;
        float nl = dot(n, l);
        if (nl <= 0.0)
            continue;
        float pdf = ggxDistribution(dot(n, h), alpha) * 0.25;
        float sampleAngle = 1.0 / (float(count) * pdf);
        float lod = clamp(0.5 * log2(sampleAngle / texelAngle), 0.0, topLevel);
        sum += textureLod(source, equirectUv(l), lod).rgb * nl;
        weight += nl;
    }
    imageStore(target, p, vec4(sum / max(weight, 1.0e-8), 1.0));
}
