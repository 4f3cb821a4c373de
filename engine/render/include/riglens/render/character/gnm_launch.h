// How the GNM kernel is launched: the workgroup sizes it is built with (one
// .qsb each, :/shaders/gnm.<size>.comp) and the choice among them for a head
// on a device (GpuGnm::create). No Qt: tests call it directly.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace riglens::render {

// The sizes gnm.comp is built with (shaders/CMakeLists.txt's
// RIGLENS_GNM_GROUP_SIZES, in this order). 256 is the size used where the
// device does not say how many multiprocessors it has.
inline constexpr std::array<std::uint32_t, 5> kGnmGroupSizes{256, 272, 288, 320, 384};
inline constexpr std::uint32_t kGnmDefaultGroupSize = 256;

// Vertices one group of `groupSize` invocations poses: dense, a row per
// kGnmLanesPerVertex invocations, kGnmRowsPerInvocation rows each; sparse,
// one vertex an invocation.
std::uint32_t gnmVerticesPerGroup(std::uint32_t groupSize, bool dense);

// The rows the busiest multiprocessor reads when `vertexCount` rows are
// posed by groups of `groupSize` on `multiprocessors` of them (groups handed
// out evenly, the dense path): the kernel's time follows it, not the total.
std::size_t gnmBusiestRows(std::size_t vertexCount, std::uint32_t groupSize, int multiprocessors);

// The size of kGnmGroupSizes with the fewest busiest rows (the smaller size on
// a tie); kGnmDefaultGroupSize where `multiprocessors` is unknown (0).
std::uint32_t gnmGroupSizeFor(std::size_t vertexCount, int multiprocessors);

}  // namespace riglens::render
