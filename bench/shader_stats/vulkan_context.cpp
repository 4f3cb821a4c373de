#include "vulkan_context.h"

#include <cstring>

namespace riglens::bench {
namespace {

bool hasExtension(VkPhysicalDevice device, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data());
  for (const auto& e : extensions)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

std::string describe(VkPhysicalDevice device, bool smBuiltins) {
  auto sm = vkStruct<VkPhysicalDeviceShaderSMBuiltinsPropertiesNV>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV);
  auto v12 = vkStruct<VkPhysicalDeviceVulkan12Properties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES);
  v12.pNext = smBuiltins ? &sm : nullptr;
  auto properties = vkStruct<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  properties.pNext = &v12;
  vkGetPhysicalDeviceProperties2(device, &properties);
  std::string text = std::string(properties.properties.deviceName) + "; driver " + v12.driverName + " " +
                     v12.driverInfo + "; shared memory a workgroup " +
                     std::to_string(properties.properties.limits.maxComputeSharedMemorySize) + " bytes";
  if (smBuiltins)
    text += "; " + std::to_string(sm.shaderSMCount) + " SMs, " + std::to_string(sm.shaderWarpsPerSM) + " warps an SM";
  return text;
}

}  // namespace

VulkanContext::~VulkanContext() {
  if (device) vkDestroyDevice(device, nullptr);
  if (instance_) vkDestroyInstance(instance_, nullptr);
}

std::string VulkanContext::create() {
  auto app = vkStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "bench_shader_stats";
  app.apiVersion = VK_API_VERSION_1_2;
  auto info = vkStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  info.pApplicationInfo = &app;
  if (vkCreateInstance(&info, nullptr, &instance_) != VK_SUCCESS) return "no Vulkan 1.2 instance";
  std::string error = pickDevice();
  return error.empty() ? createDevice() : error;
}

std::string VulkanContext::pickDevice() {
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance_, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance_, &count, devices.data());
  for (VkPhysicalDevice d : devices) {
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(d, &p);
    if (p.apiVersion < VK_API_VERSION_1_2) continue;
    if (!physical_ || p.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) physical_ = d;
    if (p.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) break;
  }
  if (!physical_) return "no Vulkan 1.2 device";
  hasStatistics_ = hasExtension(physical_, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  description = describe(physical_, hasExtension(physical_, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME));
  return {};
}

std::string VulkanContext::createDevice() {
  auto statistics = vkStruct<VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
  auto v12 = vkStruct<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  v12.pNext = hasStatistics_ ? &statistics : nullptr;
  auto v11 = vkStruct<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  v11.pNext = &v12;
  auto features = vkStruct<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  features.pNext = &v11;
  vkGetPhysicalDeviceFeatures2(physical_, &features);
  features.features.robustBufferAccess = VK_FALSE;
  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &families, nullptr);
  std::vector<VkQueueFamilyProperties> family(families);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &families, family.data());
  uint32_t compute = 0;
  while (compute < families && !(family[compute].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++compute;
  if (compute == families) return "the device has no compute queue";
  float priority = 1.0f;
  auto queue = vkStruct<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queue.queueFamilyIndex = compute;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  const char* extension = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
  auto info = vkStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  info.pNext = &features;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  info.enabledExtensionCount = hasStatistics_ ? 1 : 0;
  info.ppEnabledExtensionNames = &extension;
  if (vkCreateDevice(physical_, &info, nullptr, &device) != VK_SUCCESS) return "vkCreateDevice failed";
  if (hasStatistics_) {
    getExecutableProperties = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
        vkGetDeviceProcAddr(device, "vkGetPipelineExecutablePropertiesKHR"));
    getExecutableStatistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        vkGetDeviceProcAddr(device, "vkGetPipelineExecutableStatisticsKHR"));
  }
  return {};
}

BuiltPipeline VulkanContext::build(const std::vector<uint32_t>& words, const SpirvLayout& layout) const {
  BuiltPipeline built;
  auto moduleInfo = vkStruct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  moduleInfo.codeSize = words.size() * sizeof(uint32_t);
  moduleInfo.pCode = words.data();
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  for (const auto& b : layout.bindings)
    bindings.push_back({b.binding, b.type, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
  auto setInfo = vkStruct<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  setInfo.bindingCount = static_cast<uint32_t>(bindings.size());
  setInfo.pBindings = bindings.data();
  if (vkCreateShaderModule(device, &moduleInfo, nullptr, &built.module) != VK_SUCCESS ||
      vkCreateDescriptorSetLayout(device, &setInfo, nullptr, &built.setLayout) != VK_SUCCESS)
    return built;
  auto layoutInfo = vkStruct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &built.setLayout;
  if (vkCreatePipelineLayout(device, &layoutInfo, nullptr, &built.layout) != VK_SUCCESS) return built;
  auto info = vkStruct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  info.flags = hasStatistics_ ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR : 0;
  info.stage = vkStruct<VkPipelineShaderStageCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = built.module;
  info.stage.pName = "main";
  info.layout = built.layout;
  if (vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &built.pipeline) != VK_SUCCESS)
    built.pipeline = VK_NULL_HANDLE;
  return built;
}

void VulkanContext::destroy(BuiltPipeline& built) const {
  vkDestroyPipeline(device, built.pipeline, nullptr);
  vkDestroyPipelineLayout(device, built.layout, nullptr);
  vkDestroyDescriptorSetLayout(device, built.setLayout, nullptr);
  vkDestroyShaderModule(device, built.module, nullptr);
  built = {};
}

}  // namespace riglens::bench
