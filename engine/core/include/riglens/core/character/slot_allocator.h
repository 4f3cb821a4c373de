// The splat sink's slot allocator (contract/CHARACTER.md section 5): slot
// ranges are allocated once per branch and never move.
#pragma once

#include <cstdint>
#include <vector>

#include "riglens/core/base/expected.h"

namespace riglens::core {

// Deterministic first-fit over [0, capacity): allocate carves from the front
// of the first free block that fits and fails when nothing fits; release
// fails on a range outside the capacity or overlapping a free block (a
// double release), then coalesces neighbours.
class SlotAllocator {
 public:
  struct Block {
    std::uint32_t offset = 0, count = 0;
    bool operator==(const Block&) const = default;
  };
  explicit SlotAllocator(std::uint32_t capacity);
  Expected<std::uint32_t> allocate(std::uint32_t count);
  Expected<void> release(std::uint32_t offset, std::uint32_t count);
  std::uint32_t available() const;
  std::vector<Block> blocks() const { return m_free; }  // a copy, ascending offsets
  std::uint32_t capacity() const { return m_capacity; }

 private:
  std::uint32_t m_capacity;
  std::vector<Block> m_free;
};

}  // namespace riglens::core
