#include "riglens/core/character/slot_allocator.h"

#include <algorithm>
#include <iterator>
#include <string>

namespace riglens::core {

SlotAllocator::SlotAllocator(std::uint32_t capacity) : m_capacity(capacity) {
  if (capacity) m_free.push_back({0, capacity});
}

Expected<std::uint32_t> SlotAllocator::allocate(std::uint32_t count) {
  if (count == 0) return makeError(ErrorCode::Usage, "allocate: count must be positive");
  for (auto it = m_free.begin(); it != m_free.end(); ++it) {
    if (it->count < count) continue;
    const std::uint32_t offset = it->offset;
    it->offset += count;
    it->count -= count;
    if (it->count == 0) m_free.erase(it);
    return offset;
  }
  return makeError(ErrorCode::Usage, "allocate: no free block of " + std::to_string(count) + " slots (" +
                                         std::to_string(available()) + " free of " + std::to_string(m_capacity) + ")");
}

Expected<void> SlotAllocator::release(std::uint32_t offset, std::uint32_t count) {
  if (count == 0 || std::uint64_t(offset) + count > m_capacity)
    return makeError(ErrorCode::Usage, "release: [" + std::to_string(offset) + ", " +
                                           std::to_string(std::uint64_t(offset) + count) +
                                           ") is outside the capacity " + std::to_string(m_capacity));
  for (const Block& b : m_free)
    if (offset < b.offset + b.count && b.offset < offset + count)
      return makeError(ErrorCode::Usage, "release: [" + std::to_string(offset) + ", " + std::to_string(offset + count) +
                                             ") overlaps a free block (double release)");
  auto at = std::lower_bound(m_free.begin(), m_free.end(), offset,
                             [](const Block& b, std::uint32_t o) { return b.offset < o; });
  at = m_free.insert(at, {offset, count});
  if (auto next = std::next(at); next != m_free.end() && at->offset + at->count == next->offset) {
    at->count += next->count;
    m_free.erase(next);
  }
  if (at != m_free.begin()) {
    auto prev = std::prev(at);
    if (prev->offset + prev->count == at->offset) {
      prev->count += at->count;
      m_free.erase(at);
    }
  }
  return {};
}

std::uint32_t SlotAllocator::available() const {
  std::uint32_t n = 0;
  for (const Block& b : m_free) n += b.count;
  return n;
}

}  // namespace riglens::core
