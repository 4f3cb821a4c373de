#include "program_library.h"

#include <dlfcn.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

#ifndef RIGLENS_PRIVATE_LIBRARY_DIR
#error \
    "RIGLENS_PRIVATE_LIBRARY_DIR: the program libraries' folder relative to the executables' (set by app/CMakeLists.txt)"
#endif

namespace riglens::launch {

namespace {

using ProgramMain = int (*)(int, char**);

constexpr const char* kEntryPoint = "riglens_program_main";

// Where the library may be, in the order tried: beside the executable (the
// build tree), then where an install puts it relative to the executable.
std::filesystem::path candidate(const std::filesystem::path& folder, const char* libraryFile, bool installed) {
  return installed ? (folder / RIGLENS_PRIVATE_LIBRARY_DIR / libraryFile).lexically_normal() : folder / libraryFile;
}

}  // namespace

int runProgramLibrary(const char* libraryFile, int argc, char** argv) {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) {
    std::fprintf(stderr, "%s: cannot find its own executable (/proc/self/exe): %s\n", libraryFile,
                 error.message().c_str());
    return 127;
  }
  std::string tried;
  for (const bool installed : {false, true}) {
    const std::filesystem::path path = candidate(self.parent_path(), libraryFile, installed);
    if (!std::filesystem::exists(path, error)) {
      tried += "\n  " + path.string() + ": not there";
      continue;
    }
    // RTLD_NOW: a missing symbol is refused here, not at its first call.
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    const char* why = library ? nullptr : dlerror();
    const auto entry = library ? reinterpret_cast<ProgramMain>(dlsym(library, kEntryPoint)) : nullptr;
    if (entry) return entry(argc, argv);
    tried += "\n  " + path.string() + ": " + (why ? why : std::string("no ") + kEntryPoint);
  }
  std::fprintf(stderr, "%s: cannot open the program's library %s:%s\n", self.filename().c_str(), libraryFile,
               tried.c_str());
  return 127;
}

}  // namespace riglens::launch
