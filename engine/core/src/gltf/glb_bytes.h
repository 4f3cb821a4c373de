// A tinygltf model as the bytes of a .glb, written by tinygltf into memory
// sized for them up front. Shared by the part .glb writer and the whole-rig
// exporter. Private to engine/core.
#pragma once

#include <tiny_gltf.h>

#include <cstdint>
#include <vector>

namespace riglens::core {

// The binary chunk is the model's buffers; the JSON is a small fraction of a
// model whose size matters. Through an std::ostringstream the bytes were
// copied four times into memory that grew by doubling (the stream's growth,
// its str(), the vector made from it): most of the large sample's export
// time went on those copies and the page faults of their fresh memory.
std::vector<std::uint8_t> encodeGlb(const tinygltf::Model& model);

// Bytes reserved for buffers[0] before appending `bytes` of views to it, so
// it is filled once instead of being copied at every doubling.
void reserveBinaryBytes(tinygltf::Model& model, std::size_t bytes);

}  // namespace riglens::core
