// main() of both executables (riglens, riglens-cli): the malloc tunables
// first, while only the C and C++ runtimes are loaded, then the program's
// library (program_library.h says why they are two files).
#include "malloc_tunables.h"
#include "program_library.h"

#ifndef RIGLENS_PROGRAM_LIBRARY
#error "RIGLENS_PROGRAM_LIBRARY: the file name of the program's library (set by app/CMakeLists.txt)"
#endif

int main(int argc, char* argv[]) {
  riglens::launch::useMallocTunables(argv);
  return riglens::launch::runProgramLibrary(RIGLENS_PROGRAM_LIBRARY, argc, argv);
}
