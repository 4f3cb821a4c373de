// The process's resident memory, for the tests that watch it stay level
// (the soak, tst_render_steady).
#pragma once

#include <malloc.h>

#include <QtCore/QFile>
#include <cstdint>

namespace riglens::test {

// VmRSS in bytes after malloc_trim (freed heap handed back, so only memory
// still held counts); -1 where /proc cannot be read.
inline std::int64_t residentBytes() {
  malloc_trim(0);
  QFile status("/proc/self/status");
  if (!status.open(QIODevice::ReadOnly)) return -1;
  for (const QByteArray& line : status.readAll().split('\n'))
    if (line.startsWith("VmRSS:")) return line.mid(6).trimmed().split(' ').first().toLongLong() * 1024;
  return -1;
}

// What malloc has handed out and not had back, over every arena (glibc's
// mallinfo2: small blocks in use plus mmapped large ones). Beside
// residentBytes it tells a leak or a cache that keeps growing (this grows)
// from a fragmented heap (resident grows, this stays level).
inline std::int64_t heapInUseBytes() {
  const struct mallinfo2 info = mallinfo2();
  return std::int64_t(info.uordblks + info.hblkhd);
}

// What malloc holds from the system over every arena (in use or free).
inline std::int64_t heapHeldBytes() {
  const struct mallinfo2 info = mallinfo2();
  return std::int64_t(info.arena + info.hblkhd);
}

}  // namespace riglens::test
