#include "large_page_malloc.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

namespace riglens::launch {

namespace {

// hugetlb=1: madvise(MADV_HUGEPAGE) on malloc's heap and mappings (the
// kernel's THP mode is "madvise" on Debian). mmap_max=0: large blocks from the
// heap too, so they get the advice and reuse what was freed. top_pad: the heap
// grows 64 MiB at a time, whole huge pages, rather than a page at a time.
// Measured on the large sample (riglens-cli render) and the viewer's cold
// start on the tank, 3-5 runs each: without top_pad 2.9-3.1 s / 1.39 GB and
// 1.31 s; with it 2.5 s / 1.66-1.81 GB and 0.93-1.22 s. Trimming stays on, so
// a viewer that closes a big model gives the memory back.
// arena_max=2: two heaps for all threads, not one per thread (glibc allows
// eight per core). Each thread's own heap is a fresh mapping whose first
// touches fault whole huge pages; the viewer's cold start on the tank
// touched 57-61 of them (116 MB zeroed by the kernel, a quarter of its CPU
// samples) and 45-48 with two heaps. Alternated on the 2-core VM
// (2026-12-07, the viewer's cold start 5 runs, the others 3): the tank
// 0.76-0.87 s -> 0.69-0.79 s and 252-260 -> 230-235 MB; the large sample's
// render 2.10-2.51 s -> 1.71-2.16 s; the dense 1M torus .ply rendered on the
// CPU tiles (two threads) 0.92-1.33 s -> 0.71-0.80 s; the decoded sample
// character unchanged (0.27-0.30 s). One heap was no faster than two.
constexpr const char* kTunables =
    "glibc.malloc.hugetlb=1:glibc.malloc.mmap_max=0:glibc.malloc.top_pad=67108864:glibc.malloc.arena_max=2";

}  // namespace

void useLargePageMalloc(char** argv) {
  const char* choice = std::getenv("RIGLENS_MALLOC");
  if (choice && std::strcmp(choice, "system") == 0) return;
  const char* current = std::getenv("GLIBC_TUNABLES");
  if (current && std::strstr(current, "glibc.malloc.hugetlb")) return;  // set: by us after the exec, or the caller
  // Only re-execute ourselves: under valgrind or a dynamic loader run by hand,
  // /proc/self/exe is some other program.
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error || !argv || !argv[0] || self.filename() != std::filesystem::path(argv[0]).filename()) return;
  const std::string tunables = current && *current ? std::string(current) + ":" + kTunables : std::string(kTunables);
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
