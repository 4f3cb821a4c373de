#include "riglens/render/parity/lift_on_gpu.h"

namespace riglens::render {

core::Expected<core::SplatSink> debugLiftOnGpu(RhiDevice& device, const core::DebugLiftParams& params,
                                               std::span<const float> positions, std::span<const std::uint32_t> tints,
                                               const core::SplatSink& initial) {
  auto lift = GpuLift::create(device, positions.size() / 3, initial);
  if (!lift) return lift.error();
  if (auto staged = (*lift)->setFrame(params, positions, tints); !staged) return staged.error();
  if (auto ran = (*lift)->runOffscreenFrame(); !ran) return ran.error();
  return (*lift)->readBack();
}

}  // namespace riglens::render
