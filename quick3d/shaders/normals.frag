// The normals tint: the world-space normal as a colour (x, y, z -> r, g, b),
// unlit, as the RigLens viewer shows it.
VARYING vec3 worldNormal;

void MAIN()
{
    FRAGCOLOR = vec4(normalize(worldNormal) * 0.5 + 0.5, 1.0);
}
