// Models in the formats artists also have — OBJ, FBX, COLLADA, STL and mesh
// PLY — read by Assimp (Debian's libassimp) and handed to the glTF path as
// the GLB Assimp's own glTF 2.0 exporter writes from them: the same node
// tree, skins, clips and materials as far as Assimp reads them from the
// format, and every check the glTF loader makes.
//
// Assimp runs in a child process: a malformed file that crashes, hangs or
// exhausts memory inside Assimp ends that process, and the caller gets an
// error naming the file instead of losing the viewer (and what it had open).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "riglens/core/base/expected.h"

namespace riglens::core {

// Whether readGltfFile converts `path` with Assimp rather than reading it as
// glTF: .obj, .fbx, .dae, .stl, or a .ply that declares faces. (Which files
// open as models at all is the reader table's, core/open/.)
bool convertsThroughAssimp(const std::filesystem::path& path);

// Whether a .ply's header declares a face element (read from the file's
// first 64 KiB; false when it cannot be read).
bool plyDeclaresFaces(const std::filesystem::path& path);

// The GLB Assimp exports from the model at `path`, textures embedded. Errors
// name the file: Assimp's own message, or how its process ended.
Expected<std::vector<std::uint8_t>> convertWithAssimp(const std::filesystem::path& path);

// What the conversion leaves out of the file on purpose, for the Problems
// panel: a COLLADA file's shape keys (morph controllers, which Debian's
// Assimp 5.2.5 cannot read: the mesh is shown without them). Empty when nothing.
std::vector<std::string> assimpReadingNotes(const std::filesystem::path& path);

}  // namespace riglens::core
