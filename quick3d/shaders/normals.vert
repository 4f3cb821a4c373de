// The normals tint's vertex stage: the world-space normal for the fragment
// stage (an unshaded custom material has no VAR_WORLD_NORMAL in Qt 6.4).
VARYING vec3 worldNormal;

void MAIN()
{
    worldNormal = normalize(NORMAL_MATRIX * NORMAL);
    POSITION = MODELVIEWPROJECTION_MATRIX * vec4(VERTEX, 1.0);
}
