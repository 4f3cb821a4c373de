#version 440
#extension GL_GOOGLE_include_directive : require
#define RIGLENS_WANT_ENVIRONMENT
#include "shader_interface.h"
#include "environment.glsl"
// The diffuse irradiance map: per texel normal n, the cosine-weighted mean
// of the radiance over n's hemisphere (E / pi), summed over every texel of
// a small mip of the source (env.sampling.w) by its solid angle. Dividing by
// the summed weights (pi, up to the grid's error) keeps a uniform
// environment exactly uniform.
layout(local_size_x = kEnvGroupSize, local_size_y = kEnvGroupSize) in;
layout(binding = kEnvSource) uniform sampler2D source;
layout(binding = kEnvTarget, rgba16f) uniform writeonly image2D target;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= env.size.x || p.y >= env.size.y)
        return;
    vec3 n = equirectDirection((vec2(p) + 0.5) / vec2(env.size.xy));
    int level = int(env.sampling.w);
    ivec2 size = textureSize(source, level);
    vec3 sum = vec3(0.0);
    float weight = 0.0;
    for (int y = 0; y < size.y; ++y) {
        float top = kEnvPi * float(y) / float(size.y), bottom = kEnvPi * float(y + 1) / float(size.y);
        float solidAngle = 2.0 * kEnvPi * (cos(top) - cos(bottom)) / float(size.x);
        for (int x = 0; x < size.x; ++x) {
            vec3 l = equirectDirection((vec2(x, y) + 0.5) / vec2(size));
            float c = dot(n, l);
            if (c <= 0.0)
                continue;
            sum += texelFetch(source, ivec2(x, y), level).rgb * (c * solidAngle);
            weight += c * solidAngle;
        }
    }
    imageStore(target, p, vec4(sum / max(weight, 1.0e-8), 1.0));
}
