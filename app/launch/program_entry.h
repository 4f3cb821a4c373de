// The entry point of a program's library (program_library.h): what main()
// was, run by the executable once the malloc tunables are in force. Exported
// (the library's only exported name); C linkage, so the executable finds it
// by this name.
#pragma once

extern "C" __attribute__((visibility("default"))) int riglens_program_main(int argc, char* argv[]);
