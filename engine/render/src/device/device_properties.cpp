#include "device/device_properties.h"

// Before Qt's headers, which include vulkan.h without the prototypes this
// file calls (the loader's, as gpu_timer.cpp does).
// clang-format off
#include <vulkan/vulkan.h>
#include <QtGui/private/qrhi_p.h>
#include <QtGui/private/qrhivulkan_p.h>
#include <QtGui/QVulkanInstance>
// clang-format on

#include <cstring>
#include <vector>

namespace riglens::render {

namespace {

// `rhi`'s physical device where its properties can be asked through
// vkGetPhysicalDeviceProperties2: a Vulkan QRhi whose instance asked for
// Vulkan 1.1 (SPIR-V 1.3's subgroup operations are valid only then; Qt's
// default instance, an embedder's window, asks for 1.0) on a 1.1 device.
VkPhysicalDevice vulkan11Device(QRhi* rhi, const QVulkanInstance* instance) {
  if (!rhi || rhi->backend() != QRhi::Vulkan) return VK_NULL_HANDLE;
  const auto* handles = static_cast<const QRhiVulkanNativeHandles*>(rhi->nativeHandles());
  if (!handles || !handles->physDev) return VK_NULL_HANDLE;
  if (!instance || instance->apiVersion() < QVersionNumber(1, 1)) return VK_NULL_HANDLE;
  VkPhysicalDeviceProperties base{};
  vkGetPhysicalDeviceProperties(handles->physDev, &base);
  // Asking a 1.0 device for 1.1's properties would be invalid.
  if (VK_API_VERSION_MINOR(base.apiVersion) < 1 && VK_API_VERSION_MAJOR(base.apiVersion) < 2) return VK_NULL_HANDLE;
  return handles->physDev;
}

bool hasDeviceExtension(VkPhysicalDevice device, const char* name) {
  std::uint32_t count = 0;
  if (vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> extensions(count);
  if (vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data()) != VK_SUCCESS) return false;
  for (const VkExtensionProperties& e : extensions)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

// Fills `chained` (a VkPhysicalDevice*Properties struct, sType set) through
// vkGetPhysicalDeviceProperties2.
template <typename Properties>
void queryProperties(VkPhysicalDevice device, Properties& chained) {
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &chained;
  vkGetPhysicalDeviceProperties2(device, &properties);
}

}  // namespace

int subgroupLanes(QRhi* rhi, const QVulkanInstance* instance) {
  const VkPhysicalDevice device = vulkan11Device(rhi, instance);
  if (device == VK_NULL_HANDLE) return 0;
  VkPhysicalDeviceSubgroupProperties subgroups{};
  subgroups.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  queryProperties(device, subgroups);
  const VkSubgroupFeatureFlags needed =
      VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
  if ((subgroups.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) == 0) return 0;
  if ((subgroups.supportedOperations & needed) != needed) return 0;
  return int(subgroups.subgroupSize);
}

int multiprocessorCount(QRhi* rhi, const QVulkanInstance* instance) {
  const VkPhysicalDevice device = vulkan11Device(rhi, instance);
  // A property struct may be chained only where the device has its extension.
  if (device == VK_NULL_HANDLE || !hasDeviceExtension(device, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) return 0;
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm{};
  sm.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV;
  queryProperties(device, sm);
  return int(sm.shaderSMCount);
}

void prepareVulkanInstance(QVulkanInstance& instance) {
  instance.setExtensions(QRhiVulkanInitParams::preferredInstanceExtensions());
  const QVersionNumber wanted(1, 1);
  if (instance.supportedApiVersion() >= wanted) instance.setApiVersion(wanted);
}

}  // namespace riglens::render
