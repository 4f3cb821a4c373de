// The programs as launched: riglens and riglens-cli are small executables
// that need only the C and C++ runtimes; the program itself - the engine, Qt,
// OpenCV, FFmpeg, Assimp, 84 to 176 shared libraries - is a private library
// they open once the malloc tunables are in force
// (malloc_tunables.h). Those tunables are read only when a process starts,
// so the executable runs itself again to set them; when every library was
// already loaded before main(), that second start loaded them all twice:
// 0.20 s for `riglens-cli --version` against 0.11 s without the tunables
// (2026-12-07, this 2-core VM), and every CLI call, every review item and the
// viewer's cold start paid it. Now the first start loads five libraries.
#pragma once

namespace riglens::launch {

// Opens the program's library and runs its entry point, `int
// riglens_program_main(int argc, char** argv)`. The library lies beside the
// executable (the build tree) or where an install puts it
// (<bin>/RIGLENS_PRIVATE_LIBRARY_DIR, relative to the executable's folder, so
// a relocated install works). Returns the entry's exit code, or 127 with a
// message naming what was tried when the library cannot be opened.
int runProgramLibrary(const char* libraryFile, int argc, char** argv);

}  // namespace riglens::launch
