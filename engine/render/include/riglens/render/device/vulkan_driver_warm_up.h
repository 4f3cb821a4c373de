// Loads this machine's Vulkan drivers on a thread while the caller does
// something else.
//
// Most of what the first Vulkan instance of a process costs is the loader
// opening every installed driver and the layers (lavapipe's links all of
// LLVM): 62-82 ms on the 2-core VM with lavapipe, where a second instance made
// while the first still lives takes 7 ms (2026-12-07). The viewer must know
// whether Vulkan works before it makes its window (vulkan_probe.h), but its
// Qt start and QML compile do not need to know: a warm-up started first makes
// one bare instance beside them and keeps it until the probe has its own.
// Nothing of it is used for drawing; where no driver makes an instance it
// does nothing.
#pragma once

#include <memory>

namespace riglens::render {

class VulkanDriverWarmUp {
 public:
  VulkanDriverWarmUp();  // starts the thread
  // Waits for the thread, then destroys its instance (the drivers stay
  // loaded while another instance holds them).
  ~VulkanDriverWarmUp();
  VulkanDriverWarmUp(const VulkanDriverWarmUp&) = delete;
  VulkanDriverWarmUp& operator=(const VulkanDriverWarmUp&) = delete;

 private:
  struct Loaded;
  std::unique_ptr<Loaded> m_loaded;
};

}  // namespace riglens::render
