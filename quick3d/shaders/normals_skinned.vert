// The normals tint's vertex stage for a skinned model. A custom vertex
// stage replaces Qt Quick 3D's own, skinning included (Qt 6.4 skins VERTEX
// only in its generated main), so this blends the joints' matrices itself,
// as that main does: BONE_TRANSFORMS[j] is joint j's scene transform times
// its inverse bind, BONE_NORMAL_TRANSFORMS[j] its normal matrix (a
// mat4 in Qt 6.4, the upper 3x3 meaningful). A skinned
// model's MODELVIEWPROJECTION_MATRIX has no model transform: the joints
// carry it.
VARYING vec3 worldNormal;

void MAIN()
{
    mat4 skin = BONE_TRANSFORMS[JOINTS.x] * WEIGHTS.x + BONE_TRANSFORMS[JOINTS.y] * WEIGHTS.y
              + BONE_TRANSFORMS[JOINTS.z] * WEIGHTS.z + BONE_TRANSFORMS[JOINTS.w] * WEIGHTS.w;
    mat3 skinNormal = mat3(BONE_NORMAL_TRANSFORMS[JOINTS.x]) * WEIGHTS.x + mat3(BONE_NORMAL_TRANSFORMS[JOINTS.y]) * WEIGHTS.y
                    + mat3(BONE_NORMAL_TRANSFORMS[JOINTS.z]) * WEIGHTS.z + mat3(BONE_NORMAL_TRANSFORMS[JOINTS.w]) * WEIGHTS.w;
    worldNormal = normalize(skinNormal * NORMAL);
    POSITION = MODELVIEWPROJECTION_MATRIX * (skin * vec4(VERTEX, 1.0));
}
