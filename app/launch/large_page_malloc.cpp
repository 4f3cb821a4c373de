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
constexpr const char* kTunables = "glibc.malloc.hugetlb=1:glibc.malloc.mmap_max=0:glibc.malloc.top_pad=67108864";

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
  execv("/proc/self/exe", argv);
  // The exec failed: carry on with glibc's defaults, and leave the
  // environment as it was for any child.
  if (current)
    setenv("GLIBC_TUNABLES", current, 1);
  else
    unsetenv("GLIBC_TUNABLES");
}

}  // namespace riglens::launch
