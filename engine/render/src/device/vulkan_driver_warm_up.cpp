#include "riglens/render/device/vulkan_driver_warm_up.h"

#include <vulkan/vulkan.h>

#include <thread>

namespace riglens::render {

struct VulkanDriverWarmUp::Loaded {
  VkInstance instance = VK_NULL_HANDLE;
  std::thread thread;

  void load() {
    VkInstanceCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    if (vkCreateInstance(&info, nullptr, &instance) != VK_SUCCESS) {
      instance = VK_NULL_HANDLE;
      return;
    }
    // Listing the devices has each driver open its device (lavapipe starts
    // its rasteriser here), as the probe's listing will.
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance, &count, nullptr);
  }
};

VulkanDriverWarmUp::VulkanDriverWarmUp() : m_loaded(std::make_unique<Loaded>()) {
  m_loaded->thread = std::thread([loaded = m_loaded.get()] { loaded->load(); });
}

VulkanDriverWarmUp::~VulkanDriverWarmUp() {
  m_loaded->thread.join();
  if (m_loaded->instance != VK_NULL_HANDLE) vkDestroyInstance(m_loaded->instance, nullptr);
}

}  // namespace riglens::render
