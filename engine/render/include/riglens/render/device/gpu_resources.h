// Plain descriptions of GPU resources that cross between the engine's passes
// and into the app's memory report, without exposing QRhi types beyond an
// opaque pointer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

class QRhiBuffer;

namespace riglens::render {

// One GPU buffer as the memory report lists it.
struct BufferBytes {
  std::string name;
  std::size_t bytes = 0;
};
using BufferList = std::vector<BufferBytes>;

inline std::size_t totalBytes(const BufferList& buffers) {
  std::size_t sum = 0;
  for (const auto& b : buffers) sum += b.bytes;
  return sum;
}

// A splat sink living on the GPU (core::SplatSink's four arrays, 52 bytes a
// slot): the lift writes it, the splat renderer projects and draws it.
struct SplatSinkBuffers {
  QRhiBuffer* center = nullptr;       // vec4 per slot: xyz, 1
  QRhiBuffer* covarianceA = nullptr;  // vec4: c00 c01 c02 c11
  QRhiBuffer* covarianceB = nullptr;  // vec4: c12 c22 0 0
  QRhiBuffer* color = nullptr;        // u32 pack4x8unorm(r, g, b, opacity); 0 = invisible
  std::uint32_t capacity = 0;
};

}  // namespace riglens::render
