// One libFuzzer executable per target: RIGLENS_FUZZ_TARGET names the body.
#include <cstdio>
#include <cstdlib>

#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const riglens::fuzz::Target* target = [] {
    const auto* t = riglens::fuzz::findTarget(RIGLENS_FUZZ_TARGET);
    if (!t) {
      std::fprintf(stderr, "no fuzz target named %s\n", RIGLENS_FUZZ_TARGET);
      std::abort();
    }
    return t;
  }();
  target->body({data, size});
  return 0;
}
