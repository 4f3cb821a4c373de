// Whether this machine can draw with Vulkan, asked once per process.
//
// Qt Quick picks OpenGL on Linux unless told otherwise, and characters need
// the compute passes RigLens writes for Vulkan first. The viewer asks here
// before it makes its window: an instance that lists a physical device means
// Vulkan works. The instance made for the question is the one the window then
// draws with (QWindow::setVulkanInstance), so the answer costs no second
// instance; Qt 6.4 breaks the first instance's device functions when a second
// one is destroyed (notes on Qt 6.4), so there is only ever this one.
#pragma once

#include <memory>
#include <string>

class QVulkanInstance;

namespace riglens::render {

struct VulkanProbe {
  // The instance the window should use; null when none could be created or
  // it lists no physical device.
  std::shared_ptr<QVulkanInstance> instance;
  std::string deviceName;  // the device QRhi picks (the first one): "llvmpipe (LLVM 15.0.6, 256 bits)"
  bool cpuDevice = false;  // VK_PHYSICAL_DEVICE_TYPE_CPU (lavapipe, SwiftShader)
  std::string why;         // when there is no instance: which step failed
};

// Asks once per application object; later calls return the same answer and
// instance, which lives until the QGuiApplication is destroyed. Needs a
// QGuiApplication (the platform plugin makes the instance's surfaces). GUI
// thread.
const VulkanProbe& probeVulkan();

}  // namespace riglens::render
