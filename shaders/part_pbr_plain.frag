#version 440
#extension GL_GOOGLE_include_directive : require
// The PBR look's fragment shader for a plain material - no texture, not
// MToon: the voxel parts' default material and untextured glTF materials
// (render::PartVariant::plain). part_pbr_main.glsl with those features
// compiled out; its pictures are part_pbr.frag's for such a material.
#define RIGLENS_PBR_PLAIN
#include "part_pbr_main.glsl"
