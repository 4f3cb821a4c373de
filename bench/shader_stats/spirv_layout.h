#pragma once
// What a compute shader's SPIR-V declares about its interface: the
// descriptor bindings (set 0), read from its decorations, and its workgroup
// size, so bench_shader_stats can build the pipeline layout a pipeline of it
// needs without QRhi. Only what RigLens's compute shaders use: storage and
// uniform buffers, storage and sampled images, samplers.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace riglens::bench {

struct SpirvBinding {
  uint32_t binding = 0;
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
};

struct SpirvLayout {
  std::vector<SpirvBinding> bindings;  // ascending by binding
  uint32_t localSize[3] = {0, 0, 0};   // the LocalSize execution mode (0: none)
  std::string error;                   // empty when read
};

// The layout of `words` (a whole SPIR-V module). A resource in a set other
// than 0, or of a kind not listed above, is an error naming its word offset.
SpirvLayout readSpirvLayout(const std::vector<uint32_t>& words);

}  // namespace riglens::bench
