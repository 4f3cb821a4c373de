// The PBR look's shading (core::Look::Pbr): glTF 2.0's metallic-roughness
// BRDF exactly as the specification's Appendix B writes it (separable Smith
// visibility, Trowbridge-Reitz distribution, Schlick's Fresnel), with
// KHR_materials_ior's F0 and KHR_materials_specular's fresnel_mix; the
// punctual lights of KHR_lights_punctual with the Sample Viewer's range
// and cone falloffs; exposure; tone mapping. Part of part_pbr.frag, which
// declares the frame block it reads.
const float kPi = 3.14159265358979;
// Roughness 0 makes the distribution a delta: alpha stays above this, far
// below what a pixel can resolve.
const float kMinAlpha = 1.0e-3;

struct Surface {
    vec3 n;          // shading normal (normal map applied)
    vec3 v;          // towards the eye
    vec3 baseColor;  // linear
    float metallic;
    float alpha;     // roughness squared
    vec3 f0;         // dielectric F0: ((ior - 1) / (ior + 1))^2 x specular colour, at most 1
    float specularWeight;
};

float heaviside(float x)
{
    return x > 0.0 ? 1.0 : 0.0;
}

// Appendix B: D, and V = G / (4 |N.L| |N.V|) with G the separable Smith term.
float distributionGgx(float nh, float alpha)
{
    float a2 = alpha * alpha;
    float d = nh * nh * (a2 - 1.0) + 1.0;
    return a2 * heaviside(nh) / (kPi * d * d);
}

float visibilitySmith(float nl, float nv, float hl, float hv, float alpha)
{
    float a2 = alpha * alpha;
    float l = abs(nl), v = abs(nv);
    float gl = 2.0 * l * heaviside(hl) / (l + sqrt(a2 + (1.0 - a2) * l * l));
    float gv = 2.0 * v * heaviside(hv) / (v + sqrt(a2 + (1.0 - a2) * v * v));
    return gl * gv / max(4.0 * l * v, 1.0e-8);
}

// The BRDF (times nothing: the caller multiplies by N.L and the light) for
// light arriving from direction `l`.
vec3 brdf(Surface s, vec3 l)
{
    vec3 h = normalize(l + s.v);
    float nl = dot(s.n, l), nv = dot(s.n, s.v), nh = dot(s.n, h);
    float vh = dot(s.v, h), hl = dot(h, l);
    float specular = visibilitySmith(nl, nv, hl, vh, s.alpha) * distributionGgx(nh, s.alpha);
    float m = 1.0 - abs(vh), m2 = m * m;
    float schlick = m2 * m2 * m;  // (1 - |V.H|)^5 without pow: llvmpipe's pow is exp2(log2) per lane
    vec3 diffuse = s.baseColor / kPi;
    vec3 metal = specular * (s.baseColor + (1.0 - s.baseColor) * schlick);
    // KHR_materials_specular's fresnel_mix; without the extension (weight 1,
    // colour 1, ior 1.5) it is Appendix B's mix(diffuse, specular, 0.04 + 0.96 schlick).
    vec3 fr = s.f0 + (1.0 - s.f0) * schlick;
    float frMax = max(fr.r, max(fr.g, fr.b));
    vec3 dielectric = (1.0 - s.specularWeight * frMax) * diffuse + s.specularWeight * fr * specular;
    return mix(dielectric, metal, s.metallic);
}

// The light reaching the surface at `p` from light `i`, and its direction.
vec3 incidentLight(int i, vec3 p, out vec3 l)
{
    vec4 position = frame.lightPosition[i];
    vec4 direction = frame.lightDirection[i];
    vec3 color = frame.lightColor[i].rgb;
    if (position.w < 0.5) {  // directional: lux, no falloff
        l = -direction.xyz;
        return color;
    }
    vec3 toLight = position.xyz - p;
    float d2 = max(dot(toLight, toLight), 1.0e-8);
    float d = sqrt(d2);
    l = toLight / d;
    float range = direction.w;
    float r2 = d2 / max(range * range, 1.0e-12);
    float attenuation = range > 0.0 ? clamp(1.0 - r2 * r2, 0.0, 1.0) / d2 : 1.0 / d2;
    if (position.w > 1.5) {  // spot: between the cones, smoothly
        float cd = dot(direction.xyz, -l);
        // GLSL leaves smoothstep undefined for equal edges: keep the inner cone inside the outer.
        float outer = frame.lightCone[i].x, inner = max(frame.lightCone[i].y, outer + 1.0e-5);
        attenuation *= smoothstep(outer, inner, cd);
    }
    return color * attenuation;
}

// A world direction as the environment map is looked up: the environment
// is turned frame.environment.x radians about +y.
vec3 environmentDirection(vec3 d)
{
    float c = cos(frame.environment.x), s = sin(frame.environment.x);
    return vec3(c * d.x - s * d.z, d.y, s * d.x + c * d.z);
}

// The environment where there is no image-based light (a device without
// compute shaders): a sky over a ground.
// Diffuse: its exact irradiance (the cosine-weighted share of sky a normal
// sees is (1 + n.y) / 2), over pi. Specular: its radiance in the reflected
// direction, softened by roughness, times Karis' analytic fit of the
// split-sum BRDF integral.
vec3 environmentLight(Surface s, float occlusion)
{
    float intensity = frame.exposure.y;
    if (intensity <= 0.0)
        return vec3(0.0);
    vec3 sky = frame.skyColor.rgb * intensity, ground = frame.groundColor.rgb * intensity;
    vec3 irradiance = mix(ground, sky, 0.5 + 0.5 * s.n.y);
    vec3 r = reflect(-s.v, s.n);
    float width = max(s.alpha, 0.02);
    vec3 radiance = mix(ground, sky, smoothstep(-width, width, r.y));
    float nv = clamp(dot(s.n, s.v), 0.0, 1.0);
    float roughness = sqrt(s.alpha);
    vec4 c0 = vec4(-1.0, -0.0275, -0.572, 0.022), c1 = vec4(1.0, 0.0425, 1.04, -0.04);
    vec4 rr = roughness * c0 + c1;
    float a004 = min(rr.x * rr.x, exp2(-9.28 * nv)) * rr.x + rr.y;
    vec2 ab = vec2(-1.04, 1.04) * a004 + rr.zw;
    vec3 dielectricF = s.f0 * ab.x + ab.y;
    vec3 metalF = s.baseColor * ab.x + ab.y;
    vec3 diffuse = irradiance * s.baseColor;
    vec3 dielectric = (1.0 - s.specularWeight * max(dielectricF.r, max(dielectricF.g, dielectricF.b))) * diffuse
                    + s.specularWeight * dielectricF * radiance;
    vec3 metal = metalF * radiance;
    return mix(dielectric, metal, s.metallic) * occlusion;
}

// Khronos PBR Neutral (the specification of the tone mapper, 2024).
vec3 toneMapNeutral(vec3 color)
{
    const float startCompression = 0.8 - 0.04;
    const float desaturation = 0.15;
    float x = min(color.r, min(color.g, color.b));
    float offset = x < 0.08 ? x - 6.25 * x * x : 0.04;
    color -= offset;
    float peak = max(color.r, max(color.g, color.b));
    if (peak < startCompression)
        return color;
    const float d = 1.0 - startCompression;
    float newPeak = 1.0 - d * d / (peak + d - startCompression);
    color *= newPeak / peak;
    float g = 1.0 - 1.0 / (desaturation * (peak - newPeak) + 1.0);
    return mix(color, vec3(newPeak), g);
}

// ACES filmic, Stephen Hill's fit of the RRT and ODT (sRGB in, sRGB out).
vec3 toneMapAces(vec3 color)
{
    const mat3 toAp1 = mat3(0.59719, 0.07600, 0.02840, 0.35458, 0.90834, 0.13383, 0.04823, 0.01566, 0.83777);
    const mat3 fromAp1 = mat3(1.60475, -0.10208, -0.00327, -0.53108, 1.10813, -0.07276, -0.07367, -0.00605, 1.07602);
    color = toAp1 * color;
    vec3 a = color * (color + 0.0245786) - 0.000090537;
    vec3 b = color * (0.983729 * color + 0.4329510) + 0.238081;
    return fromAp1 * (a / b);
}

vec3 toneMap(vec3 color)
{
    color *= frame.exposure.x;
    if (frame.look.y == 0)
        color = toneMapNeutral(color);
    else if (frame.look.y == 1)
        color = toneMapAces(color);
    return clamp(color, 0.0, 1.0);
}
