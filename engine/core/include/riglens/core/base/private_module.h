// A private module: a shared library of RigLens's own, opened when a feature
// first needs it, so that the libraries behind it (FFmpeg for videos, OpenCV
// for neural decoders) are not loaded by every start of the programs that
// may use it (riglens/media/video_module.h, riglens/decode/decoder_module.h).
// The module lies beside the shared library or executable that holds the
// code calling this (the program's library: app/launch/program_library.h);
// it is opened with its names kept to itself (RTLD_LOCAL), and its entry
// point, `const void* <entry>()`, returns its table.
#pragma once

#include "riglens/core/base/expected.h"

namespace riglens::core {

// The table `entry` returns, or an Unsupported error naming the module's
// path and why it could not be opened. Every table starts with an int, the
// number of the table's layout: a module whose number is not `abi` was built
// with another program and is refused. Opened once a process and never
// closed (the objects it made stay valid).
Expected<const void*> openPrivateModule(const char* file, const char* entry, int abi);

}  // namespace riglens::core
