#include "malloc_tunables.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

namespace riglens::launch {

namespace {

// mmap_max=0: large blocks from the heap too, so they reuse what was freed.
// top_pad: the heap grows 64 MiB at a time rather than a page at a time
// (measured with huge pages on: without it the large sample's render 2.9-3.1
// s / 1.39 GB, with it 2.5 s / 1.66-1.81 GB). Trimming stays on, so a viewer
// that closes a big model gives the memory back.
// arena_max=2: two heaps for all threads, not one per thread (glibc allows
// eight per core). Each thread's own heap is a fresh mapping of first
// touches; alternated on the 2-core VM (2026-12-07, huge pages on): the
// tank's cold start 0.76-0.87 s -> 0.69-0.79 s and 252-260 -> 230-235 MB;
// the large sample's render 2.10-2.51 s -> 1.71-2.16 s. One heap was no
// faster than two.
// hugetlb=1: madvise(MADV_HUGEPAGE) on malloc's heap, with
// RIGLENS_MALLOC=huge (malloc_tunables.h says why not by default; the
// kernel's THP mode is "madvise" on Debian); =0 still marks the tunables as
// set (the check below), so a child that inherits them does not run itself
// again. (/proc/PID/environ shows only the first tunable once glibc has read
// them; getenv and a child see the whole list.)
constexpr const char* kHugePagesTunable = "glibc.malloc.hugetlb";
constexpr const char* kTunables = ":glibc.malloc.mmap_max=0:glibc.malloc.top_pad=67108864:glibc.malloc.arena_max=2";

}  // namespace

void useMallocTunables(char** argv) {
  const char* choice = std::getenv("RIGLENS_MALLOC");
  if (choice && std::strcmp(choice, "system") == 0) return;
  const char* current = std::getenv("GLIBC_TUNABLES");
  if (current && std::strstr(current, kHugePagesTunable)) return;  // set: by us after the exec, or the caller
  // Only re-execute ourselves: under valgrind or a dynamic loader run by hand,
  // /proc/self/exe is some other program.
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error || !argv || !argv[0] || self.filename() != std::filesystem::path(argv[0]).filename()) return;
  const bool huge = choice && std::strcmp(choice, "huge") == 0;
  const std::string ours = std::string(kHugePagesTunable) + (huge ? "=1" : "=0") + kTunables;
  const std::string tunables = current && *current ? std::string(current) + ":" + ours : ours;
  if (setenv("GLIBC_TUNABLES", tunables.c_str(), 1) != 0) return;
  // By its own path, not /proc/self/exe: the kernel names a process after
  // the file it executes, and "exe" is what top, pidof and killall saw.
  execv(self.c_str(), argv);
  // The exec failed: carry on with glibc's defaults, and leave the
  // environment as it was for any child.
  if (current)
    setenv("GLIBC_TUNABLES", current, 1);
  else
    unsetenv("GLIBC_TUNABLES");
}

}  // namespace riglens::launch
