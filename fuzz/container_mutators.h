// Structure-aware mutations for the binary containers (GLB, .aosrig,
// ORLPACK1). Their headers hold lengths and offsets that must match the
// file: a plain byte mutation that grows or shrinks the JSON inside is
// refused by the first length check, so the fuzzer would almost never reach
// the JSON or the data behind it. These mutate the JSON or a blob through
// libFuzzer's own mutator and then repair the lengths and offsets around it;
// one mutation in ten stays a plain byte mutation so the container checks
// themselves are fuzzed too. Compiled into the libFuzzer executables only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace riglens::fuzz {

using Mutator = std::size_t (*)(std::uint8_t* data, std::size_t size, std::size_t maxSize, unsigned seed);

// The mutator for a target, or nullptr for libFuzzer's plain one.
Mutator containerMutator(std::string_view target);

}  // namespace riglens::fuzz
