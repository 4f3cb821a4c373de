// EXT_meshopt_compression fixtures, for the reader's tests and the fuzz
// seeds: a GLB assembled by hand from a document and a BIN chunk, and a grid
// compressed with meshoptimizer's own encoders.
#pragma once

#include <meshoptimizer.h>

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace riglens::test {

inline void put(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint32_t v) {
  std::memcpy(bytes.data() + at, &v, 4);
}

// A GLB from a JSON document and a BIN chunk, assembled by hand (glTF 2.0,
// section 4.4: chunks padded to 4 bytes, JSON with spaces, BIN with zeros).
inline std::vector<std::uint8_t> assembleGlb(const nlohmann::json& doc, std::vector<std::uint8_t> bin) {
  std::string json = doc.dump();
  while (json.size() % 4) json.push_back(' ');
  while (bin.size() % 4) bin.push_back(0);
  std::vector<std::uint8_t> out(12 + 8 + json.size() + 8 + bin.size());
  put(out, 0, 0x46546C67u);
  put(out, 4, 2);
  put(out, 8, std::uint32_t(out.size()));
  put(out, 12, std::uint32_t(json.size()));
  put(out, 16, 0x4E4F534Au);
  std::memcpy(out.data() + 20, json.data(), json.size());
  const std::size_t at = 20 + json.size();
  put(out, at, std::uint32_t(bin.size()));
  put(out, at + 4, 0x004E4942u);
  std::memcpy(out.data() + at + 8, bin.data(), bin.size());
  return out;
}

// A 6x6 grid of triangles compressed the way gltfpack writes it
// (EXT_meshopt_compression): positions with the vertex codec, indices with
// the triangle codec, both in the BIN chunk; the views they decode to in a
// fallback buffer that holds no data.
struct MeshoptGrid {
  std::vector<float> positions;
  std::vector<std::uint32_t> indices;
  nlohmann::json doc;
  std::vector<std::uint8_t> bin;
};
inline MeshoptGrid meshoptGrid() {
  MeshoptGrid g;
  constexpr int kSide = 7;
  for (int y = 0; y < kSide; ++y)
    for (int x = 0; x < kSide; ++x) g.positions.insert(g.positions.end(), {float(x), 0.25f * float(x * y), float(y)});
  for (int y = 0; y + 1 < kSide; ++y)
    for (int x = 0; x + 1 < kSide; ++x) {
      const auto v = std::uint32_t(y * kSide + x);
      g.indices.insert(g.indices.end(), {v, v + kSide, v + 1, v + 1, v + kSide, v + kSide + 1});
    }
  const std::size_t vertices = g.positions.size() / 3, indexCount = g.indices.size();
  std::vector<std::uint8_t> vtx(meshopt_encodeVertexBufferBound(vertices, 12));
  vtx.resize(meshopt_encodeVertexBuffer(vtx.data(), vtx.size(), g.positions.data(), vertices, 12));
  std::vector<std::uint8_t> idx(meshopt_encodeIndexBufferBound(indexCount, vertices));
  idx.resize(meshopt_encodeIndexBuffer(idx.data(), idx.size(), g.indices.data(), indexCount));
  g.bin = vtx;
  while (g.bin.size() % 4) g.bin.push_back(0);
  const std::size_t idxOffset = g.bin.size();
  g.bin.insert(g.bin.end(), idx.begin(), idx.end());
  const auto ext = [](nlohmann::json body) { return nlohmann::json{{"EXT_meshopt_compression", std::move(body)}}; };
  g.doc = {{"asset", {{"version", "2.0"}}},
           {"extensionsUsed", {"EXT_meshopt_compression"}},
           {"extensionsRequired", {"EXT_meshopt_compression"}},
           {"buffers",
            {{{"byteLength", g.bin.size()}},
             {{"byteLength", vertices * 12 + indexCount * 2}, {"extensions", ext({{"fallback", true}})}}}},
           {"bufferViews",
            {{{"buffer", 1},
              {"byteOffset", 0},
              {"byteLength", vertices * 12},
              {"byteStride", 12},
              {"extensions", ext({{"buffer", 0},
                                  {"byteOffset", 0},
                                  {"byteLength", vtx.size()},
                                  {"byteStride", 12},
                                  {"count", vertices},
                                  {"mode", "ATTRIBUTES"}})}},
             {{"buffer", 1},
              {"byteOffset", vertices * 12},
              {"byteLength", indexCount * 2},
              {"extensions", ext({{"buffer", 0},
                                  {"byteOffset", idxOffset},
                                  {"byteLength", idx.size()},
                                  {"byteStride", 2},
                                  {"count", indexCount},
                                  {"mode", "TRIANGLES"}})}}}},
           {"accessors",
            {{{"bufferView", 0},
              {"componentType", 5126},
              {"count", vertices},
              {"type", "VEC3"},
              {"min", {0, 0, 0}},
              {"max", {kSide - 1, 0.25 * (kSide - 1) * (kSide - 1), kSide - 1}}},
             {{"bufferView", 1}, {"componentType", 5123}, {"count", indexCount}, {"type", "SCALAR"}}}},
           {"meshes", {{{"primitives", {{{"attributes", {{"POSITION", 0}}}, {"indices", 1}}}}}}},
           {"nodes", {{{"mesh", 0}}}},
           {"scenes", {{{"nodes", {0}}}}},
           {"scene", 0}};
  return g;
}

}  // namespace riglens::test
