// Huge pages for glibc's malloc, for both executables.
//
// A large model touches over a gigabyte of fresh memory between the loader,
// Qt's upload batch and the Vulkan driver's staging and device memory (on a
// CPU rasteriser those are host memory too). In 4 KiB pages that is some
// 300,000 page faults; on a virtual machine each costs microseconds, and they
// were half of `riglens-cli render`'s time on the large sample. glibc's
// tunables make malloc advise transparent huge pages (2 MiB, 512 times fewer
// faults), serve large blocks from its heap rather than fresh mappings, so
// they reuse freed memory, and grow the heap in large steps. Tunables are read
// only when a process starts, so the executable runs itself again once with
// them set.
#pragma once

namespace riglens::launch {

// Call first in main(). Returns when the tunables are in force, when the
// caller set glibc.malloc.hugetlb itself, when RIGLENS_MALLOC=system asks for
// glibc's defaults, or when this process is not running its own executable
// (valgrind, a loader); otherwise re-executes /proc/self/exe with the same
// arguments and does not return. A failed exec returns and the program runs
// with the defaults.
void useLargePageMalloc(char** argv);

}  // namespace riglens::launch
