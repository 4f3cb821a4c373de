// The PBR look in Qt Quick 3D: a model's glTF materials (core::MeshMaterials)
// as PrincipledMaterials, Qt's own metallic-roughness model, which is the
// model glTF's Appendix B writes (Qt's balsam imports glTF into it too).
//
// What maps one to one: the base colour (its factor's rgb rides in the
// vertex colours, as the viewer has it; its alpha and the texture here),
// metallic and roughness with their texture (glTF packs roughness in G and
// metalness in B), the normal map and its scale, occlusion (R) and its
// strength, emissive (factor x KHR_materials_emissive_strength, and its
// texture), the alpha mode and cutoff, double-sidedness, KHR_materials_ior.
// What Qt 6.4 cannot say: KHR_materials_specular (drawn at its default),
// a texture's own KHR_texture_transform past the base colour's (already in
// the coordinates), and a third texture coordinate set; KHR_materials_unlit
// draws unlit. The lights and the environment are the scene's (its
// SceneEnvironment's lightProbe, its lights): the node brings materials,
// not a world. docs/quick3d.md lists this.
#pragma once

#include <QtCore/QString>
#include <vector>

class QQuick3DObject;
class QQuick3DPrincipledMaterial;

namespace riglens::core {
struct MeshMaterials;
}

namespace riglens::quick3d {

// One material per entry of `materials` (one default material when it has
// none: glTF's, metallic 1 and roughness 1), in order, so that a geometry
// subset per section takes materials[section.material]. Textures decoded
// once per image and shared. Every object is `parent`'s child.
std::vector<QQuick3DPrincipledMaterial*> makePbrMaterials(const core::MeshMaterials& materials, QQuick3DObject* parent);

}  // namespace riglens::quick3d
