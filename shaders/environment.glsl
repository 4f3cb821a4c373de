// The environment map's equirectangular mapping (core::equirectDirection and
// core::equirectCoordinates: row 0 up, the centre column along -z, +x to
// its right) and GGX importance sampling, shared by the passes that
// prefilter the map (env_*.comp) and the shaders that read it.
const float kEnvPi = 3.14159265358979;

vec3 equirectDirection(vec2 uv)
{
    float phi = (uv.x - 0.5) * 2.0 * kEnvPi, theta = uv.y * kEnvPi;
    return vec3(sin(theta) * sin(phi), cos(theta), -sin(theta) * cos(phi));
}

vec2 equirectUv(vec3 d)
{
    d = normalize(d);
    return vec2(0.5 + atan(d.x, -d.z) / (2.0 * kEnvPi), acos(clamp(d.y, -1.0, 1.0)) / kEnvPi);
}

#ifdef RIGLENS_ENV_SAMPLING
// The i-th of n points of the Hammersley set.
vec2 hammersley(uint i, uint n)
{
    return vec2(float(i) / float(n), float(bitfieldReverse(i)) * 2.3283064365386963e-10);
}

// A half vector drawn from the Trowbridge-Reitz (GGX) distribution of
// roughness alpha around n: its pdf over half vectors is D(h) (n.h).
vec3 ggxHalfVector(vec2 xi, vec3 n, float alpha)
{
    float phi = 2.0 * kEnvPi * xi.x;
    float cosTheta = sqrt((1.0 - xi.y) / (1.0 + (alpha * alpha - 1.0) * xi.y));
    float sinTheta = sqrt(max(1.0 - cosTheta * cosTheta, 0.0));
    vec3 up = abs(n.y) < 0.999 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    vec3 t = normalize(cross(up, n));
    vec3 b = cross(n, t);
    return t * (sinTheta * cos(phi)) + b * (sinTheta * sin(phi)) + n * cosTheta;
}

// Appendix B's D (normalised: its integral of D(h) (n.h) is 1).
float ggxDistribution(float nh, float alpha)
{
    float a2 = alpha * alpha;
    float d = nh * nh * (a2 - 1.0) + 1.0;
    return nh > 0.0 ? a2 / (kEnvPi * d * d) : 0.0;
}
#endif
