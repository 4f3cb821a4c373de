// One libFuzzer executable per target: RIGLENS_FUZZ_TARGET names the body
// (and, for the binary containers, the structure-aware mutator).
#include <cstdio>
#include <cstdlib>

#include "container_mutators.h"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t maxSize);
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

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t maxSize,
                                               unsigned int seed) {
  static const riglens::fuzz::Mutator mutator = riglens::fuzz::containerMutator(RIGLENS_FUZZ_TARGET);
  return mutator ? mutator(data, size, maxSize, seed) : LLVMFuzzerMutate(data, size, maxSize);
}
