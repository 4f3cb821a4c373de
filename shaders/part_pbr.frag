#version 440
#extension GL_GOOGLE_include_directive : require
// The PBR look's fragment shader for any material: part_pbr_main.glsl with
// every feature a material may have (textures, VRM's MToon). A plain
// material draws with part_pbr_plain.frag instead (render::PartVariant).
#include "part_pbr_main.glsl"
