// VRM's MToon in the PBR look (core::ToonShading), as three-vrm shades it:
// each punctual light adds mix(shade, lit, linearstep(-1 + toony,
// 1 - toony, N.L + shift)) x its light / pi (no N.L factor: the step is the
// falloff), the environment adds the lit colour under its diffuse light
// alone (no specular), then the emission. Part of part_pbr.frag, after
// pbr.glsl and ibl.glsl.

float linearStep(float a, float b, float t)
{
    return clamp((t - a) / max(b - a, 1.0e-6), 0.0, 1.0);
}

vec3 shadeToon(vec3 lit, vec3 shade, vec3 n, float occlusion)
{
    float shift = material.toon.y, toony = material.toon.z;
    vec3 color = vec3(0.0);
    for (int i = 0; i < kMaxLights; ++i) {
        if (i >= frame.look.z)
            break;
        vec3 l;
        vec3 light = incidentLight(i, vWorld, l);
        float shading = linearStep(-1.0 + toony, 1.0 - toony, clamp(dot(n, l), -1.0, 1.0) + shift);
        color += light * mix(shade, lit, shading) / kPi;
    }
    Surface s;
    s.n = n;
    s.v = normalize(frame.cameraPos.xyz - vWorld);
    s.baseColor = lit;
    s.metallic = 0.0;
    s.alpha = 1.0;
    s.f0 = vec3(0.0);
    s.specularWeight = 0.0;  // the diffuse term alone
    return color + imageBasedLight(s, occlusion);
}
