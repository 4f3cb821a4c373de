#include "riglens/render/character/gnm_launch.h"

#include "shader_interface.h"

namespace riglens::render {

std::uint32_t gnmVerticesPerGroup(std::uint32_t groupSize, bool dense) {
  return dense ? groupSize / gpu::kGnmLanesPerVertex * gpu::kGnmRowsPerInvocation : groupSize;
}

std::size_t gnmBusiestRows(std::size_t vertexCount, std::uint32_t groupSize, int multiprocessors) {
  const std::size_t perGroup = gnmVerticesPerGroup(groupSize, true);
  const std::size_t groups = (vertexCount + perGroup - 1) / perGroup;
  const auto units = std::size_t(multiprocessors > 0 ? multiprocessors : 1);
  return (groups + units - 1) / units * perGroup;
}

// The kernel reads its rows at a rate each multiprocessor keeps up by the
// loads it has in flight, so a multiprocessor given a third group while the
// others have two sets the time. On the H200 (132 SMs, V 17,821, dense),
// sizes 256, 272, 288, 320 and 384 took 0.01967, 0.01828, 0.01871, 0.01977
// and 0.02080 ms (busiest rows 192, 136, 144, 160, 192), same sitting.
std::uint32_t gnmGroupSizeFor(std::size_t vertexCount, int multiprocessors) {
  if (multiprocessors <= 0 || vertexCount == 0) return kGnmDefaultGroupSize;
  std::uint32_t best = kGnmGroupSizes.front();
  for (std::uint32_t size : kGnmGroupSizes)
    if (gnmBusiestRows(vertexCount, size, multiprocessors) < gnmBusiestRows(vertexCount, best, multiprocessors))
      best = size;
  return best;
}

}  // namespace riglens::render
