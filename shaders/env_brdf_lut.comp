#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_ENVIRONMENT
#define RIGLENS_ENV_SAMPLING
#include "shader_interface.h"
#include "environment.glsl"
// The split sum's second factor (Karis 2013): per (n.v, roughness) the
// scale A and bias B of F0 in the directional albedo of Appendix B's
// specular lobe, with its separable Smith term:
//   A = mean (1 - Fc) G (v.h) / ((n.h)(n.v)),  B = mean Fc G (v.h) / ((n.h)(n.v)),
// Fc = (1 - v.h)^5, over half vectors drawn from D(h) (n.h).
layout(local_size_x = kEnvGroupSize, local_size_y = kEnvGroupSize) in;
layout(binding = kEnvTarget, rgba16f) uniform writeonly image2D target;

float smithG1(float x, float alpha)
{
    float a2 = alpha * alpha;
    return 2.0 * x / (x + sqrt(a2 + (1.0 - a2) * x * x));
}

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= env.size.x || p.y >= env.size.y)
        return;
    float nv = (float(p.x) + 0.5) / float(env.size.x);
    float roughness = (float(p.y) + 0.5) / float(env.size.y);
    float alpha = roughness * roughness;
    vec3 n = vec3(0.0, 0.0, 1.0), v = vec3(sqrt(1.0 - nv * nv), 0.0, nv);
    uint count = uint(env.size.z);
    float a = 0.0, b = 0.0;
    for (uint i = 0u; i < count; ++i) {
        vec3 h = ggxHalfVector(hammersley(i, count), n, alpha);
        float vh = dot(v, h);
        vec3 l = 2.0 * vh * h - v;
        if (l.z <= 0.0 || vh <= 0.0)
            continue;
        float visibility = smithG1(l.z, alpha) * smithG1(nv, alpha) * vh / (h.z * nv);
        float m = 1.0 - vh, fc = m * m * m * m * m;
        a += (1.0 - fc) * visibility;
        b += fc * visibility;
    }
    imageStore(target, p, vec4(a / float(count), b / float(count), 0.0, 1.0));
}
