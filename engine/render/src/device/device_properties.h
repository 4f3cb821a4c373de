// What a compute kernel can count on from a QRhi's device (its subgroups,
// its multiprocessors) and the instance set-up that lets it ask. Private to
// engine/render.
#pragma once

class QRhi;
class QVulkanInstance;

namespace riglens::render {

// The invocations per subgroup a compute shader gets on `rhi`'s Vulkan
// device when that device runs subgroup ballots and arithmetic in compute
// shaders and `instance` (the one `rhi` was made from) asked for Vulkan 1.1;
// 0 otherwise (OpenGL, an unknown or 1.0 instance, a 1.0 device, or one
// without those operations).
int subgroupLanes(QRhi* rhi, const QVulkanInstance* instance);

// The multiprocessors (SMs) of `rhi`'s Vulkan device where its driver says
// (VK_NV_shader_sm_builtins, NVIDIA's), under the same conditions as
// subgroupLanes; 0 where unknown (other vendors, lavapipe, OpenGL).
int multiprocessorCount(QRhi* rhi, const QVulkanInstance* instance);

// Before create(): asks for Vulkan 1.1 where the loader has it (Qt asks for
// 1.0 by default), so SPIR-V 1.3's subgroup operations are valid on the
// devices made from `instance`, and the preferred extensions, as Qt Quick's
// own default instance does.
void prepareVulkanInstance(QVulkanInstance& instance);

}  // namespace riglens::render
