#pragma once
// The least Vulkan bench_shader_stats needs: an instance, the first GPU (a
// CPU device only where there is none), a device with every feature it
// offers but robust buffer access (which QRhi leaves off too, and which adds
// bounds checks to the code the driver makes), and compute pipelines built
// with their statistics captured.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

#include "spirv_layout.h"

namespace riglens::bench {

// A Vulkan struct zeroed but for its type tag.
template <class T>
T vkStruct(VkStructureType type) {
  T s{};
  s.sType = type;
  return s;
}

struct BuiltPipeline {
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
};

class VulkanContext {
 public:
  VulkanContext() = default;
  VulkanContext(const VulkanContext&) = delete;
  VulkanContext& operator=(const VulkanContext&) = delete;
  ~VulkanContext();

  // Empty on success, else what failed.
  std::string create();
  // A pipeline of `words` laid out as `layout` (pipeline null when the driver refused).
  BuiltPipeline build(const std::vector<uint32_t>& words, const SpirvLayout& layout) const;
  void destroy(BuiltPipeline& built) const;

  VkDevice device = VK_NULL_HANDLE;
  // The device's name, driver version and, where VK_NV_shader_sm_builtins
  // says them, its SM count and warps per SM.
  std::string description;
  // Null where the driver lacks VK_KHR_pipeline_executable_properties.
  PFN_vkGetPipelineExecutablePropertiesKHR getExecutableProperties = nullptr;
  PFN_vkGetPipelineExecutableStatisticsKHR getExecutableStatistics = nullptr;

 private:
  std::string pickDevice();
  std::string createDevice();

  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  bool hasStatistics_ = false;
};

}  // namespace riglens::bench
