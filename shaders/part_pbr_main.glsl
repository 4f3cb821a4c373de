// The PBR look's fragment shader, included by part_pbr.frag (any material)
// and part_pbr_plain.frag (a plain one: no texture, not toon), which differ
// only in materialHas(): plain, every test of a texture or of MToon is a
// constant false and no code is made for it. Lavapipe (llvmpipe) runs both
// sides of a branch under a mask even where the condition is uniform, so a
// plain material paid for the texture and toon code it never used: 43% of
// the tank's PBR frame (docs/benchmarks.md, twenty-seventh sitting).
#ifdef RIGLENS_PBR_PLAIN
#define materialHas(test) false
#else
#define materialHas(test) (test)
#endif
#define RIGLENS_WANT_FRAME
#define RIGLENS_WANT_PART
#define RIGLENS_WANT_MATERIAL
#include "shader_interface.h"
#include "pbr.glsl"
#include "environment.glsl"
#include "srgb.glsl"
// The PBR look (core::Look::Pbr) in the colour mode (QA tints and the
// wireframe stay in review shading, part.frag): the base colour (vertex
// colour x texture) shaded by pbr.glsl, encoded to sRGB on output. The
// material's alpha masks or blends (glTF 2.0, 3.9.4); an unlit material
// shows its base colour as is; a VRM MToon material is toon-shaded (toon.glsl).
layout(location = 0) in vec3 vNormal;
layout(location = 1) in vec3 vColor;
layout(location = 3) centroid in vec2 vUv;
layout(location = 4) in vec3 vWorld;
layout(location = 5) centroid in vec2 vUv1;
layout(location = 6) in vec4 vTangent;

// sRGB textures (base colour, emissive): sampling returns linear values.
layout(binding = kBaseColorBinding) uniform sampler2D baseColorTexture;
layout(binding = kMetallicRoughnessBinding) uniform sampler2D metallicRoughnessTexture;
layout(binding = kNormalBinding) uniform sampler2D normalTexture;
layout(binding = kOcclusionBinding) uniform sampler2D occlusionTexture;
layout(binding = kEmissiveBinding) uniform sampler2D emissiveTexture;
layout(binding = kPrefilteredBinding) uniform sampler2D prefilteredMap;
layout(binding = kIrradianceBinding) uniform sampler2D irradianceMap;
layout(binding = kBrdfLutBinding) uniform sampler2D brdfLut;
#include "ibl.glsl"
#include "toon.glsl"

layout(location = 0) out vec4 fragColor;

// PBR texture t's coordinates: its set through its uvTransform rows.
vec2 pbrUv(int t, float set)
{
    vec3 uv = vec3(set > 0.5 ? vUv1 : vUv, 1.0);
    return vec2(dot(material.uvRows[2 * t].xyz, uv), dot(material.uvRows[2 * t + 1].xyz, uv));
}

// The normal map's normal. The tangent frame is the mesh's (the file's
// TANGENT, or MikkTSpace's: core::MeshMaterials::tangents) with
// bitangent = cross(normal, tangent) x w, as glTF defines it, all three
// turned over on a back face (as the glTF Sample Viewer does); a mesh
// without tangents (a skinned one) uses a frame made from the screen-space
// derivatives of the position and of the map's coordinates, as the Sample
// Viewer and three.js do. `ng` faces the viewer already.
vec3 mappedNormal(vec3 ng)
{
    vec2 uv = pbrUv(kNormalTexture, material.sets.y);
    vec3 t, b;
    if (dot(vTangent.xyz, vTangent.xyz) > 1.0e-12) {
        vec3 n0 = gl_FrontFacing ? ng : -ng;  // the surface's own side
        vec3 t0 = normalize(vTangent.xyz - n0 * dot(n0, vTangent.xyz));
        vec3 b0 = cross(n0, t0) * (vTangent.w < 0.0 ? -1.0 : 1.0);
        t = gl_FrontFacing ? t0 : -t0;
        b = gl_FrontFacing ? b0 : -b0;
    } else {
        vec3 dpx = dFdx(vWorld), dpy = dFdy(vWorld);
        vec2 dux = dFdx(uv), duy = dFdy(uv);
        float det = dux.x * duy.y - duy.x * dux.y;
        t = (duy.y * dpx - dux.y * dpy) / det;
        t -= ng * dot(ng, t);
        if (abs(det) < 1.0e-12 || dot(t, t) < 1.0e-20)
            return ng;
        t = normalize(t);
        if (!gl_FrontFacing)
            t = -t;
        b = cross(ng, t);
        if (!gl_FrontFacing)
            b = -b;
    }
    vec3 m = texture(normalTexture, uv).rgb * 2.0 - 1.0;
    m.xy *= material.pbr.z;
    return normalize(mat3(t, b, ng) * m);
}

// The occlusion texture's share of the environment's light (1: none).
float occlusion()
{
    if (!materialHas(material.textures.z > 0.5))
        return 1.0;
    float ao = texture(occlusionTexture, pbrUv(kOcclusionTexture, material.sets.z)).r;
    return 1.0 + material.pbr.w * (ao - 1.0);
}

vec3 emission()
{
    vec3 emissive = material.emissive.rgb;
    if (materialHas(material.textures.w > 0.5))
        emissive *= texture(emissiveTexture, pbrUv(kEmissiveTexture, material.sets.w)).rgb;
    return emissive;
}

vec3 shadedNormal(vec3 ng)
{
    return materialHas(material.textures.y > 0.5) ? mappedNormal(ng) : ng;
}

vec3 shadePbr(vec3 baseColor, vec3 ng)
{
    Surface s;
    s.n = shadedNormal(ng);
    s.v = normalize(frame.cameraPos.xyz - vWorld);
    s.baseColor = baseColor;
    float metallic = material.pbr.x, roughness = material.pbr.y;
    if (materialHas(material.textures.x > 0.5)) {
        vec4 mr = texture(metallicRoughnessTexture, pbrUv(kMetallicRoughnessTexture, material.sets.x));
        roughness *= mr.g;
        metallic *= mr.b;
    }
    s.metallic = clamp(metallic, 0.0, 1.0);
    s.alpha = max(clamp(roughness, 0.0, 1.0) * clamp(roughness, 0.0, 1.0), kMinAlpha);
    float ior = material.ior.x;
    float f = (ior - 1.0) / (ior + 1.0);
    s.f0 = min(vec3(f * f) * material.specular.rgb, vec3(1.0));
    s.specularWeight = material.specular.w;
    vec3 color = vec3(0.0);
    for (int i = 0; i < kMaxLights; ++i) {
        if (i >= frame.look.z)
            break;
        vec3 l;
        vec3 light = incidentLight(i, vWorld, l);
        float nl = dot(s.n, l);
        if (nl > 0.0)
            color += brdf(s, l) * light * nl;
    }
    color += imageBasedLight(s, occlusion());
    return toneMap(color + emission());
}

void main()
{
    vec4 texel = materialHas(material.flags.x != 0) ? texture(baseColorTexture, vUv) : vec4(1.0);
    float alpha = material.alpha.x * texel.a;
    if (material.alpha.y >= 0.0 && alpha < material.alpha.y)
        discard;
    alpha = material.alpha.z > 0.5 ? alpha : 1.0;
    vec3 n = normalize(vNormal);
    if (!gl_FrontFacing)
        n = -n;
    vec3 base = vColor * texel.rgb;
    vec3 rgb;
    if (materialHas(material.toon.x > 0.5)) {
        vec3 shade = material.toonShade.rgb * (material.toonShade.w > 0.5 ? texel.rgb : vec3(1.0));
        rgb = toneMap(shadeToon(base, shade, shadedNormal(n), occlusion()) + emission());
    } else {
        rgb = material.flags.y != 0 ? clamp(base, 0.0, 1.0) : shadePbr(base, n);
    }
    if (part.tint.w > 0.5)
        rgb = mix(rgb, frame.highlightColor.rgb, frame.highlightColor.w);
    fragColor = vec4(frame.mode.y != 0 ? encodeSrgb(rgb) : rgb, alpha);
}
