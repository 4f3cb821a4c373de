// C++ mirrors of the std140 uniform blocks in shaders/part.vert|frag,
// lines.vert and skin.comp, and the vertex binding layout of part meshes.
// tests/render checks these offsets against the shaders' reflection data
// (verifyShaderLayouts), so a change on one side cannot silently break the other.
#pragma once

#include <cstddef>
#include <cstdint>

namespace riglens::render::gpu {

struct FrameBlock {          // binding 0 of part.* and lines.*
  float viewProj[16];
  float cameraPos[4];
  float keyDir[4];
  float fillDir[4];
  float skyColor[4];
  float groundColor[4];
  float highlightColor[4];
  std::int32_t mode[4];      // tint mode, encode sRGB, wireframe overlay, unused
  float wire[4];             // width px, edge rgb
};
static_assert(offsetof(FrameBlock, cameraPos) == 64);
static_assert(offsetof(FrameBlock, mode) == 160);
static_assert(sizeof(FrameBlock) == 192);

struct PartBlock {           // binding 1 of part.*, one slot per part (dynamic offset)
  float model[16];
  float normalMatrix[16];
  float tint[4];             // rgb, w = highlighted
};
static_assert(offsetof(PartBlock, tint) == 128);
static_assert(sizeof(PartBlock) == 144);

struct SkinParams {          // binding 0 of skin.comp
  std::uint32_t vertexCount;
  std::uint32_t boneCount;
  std::uint32_t pad[2];
};
static_assert(sizeof(SkinParams) == 16);

// Vertex bindings of part.vert: separate buffers so the skinning pass can
// write positions and normals alone.
enum PartBinding : int { kPositions = 0, kNormals = 1, kColors = 2, kBarycentrics = 3, kPartBindingCount = 4 };

struct LineVertex {          // lines.vert
  float position[3];
  float color[4];
};
static_assert(sizeof(LineVertex) == 28);

}  // namespace riglens::render::gpu
