// Writing a PartMesh as the per-part .glb the meshing binaries produce
// (contract/RIG.md, "Per-part .glb"): one mesh, one TRIANGLES primitive,
// POSITION (with min/max), NORMAL and COLOR_0 as float VEC3, uint32 indices,
// bufferView targets set, one node without a transform. An empty mesh is
// written as the socket file the binaries write (empty arrays, 0-byte BIN).
//
// Used to generate test fixtures and the bundled samples by code.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "riglens/core/base/expected.h"
#include "riglens/core/gltf/part_mesh.h"

namespace riglens::core {

// Returns the GLB bytes. The mesh's arrays must be consistent (asserted):
// normals and colors empty or one xyz/rgb per vertex, indices < vertexCount.
std::vector<std::uint8_t> encodePartGlb(const PartMesh& mesh);

// encodePartGlb + an atomic write.
Expected<void> writePartGlb(const PartMesh& mesh, const std::filesystem::path& path);

}  // namespace riglens::core
