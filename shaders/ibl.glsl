// The PBR look's image-based light (split sum, Karis 2013) with the
// multiple-scattering energy compensation of Fdez-Agüera (2019, "A
// Multiple-Scattering Microfacet Model for Real-Time Image-based
// Lighting"; three.js's computeMultiscattering): a rough metal keeps the
// energy its single-scattering lobe loses, so a white furnace stays white.
// Part of part_pbr.frag, which declares prefilteredMap, irradianceMap and
// brdfLut before including it.

// The specular light of a lobe with Fresnel f0 -> f90, and (out) the share
// of the light it scatters.
vec3 specularIbl(vec3 f0, float f90, vec2 ab, vec3 radiance, vec3 irradiance, out vec3 scattered)
{
    float ems = 1.0 - (ab.x + ab.y);
    vec3 fssEss = f0 * ab.x + f90 * ab.y;
    vec3 favg = f0 + (1.0 - f0) / 21.0;
    vec3 fmsEms = ems * fssEss * favg / (1.0 - ems * favg);
    scattered = fssEss + fmsEms;
    return fssEss * radiance + fmsEms * irradiance;
}

vec3 imageBasedLight(Surface s, float occlusion)
{
    float intensity = frame.exposure.y;
    if (intensity <= 0.0)
        return vec3(0.0);
    if (frame.environment.y <= 0.0)
        return environmentLight(s, occlusion);
    float nv = clamp(dot(s.n, s.v), 1.0e-4, 1.0);
    float roughness = sqrt(s.alpha);
    vec2 ab = textureLod(brdfLut, vec2(nv, roughness), 0.0).rg;
    vec3 irradiance = textureLod(irradianceMap, equirectUv(environmentDirection(s.n)), 0.0).rgb * intensity;
    vec3 r = environmentDirection(reflect(-s.v, s.n));
    vec3 radiance = textureLod(prefilteredMap, equirectUv(r), roughness * frame.environment.y).rgb * intensity;
    vec3 scattered;
    vec3 dielectric = specularIbl(s.f0 * s.specularWeight, s.specularWeight, ab, radiance, irradiance, scattered);
    dielectric += s.baseColor * (1.0 - max(scattered.r, max(scattered.g, scattered.b))) * irradiance;
    vec3 metal = specularIbl(s.baseColor, 1.0, ab, radiance, irradiance, scattered);
    return mix(dielectric, metal, s.metallic) * occlusion;
}
