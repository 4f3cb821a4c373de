// A file size limit (ulimit -f, RLIMIT_FSIZE; a batch scheduler's quota) as
// an error a write reports, not a signal that ends the process: by default
// a write past the limit raises SIGXFSZ, which kills the viewer or the CLI
// mid-export with a core dump. Ignored, the write fails with EFBIG and the
// writer says so and keeps the previous file (core/base/file_io.h).
#pragma once

namespace riglens::launch {

void reportFileSizeLimitAsError();

}  // namespace riglens::launch
