#pragma once

// Which sanitizer this translation unit is built with (tools/sanitize.sh,
// the fuzzers). GCC names them with __SANITIZE_ADDRESS__ /
// __SANITIZE_THREAD__, clang (the fuzzers' compiler) with __has_feature:
// missing the second once capped every fuzzed child, so Assimp itself was
// never fuzzed.

#if defined(__has_feature)
#define RIGLENS_HAS_FEATURE(feature) __has_feature(feature)
#else
#define RIGLENS_HAS_FEATURE(feature) 0
#endif

namespace riglens::core {

#if defined(__SANITIZE_ADDRESS__) || RIGLENS_HAS_FEATURE(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif

#if defined(__SANITIZE_THREAD__) || RIGLENS_HAS_FEATURE(thread_sanitizer)
inline constexpr bool kThreadSanitizer = true;
#else
inline constexpr bool kThreadSanitizer = false;
#endif

}  // namespace riglens::core
