// The vertex layouts of part meshes and lines, and glm -> GLSL conversions
// for filling the uniform blocks of shaders/shader_interface.h (which holds
// every block, binding and workgroup size, shared with the GLSL).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <glm/mat4x4.hpp>
#include <glm/vec4.hpp>

#include "shader_interface.h"

namespace riglens::render::gpu {

inline mat4 toGpu(const glm::mat4& m) {
  mat4 out;
  std::memcpy(out.m, &m[0][0], sizeof(out.m));
  return out;
}
inline vec4 toGpu(const glm::vec4& v) {
  return {v.x, v.y, v.z, v.w};
}

// Workgroups covering `count` invocations of `groupSize` each.
inline int groupsFor(std::size_t count, std::uint32_t groupSize) {
  return int((count + groupSize - 1) / groupSize);
}

// Vertex bindings of part.vert: separate buffers so the skinning pass can
// write positions and normals alone.
enum PartBinding : int {
  kPositions = 0,
  kNormals = 1,
  kColors = 2,
  kBarycentrics = 3,
  kUvs = 4,
  kUvs1 = 5,
  kTangents = 6,  // the normal maps' (core::MeshMaterials::tangents), xyz and the bitangent's sign
  kPartBindingCount = 7
};

struct LineVertex {  // lines.vert
  float position[3];
  float color[4];
};
static_assert(sizeof(LineVertex) == 28);

}  // namespace riglens::render::gpu
