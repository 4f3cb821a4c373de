// The review look's shading of a surface facing `n` (unit length, towards
// the viewer's side): the base colour (vertex colour x texel, or a QA tint)
// lit by a key and a fill light over a hemispheric ambient term, in linear
// space, before the wireframe's edges and the sRGB encoding. part.frag runs
// it at every pixel; part_flat.vert once per vertex for parts whose faces
// are flat (core::hasFlatFaces), where it is the same all over a triangle.
// Needs the frame, part and material blocks; its branches on their values go
// through uniformBranch (uniform_branches.glsl), so a shader that includes it
// sets opaqueZero first.
#include "uniform_branches.glsl"

// Tint modes, as core::TintMode.
const int kColor = 0, kPart = 1, kJoint = 2, kNormals = 3, kWireframe = 4, kSockets = 5;
// Not a core::TintMode: a tint given per vertex in the colour attribute (a
// skinned mesh's joint tint, each vertex its bones' colours by weight).
const int kVertexTint = 6;

// `shownAsIs`: the normals tint, a debugging view neither lit nor encoded
// (nor wireframed); its colour is still highlighted.
vec3 reviewShade(vec3 n, vec3 vertexColor, vec3 texel, out bool shownAsIs)
{
    int mode = uniformBranch(frame.mode.x);
    shownAsIs = mode == kNormals;
    vec3 rgb;
    if (shownAsIs) {
        rgb = n * 0.5 + 0.5;
        if (uniformBranch(part.tint.w) > 0.5)
            rgb = mix(rgb, frame.highlightColor.rgb, frame.highlightColor.w);
        return rgb;
    }
    bool tinted = mode == kPart || mode == kJoint || mode == kVertexTint;
    vec3 base = mode == kVertexTint ? vertexColor : tinted ? part.tint.rgb : vertexColor * texel;
    float hemi = n.y * 0.5 + 0.5;
    vec3 light = mix(frame.groundColor.rgb, frame.skyColor.rgb, hemi) * frame.skyColor.w
               + max(dot(n, frame.keyDir.xyz), 0.0) * frame.keyDir.w
               + max(dot(n, frame.fillDir.xyz), 0.0) * frame.fillDir.w;
    rgb = (uniformBranch(material.flags.y) != 0 && !tinted) ? base : base * light;
    if (uniformBranch(part.tint.w) > 0.5)
        rgb = mix(rgb, frame.highlightColor.rgb, frame.highlightColor.w);
    return rgb;
}

// The material's alpha (x the texel's), or false when its MASK cutoff
// discards the fragment; opaque materials give 1 (glTF 2.0, 3.9.4).
bool reviewAlpha(float texelAlpha, out float alpha)
{
    alpha = material.alpha.x * texelAlpha;
    if (uniformBranch(material.alpha.y) >= 0.0 && alpha < material.alpha.y)
        return false;
    alpha = uniformBranch(material.alpha.z) > 0.5 ? alpha : 1.0;
    return true;
}
