#include "riglens/render/device/vulkan_probe.h"

#include <QtGui/private/qrhivulkan_p.h>

#include <QtCore/QCoreApplication>
#include <QtGui/QVulkanFunctions>
#include <QtGui/QVulkanInstance>
#include <vector>

#include "device/device_properties.h"

namespace riglens::render {

namespace {

VulkanProbe askVulkan() {
  VulkanProbe probe;
  auto instance = std::make_shared<QVulkanInstance>();
  // The extensions Qt Quick's own default instance asks for (surfaces, debug
  // utils where present), so the window draws as it would without us.
  prepareVulkanInstance(*instance);
  if (!instance->create()) {
    probe.why = "no Vulkan instance (error " + std::to_string(instance->errorCode()) +
                "; is a Vulkan driver installed, e.g. mesa-vulkan-drivers?)";
    return probe;
  }
  QVulkanFunctions* f = instance->functions();
  uint32_t count = 0;
  if (f->vkEnumeratePhysicalDevices(instance->vkInstance(), &count, nullptr) != VK_SUCCESS || count == 0) {
    probe.why = "the Vulkan instance lists no physical device";
    return probe;
  }
  std::vector<VkPhysicalDevice> devices(count);
  f->vkEnumeratePhysicalDevices(instance->vkInstance(), &count, devices.data());
  // QRhi takes the first device unless QT_VK_PHYSICAL_DEVICE_INDEX says another.
  bool ok = false;
  const int chosen = qEnvironmentVariableIntValue("QT_VK_PHYSICAL_DEVICE_INDEX", &ok);
  const VkPhysicalDevice device = devices[ok && chosen >= 0 && uint32_t(chosen) < count ? uint32_t(chosen) : 0];
  VkPhysicalDeviceProperties properties{};
  f->vkGetPhysicalDeviceProperties(device, &properties);
  probe.deviceName = properties.deviceName;
  probe.cpuDevice = properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  probe.instance = std::move(instance);
  return probe;
}

}  // namespace

namespace {
VulkanProbe* g_probe = nullptr;  // GUI thread only
}  // namespace

const VulkanProbe& probeVulkan() {
  if (!g_probe) {
    g_probe = new VulkanProbe(askVulkan());
    // Released as the application object goes, after its windows and while
    // the platform plugin that made the instance's surfaces is still there
    // (a plain static would outlive the plugin).
    qAddPostRoutine([] {
      delete g_probe;
      g_probe = nullptr;
    });
  }
  return *g_probe;
}

}  // namespace riglens::render
