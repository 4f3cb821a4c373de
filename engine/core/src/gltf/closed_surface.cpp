#include "riglens/core/gltf/closed_surface.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

namespace riglens::core {

namespace {

constexpr std::uint32_t kEmptySlot = std::numeric_limits<std::uint32_t>::max();

struct PositionBits {
  std::uint32_t x, y, z;
  bool operator==(const PositionBits&) const = default;
};

PositionBits bitsOf(const float* p) {
  PositionBits bits{};
  const float x = p[0] + 0.0f, y = p[1] + 0.0f, z = p[2] + 0.0f;  // -0 and +0 are one position
  std::memcpy(&bits.x, &x, 4);
  std::memcpy(&bits.y, &y, 4);
  std::memcpy(&bits.z, &z, 4);
  return bits;
}

std::uint64_t hashOf(PositionBits b) {
  std::uint64_t h = (std::uint64_t(b.x) * 0x9E3779B97F4A7C15ull) ^ (std::uint64_t(b.y) * 0xC2B2AE3D27D4EB4Full) ^
                    (std::uint64_t(b.z) * 0x165667B19E3779F9ull);
  return h ^ (h >> 29);
}

// One id per distinct position (open addressing, linear probing).
std::vector<std::uint32_t> weldByPosition(const std::vector<float>& positions, std::size_t count) {
  const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(count * 2, 16));
  std::vector<std::uint32_t> table(capacity, kEmptySlot);
  std::vector<std::uint32_t> weld(count);
  for (std::size_t v = 0; v < count; ++v) {
    const PositionBits bits = bitsOf(&positions[v * 3]);
    std::size_t slot = hashOf(bits) & (capacity - 1);
    while (true) {
      const std::uint32_t held = table[slot];
      if (held == kEmptySlot) {
        table[slot] = std::uint32_t(v);
        weld[v] = std::uint32_t(v);
        break;
      }
      if (bitsOf(&positions[std::size_t(held) * 3]) == bits) {
        weld[v] = held;
        break;
      }
      slot = (slot + 1) & (capacity - 1);
    }
  }
  return weld;
}

constexpr std::uint64_t kNoEdge = ~std::uint64_t(0);  // never an edge: its two ends differ

// True when no directed edge comes twice (two triangles agreeing on its
// direction: inconsistent winding, or more than two triangles on it) and
// every one has its twin, the same edge run the other way. A hash set
// (open addressing, linear probing, at most half full) in O(edges): sorting
// them took a third of a large voxel run's load.
bool edgesPairUp(const std::vector<std::uint64_t>& edges) {
  const std::size_t capacity = std::bit_ceil(edges.size() * 2);
  const int shift = 64 - std::countr_zero(capacity);
  std::vector<std::uint64_t> table(capacity, kNoEdge);
  const auto slotOf = [&](std::uint64_t edge) { return std::size_t((edge * 0x9E3779B97F4A7C15ull) >> shift); };
  for (const std::uint64_t e : edges)
    for (std::size_t slot = slotOf(e);; slot = (slot + 1) & (capacity - 1)) {
      if (table[slot] == e) return false;
      if (table[slot] == kNoEdge) {
        table[slot] = e;
        break;
      }
    }
  for (const std::uint64_t e : edges) {
    const std::uint64_t twin = (e << 32) | (e >> 32);
    for (std::size_t slot = slotOf(twin);; slot = (slot + 1) & (capacity - 1)) {
      if (table[slot] == twin) break;
      if (table[slot] == kNoEdge) return false;
    }
  }
  return true;
}

}  // namespace

bool isClosedOutwardSurface(const PartMesh& mesh) {
  const std::size_t count = mesh.vertexCount();
  if (count == 0 || mesh.indices.empty() || mesh.indices.size() % 3 != 0 || count >= kEmptySlot ||
      mesh.positions.size() != count * 3)
    return false;
  const std::vector<std::uint32_t> weld = weldByPosition(mesh.positions, count);
  std::vector<std::uint64_t> edges;  // directed: from << 32 | to
  edges.reserve(mesh.indices.size());
  double volume6 = 0;  // six times the signed volume (divergence theorem, per triangle)
  for (std::size_t t = 0; t < mesh.indices.size(); t += 3) {
    std::uint32_t w[3];
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t index = mesh.indices[t + std::size_t(k)];
      if (index >= count) return false;
      w[k] = weld[index];
    }
    // A triangle with two corners at one position has no area and shows
    // nothing either way (Marching Cubes makes them where a crossing falls on
    // a sample); its edges would pair with nothing.
    if (w[0] == w[1] || w[1] == w[2] || w[0] == w[2]) continue;
    for (int k = 0; k < 3; ++k) edges.push_back(std::uint64_t(w[k]) << 32 | w[(k + 1) % 3]);
    const float* a = &mesh.positions[std::size_t(w[0]) * 3];
    const float* b = &mesh.positions[std::size_t(w[1]) * 3];
    const float* c = &mesh.positions[std::size_t(w[2]) * 3];
    volume6 += double(a[0]) * (double(b[1]) * c[2] - double(b[2]) * c[1]) -
               double(a[1]) * (double(b[0]) * c[2] - double(b[2]) * c[0]) +
               double(a[2]) * (double(b[0]) * c[1] - double(b[1]) * c[0]);
  }
  if (!(volume6 > 0) || edges.empty()) return false;
  return edgesPairUp(edges);
}

}  // namespace riglens::core
