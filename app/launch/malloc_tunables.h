// glibc's malloc tunables, for both executables.
//
// A large model touches over half a gigabyte of fresh memory between the
// loader, Qt's upload batch and the Vulkan driver's staging and device memory
// (on a CPU rasteriser those are host memory too). glibc's tunables make
// malloc serve large blocks from its heap rather than fresh mappings, so they
// reuse freed memory, grow the heap in large steps and keep two heaps rather
// than one per thread: fewer first touches. Tunables are read only when a
// process starts, so the executable runs itself again once with them set.
//
// Transparent huge pages (glibc.malloc.hugetlb=1) are not among them by
// default: what a first touch costs depends on where the memory comes from,
// not on the program. On the 2-core VM of 2026-12-07, fresh from its host,
// a 2 MiB page the kernel had reported free to the host (it does so for idle
// free memory after about two seconds) took 5-7 ms to fault, a 4 KiB page
// 1.5-3 us: `riglens-cli render` of the large sample, 4 s idle before each
// run, alternated, 3.77 s with huge pages against 2.29 s without (2.45 with
// glibc's defaults); the viewer's cold start on the tank 0.67 against 0.41
// s. On the same kind of VM after hours of builds (2026-12-02/03) every
// 4 KiB page cost about 11 us and huge pages won (the PBR render 4.94 s
// against 7.01). A machine without a hypervisor pays neither. RIGLENS_MALLOC
// =huge adds them.
#pragma once

namespace riglens::launch {

// Call first in main(). Returns when the tunables are in force, when the
// caller set glibc.malloc.hugetlb itself, when RIGLENS_MALLOC=system asks for
// glibc's defaults, or when this process is not running its own executable
// (valgrind, a loader); otherwise re-executes /proc/self/exe with the same
// arguments and does not return. A failed exec returns and the program runs
// with the defaults. RIGLENS_MALLOC=huge adds glibc.malloc.hugetlb=1.
void useMallocTunables(char** argv);

}  // namespace riglens::launch
