# Every option RigLens reads, prefixed RIGLENS_, printed at configure time.
option(RIGLENS_BUILD_RENDER "Build engine/render (QRhi; needs Qt6 Gui)" ON)
option(RIGLENS_BUILD_APP "Build the riglens viewer and riglens-cli" ON)
option(RIGLENS_BUILD_TESTS "Build the Qt Test executables and register them with CTest" ON)
option(RIGLENS_BUILD_BENCHMARKS "Build the Google Benchmark executables" ON)
option(RIGLENS_WERROR "Treat compiler warnings as errors" OFF)
option(RIGLENS_BUILD_FUZZERS "Build the libFuzzer targets in fuzz/ (clang; sanitizers on every target; tools/fuzz.sh)" OFF)
option(RIGLENS_SANITIZE "Build everything with AddressSanitizer and UndefinedBehaviorSanitizer (gcc or clang), for a run of the suite under them" OFF)
option(RIGLENS_SANITIZE_THREADS "Build everything with ThreadSanitizer, for a run of the engine's own tests under it (tools/sanitize.sh --threads)" OFF)
option(RIGLENS_INTEROP_TESTS "Register interop tests that run node clients (needs tools/interop installed)" ON)
option(RIGLENS_SPLIT_DWARF "Keep debug info in a .dwo beside each object instead of copying it into every executable that links the object" ON)
option(RIGLENS_LINK_WITH_LLD "Link with LLVM's lld (Debian package lld) where it is installed: about three times faster than GNU ld for the ~250 executables and libraries" ON)
option(RIGLENS_UNITY_BUILD "Compile each target's sources in batches of a few files (CMake's unity build): the headers every source parses (Qt, nlohmann-json, glm, tinygltf) are read once a batch" ON)
option(RIGLENS_OPTIMIZE_TESTS "Compile the Qt Test executables' own sources at the build type's optimisation level; OFF (default) compiles them at -O0 - the engine's libraries they test keep theirs" OFF)
option(RIGLENS_LINE_TABLES "In RelWithDebInfo, compile with line tables only (-g1): backtraces and sanitizer reports keep function, file and line; a debugger's locals need OFF or a Debug build" ON)

set(RIGLENS_ALL_OPTIONS RIGLENS_BUILD_RENDER RIGLENS_BUILD_APP RIGLENS_BUILD_TESTS
    RIGLENS_BUILD_BENCHMARKS RIGLENS_BUILD_FUZZERS RIGLENS_SANITIZE RIGLENS_SANITIZE_THREADS RIGLENS_WERROR RIGLENS_INTEROP_TESTS RIGLENS_SPLIT_DWARF
    RIGLENS_LINK_WITH_LLD RIGLENS_LINE_TABLES RIGLENS_UNITY_BUILD RIGLENS_OPTIMIZE_TESTS)

function(riglens_print_options)
  message(STATUS "RigLens ${PROJECT_VERSION} (${CMAKE_BUILD_TYPE}):")
  foreach(opt IN LISTS RIGLENS_ALL_OPTIONS)
    message(STATUS "  ${opt} = ${${opt}}")
  endforeach()
endfunction()
