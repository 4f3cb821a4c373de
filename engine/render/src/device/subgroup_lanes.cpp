#include "device/subgroup_lanes.h"

// Before Qt's headers, which include vulkan.h without the prototypes this
// file calls (the loader's, as gpu_timer.cpp does).
// clang-format off
#include <vulkan/vulkan.h>
#include <QtGui/private/qrhi_p.h>
#include <QtGui/private/qrhivulkan_p.h>
#include <QtGui/QVulkanInstance>
// clang-format on

namespace riglens::render {

int subgroupLanes(QRhi* rhi, const QVulkanInstance* instance) {
  if (!rhi || rhi->backend() != QRhi::Vulkan) return 0;
  const auto* handles = static_cast<const QRhiVulkanNativeHandles*>(rhi->nativeHandles());
  if (!handles || !handles->physDev) return 0;
  // SPIR-V 1.3 (subgroup operations) is valid only where the application
  // asked for Vulkan 1.1; Qt's default instance (an embedder's window) asks
  // for 1.0.
  if (!instance || instance->apiVersion() < QVersionNumber(1, 1)) return 0;
  VkPhysicalDeviceProperties base{};
  vkGetPhysicalDeviceProperties(handles->physDev, &base);
  // Subgroup properties are Vulkan 1.1; asking a 1.0 device would be invalid.
  if (VK_API_VERSION_MINOR(base.apiVersion) < 1 && VK_API_VERSION_MAJOR(base.apiVersion) < 2) return 0;
  VkPhysicalDeviceSubgroupProperties subgroups{};
  subgroups.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
  VkPhysicalDeviceProperties2 properties{};
  properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
  properties.pNext = &subgroups;
  vkGetPhysicalDeviceProperties2(handles->physDev, &properties);
  const VkSubgroupFeatureFlags needed =
      VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
  if ((subgroups.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) == 0) return 0;
  if ((subgroups.supportedOperations & needed) != needed) return 0;
  return int(subgroups.subgroupSize);
}

void prepareVulkanInstance(QVulkanInstance& instance) {
  instance.setExtensions(QRhiVulkanInitParams::preferredInstanceExtensions());
  const QVersionNumber wanted(1, 1);
  if (instance.supportedApiVersion() >= wanted) instance.setApiVersion(wanted);
}

}  // namespace riglens::render
