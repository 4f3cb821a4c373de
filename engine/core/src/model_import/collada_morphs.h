// COLLADA morph controllers (Blender's shape keys, Maya's blend shapes,
// Godot's blend shapes) as Debian's Assimp 5.2.5 cannot read them.
//
// Its COLLADA parser (code/AssetLib/Collada/ColladaParser.cpp,
// ReadController) keeps the '#' of <morph source="#mesh"> in the mesh id
// (a skin's has it stripped), so the loader finds no geometry and drops the
// mesh that uses the controller: "Unable to find geometry for ID". A skin
// over a morph (<skin source="#morph-controller">, what Blender writes for
// a mesh with shape keys and an armature) names no geometry either, and
// the skinned mesh is dropped too; a file whose every mesh is so has none
// left and is refused. Its <targets> loop also walks the wrong node, so the
// targets are never read even when the id is right; and its loader
// resolves every controller's mesh id for every mesh it builds, so one
// morph controller anywhere in the file, used or not, fails the import
// ("Unable to resolve library reference").
//
// So before Assimp reads a .dae, every use of a morph controller is pointed
// at the controller's base mesh (an <instance_controller> of it becomes an
// <instance_geometry>, a <skin> over it skins the base mesh) and the morph
// controllers are removed: the mesh, its skin and its clips open; the shape
// keys are left out, and a note per controller says so. The document is read with pugixml (Debian's
// libpugixml) and written back whole; a file pugixml cannot read goes to
// Assimp as it is, for Assimp's own message.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace riglens::core {

struct ColladaMorphBypass {
  std::string document;            // the file with every morph controller's use on its base mesh
  std::vector<std::string> notes;  // one per morph controller: what was left out
};

// Nullopt: nothing to change (no morph controller, or no XML pugixml reads).
std::optional<ColladaMorphBypass> bypassColladaMorphs(std::string_view text);

}  // namespace riglens::core
