// Models in the formats Assimp reads for RigLens, written by hand so their
// content is known exactly: an OBJ of two objects with two materials, an
// ASCII STL tetrahedron, an ASCII PLY quad with vertex colours, and a
// COLLADA strip skinned to two joints with a clip that bends the upper joint
// 90 degrees about z in one second. Used by tst_core_model_formats and as
// fuzz seeds.
#pragma once

#include <string>
#include <string_view>

namespace riglens::test {

// A unit box (object "box": four red faces, two blue) and a blue roof triangle (object "roof"); materials in kCubeMtl,
// saved beside it as cube.mtl.
inline constexpr const char* kCubeObj = R"model(mtllib cube.mtl
o box
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0 0 1
v 1 0 1
v 1 1 1
v 0 1 1
usemtl red
f 1 4 3 2
f 5 6 7 8
f 1 2 6 5
f 4 8 7 3
usemtl blue
f 1 5 8 4
f 2 3 7 6
o roof
v 0 1 0
v 1 1 0
v 0.5 1.6 0.5
usemtl blue
f 9 10 11
)model";

// cube.obj's materials: diffuse colours only.
inline constexpr const char* kCubeMtl = R"model(newmtl red
Kd 0.8 0.1 0.1
newmtl blue
Kd 0.1 0.2 0.9
)model";

// Four triangles: the three faces on the axis planes and the slanted one.
inline constexpr const char* kTetrahedronStl = R"model(solid tet
facet normal 0 0 -1
outer loop
vertex 0 0 0
vertex 0 1 0
vertex 1 0 0
endloop
endfacet
facet normal 0 -1 0
outer loop
vertex 0 0 0
vertex 1 0 0
vertex 0 0 1
endloop
endfacet
facet normal -1 0 0
outer loop
vertex 0 0 0
vertex 0 0 1
vertex 0 1 0
endloop
endfacet
facet normal 1 1 1
outer loop
vertex 1 0 0
vertex 0 1 0
vertex 0 0 1
endloop
endfacet
endsolid tet
)model";

// A unit quad in z = 0, each corner its own colour.
inline constexpr const char* kColouredQuadPly = R"model(ply
format ascii 1.0
element vertex 4
property float x
property float y
property float z
property uchar red
property uchar green
property uchar blue
element face 2
property list uchar int vertex_indices
end_header
0 0 0 255 0 0
1 0 0 0 255 0
1 1 0 0 0 255
0 1 0 255 255 0
3 0 1 2
3 0 2 3
)model";

// A 1 x 2 strip: its lower corners bound to "root", its upper corners to "tip" (at y = 1); the clip turns tip about z
// from 0 to 90 degrees, linearly, over one second.
inline constexpr const char* kBendingStripDae = R"model(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="meter" meter="1"/><up_axis>Y_UP</up_axis></asset>
  <library_geometries>
    <geometry id="strip-mesh" name="strip">
      <mesh>
        <source id="strip-positions">
          <float_array id="strip-positions-array" count="12">0 0 0  1 0 0  0 2 0  1 2 0</float_array>
          <technique_common><accessor source="#strip-positions-array" count="4" stride="3">
            <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
          </accessor></technique_common>
        </source>
        <vertices id="strip-vertices"><input semantic="POSITION" source="#strip-positions"/></vertices>
        <triangles count="2"><input semantic="VERTEX" source="#strip-vertices" offset="0"/><p>0 1 2 1 3 2</p></triangles>
      </mesh>
    </geometry>
  </library_geometries>
  <library_controllers>
    <controller id="strip-skin">
      <skin source="#strip-mesh">
        <bind_shape_matrix>1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1</bind_shape_matrix>
        <source id="strip-joints"><Name_array id="strip-joints-array" count="2">root tip</Name_array>
          <technique_common><accessor source="#strip-joints-array" count="2" stride="1"><param name="JOINT" type="name"/></accessor></technique_common>
        </source>
        <source id="strip-binds"><float_array id="strip-binds-array" count="32">1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1  1 0 0 0 0 1 0 -1 0 0 1 0 0 0 0 1</float_array>
          <technique_common><accessor source="#strip-binds-array" count="2" stride="16"><param name="TRANSFORM" type="float4x4"/></accessor></technique_common>
        </source>
        <source id="strip-weights"><float_array id="strip-weights-array" count="1">1</float_array>
          <technique_common><accessor source="#strip-weights-array" count="1" stride="1"><param name="WEIGHT" type="float"/></accessor></technique_common>
        </source>
        <joints><input semantic="JOINT" source="#strip-joints"/><input semantic="INV_BIND_MATRIX" source="#strip-binds"/></joints>
        <vertex_weights count="4">
          <input semantic="JOINT" source="#strip-joints" offset="0"/><input semantic="WEIGHT" source="#strip-weights" offset="1"/>
          <vcount>1 1 1 1</vcount><v>0 0 0 0 1 0 1 0</v>
        </vertex_weights>
      </skin>
    </controller>
  </library_controllers>
  <library_animations>
    <animation id="bend">
      <source id="bend-input"><float_array id="bend-input-array" count="2">0 1</float_array>
        <technique_common><accessor source="#bend-input-array" count="2" stride="1"><param name="TIME" type="float"/></accessor></technique_common>
      </source>
      <source id="bend-output"><float_array id="bend-output-array" count="2">0 90</float_array>
        <technique_common><accessor source="#bend-output-array" count="2" stride="1"><param name="ANGLE" type="float"/></accessor></technique_common>
      </source>
      <source id="bend-interpolation"><Name_array id="bend-interpolation-array" count="2">LINEAR LINEAR</Name_array>
        <technique_common><accessor source="#bend-interpolation-array" count="2" stride="1"><param name="INTERPOLATION" type="name"/></accessor></technique_common>
      </source>
      <sampler id="bend-sampler">
        <input semantic="INPUT" source="#bend-input"/><input semantic="OUTPUT" source="#bend-output"/><input semantic="INTERPOLATION" source="#bend-interpolation"/>
      </sampler>
      <channel source="#bend-sampler" target="tip/rotZ.ANGLE"/>
    </animation>
  </library_animations>
  <library_visual_scenes>
    <visual_scene id="scene" name="scene">
      <node id="root" sid="root" name="root" type="JOINT">
        <node id="tip" sid="tip" name="tip" type="JOINT">
          <translate sid="location">0 1 0</translate>
          <rotate sid="rotZ">0 0 1 0</rotate>
        </node>
      </node>
      <node id="strip" name="strip" type="NODE">
        <instance_controller url="#strip-skin"><skeleton>#root</skeleton></instance_controller>
      </node>
    </visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
)model";

// `text` with its first `from` replaced by `to` (unchanged when absent).
inline void replaceOnce(std::string& text, std::string_view from, std::string_view to) {
  const std::size_t at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), to);
}

// `dae` (the bending strip) with a shape key as Blender writes one: the
// key's geometry (the strip's top raised to y = 3), a morph controller
// over the strip's mesh, and the skin over that controller.
inline std::string colladaWithShapeKey(std::string dae) {
  replaceOnce(dae, R"(  </library_geometries>)", R"(    <geometry id="strip-key" name="Key 1">
    <mesh>
      <source id="strip-key-positions">
        <float_array id="strip-key-positions-array" count="12">0 0 0  1 0 0  0 3 0  1 3 0</float_array>
        <technique_common><accessor source="#strip-key-positions-array" count="4" stride="3">
          <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
        </accessor></technique_common>
      </source>
      <vertices id="strip-key-vertices"><input semantic="POSITION" source="#strip-key-positions"/></vertices>
      <triangles count="2"><input semantic="VERTEX" source="#strip-key-vertices" offset="0"/><p>0 1 2 1 3 2</p></triangles>
    </mesh>
  </geometry>
</library_geometries>)");
  replaceOnce(dae, R"(  <library_controllers>)", R"(  <library_controllers>
  <controller id="strip-morph" name="strip-morph">
    <morph source="#strip-mesh" method="NORMALIZED">
      <source id="strip-morph-targets"><IDREF_array id="strip-morph-targets-array" count="1">strip-key</IDREF_array>
        <technique_common><accessor source="#strip-morph-targets-array" count="1" stride="1"><param name="IDREF" type="IDREF"/></accessor></technique_common>
      </source>
      <source id="strip-morph-weights"><float_array id="strip-morph-weights-array" count="1">0</float_array>
        <technique_common><accessor source="#strip-morph-weights-array" count="1" stride="1"><param name="MORPH_WEIGHT" type="float"/></accessor></technique_common>
      </source>
      <targets><input semantic="MORPH_TARGET" source="#strip-morph-targets"/><input semantic="MORPH_WEIGHT" source="#strip-morph-weights"/></targets>
    </morph>
  </controller>)");
  replaceOnce(dae, R"(<skin source="#strip-mesh">)", R"(<skin source="#strip-morph">)");
  return dae;
}

// The strip with its shape key and no armature: the node instances the
// morph controller itself.
inline std::string colladaShapeKeyWithoutSkin() {
  std::string dae = colladaWithShapeKey(kBendingStripDae);
  replaceOnce(dae, R"(<instance_controller url="#strip-skin"><skeleton>#root</skeleton></instance_controller>)",
              R"(<instance_controller url="#strip-morph"/>)");
  return dae;
}

}  // namespace riglens::test
