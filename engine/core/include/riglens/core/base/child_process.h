// Work that may crash, hang or exhaust memory on a hostile file (Assimp's
// readers, OpenCV's ONNX importer) done in a forked child under limits, so
// that whatever happens there is a refusal the caller reports, never the
// end of the viewer. The child writes its answer to a pipe; the parent
// reads it with a deadline and a size cap, then reaps the child.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "riglens/core/base/expected.h"

namespace riglens::core {

struct ChildLimits {
  std::uint64_t memoryBytes = 0;  // the child's address space (RLIMIT_AS); not set under ASan
  std::chrono::milliseconds time{0};
  std::uint64_t outputBytes = 0;  // the most the parent reads back
};

struct ChildOutcome {
  std::vector<std::uint8_t> output;  // what the child wrote
  // Why the parent stopped it: past its time, an answer past the cap, or
  // the pipe lost; None when it ended by itself.
  enum class Stop { None, Time, Output, Lost } stop = Stop::None;
  int status = 0;  // waitpid's

  bool exitedZero() const;
  // "<who> crashed on it (Segmentation fault)", "<who> was stopped (out of
  // memory or time)", "<who> ended with status 3".
  std::string howItEnded(std::string_view who) const;
};

// Forks; the child restores the default crash signals (a host's crash
// handler must not run there), dies with its parent, takes the memory
// limit and runs `body(fd)`, then _exits with what it returned. The parent
// collects the output. An error only when no child could be started.
Expected<ChildOutcome> runInChild(const ChildLimits& limits, const std::function<int(int fd)>& body);

// Writes every byte to `fd` (for the child's answer).
bool writeAllTo(int fd, const void* data, std::size_t size);

}  // namespace riglens::core
