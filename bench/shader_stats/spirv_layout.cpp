#include "spirv_layout.h"

#include <algorithm>
#include <map>
#include <set>

namespace riglens::bench {
namespace {

// Opcodes, decorations and storage classes of the SPIR-V specification
// (1.6, sections 3.32, 3.20 and 3.7).
constexpr uint32_t kSpirvMagic = 0x07230203u;
constexpr uint32_t kHeaderWords = 5;
constexpr uint32_t kOpExecutionMode = 16, kOpTypeImage = 25, kOpTypeSampler = 26, kOpTypeSampledImage = 27,
                   kOpTypePointer = 32, kOpVariable = 59, kOpDecorate = 71;
constexpr uint32_t kDecorationBufferBlock = 3, kDecorationBinding = 33, kDecorationDescriptorSet = 34;
constexpr uint32_t kStorageUniformConstant = 0, kStorageUniform = 2, kStorageBuffer = 12;
constexpr uint32_t kDimBuffer = 5, kImageReadWrite = 2;
constexpr uint32_t kExecutionModeLocalSize = 17;

struct Variable {
  uint32_t pointerType = 0;
  uint32_t storageClass = 0;
  size_t wordOffset = 0;
};

// What one pass over the module's instructions gathers.
struct Module {
  std::map<uint32_t, uint32_t> binding, set;             // id -> decoration value
  std::set<uint32_t> bufferBlocks;                       // struct ids decorated BufferBlock (old-style storage buffers)
  std::map<uint32_t, uint32_t> pointee;                  // pointer type id -> pointed-to type id
  std::map<uint32_t, std::vector<uint32_t>> imageTypes;  // OpTypeImage operands by id
  std::set<uint32_t> samplers, sampledImages;
  std::map<uint32_t, Variable> variables;
  uint32_t localSize[3] = {0, 0, 0};
};

void gather(Module& m, const uint32_t* op, uint32_t count, size_t offset) {
  uint32_t opcode = op[0] & 0xffffu;
  if (opcode == kOpExecutionMode && count >= 6 && op[2] == kExecutionModeLocalSize) {
    std::copy(op + 3, op + 6, m.localSize);
  } else if (opcode == kOpDecorate && count >= 3) {
    if (op[2] == kDecorationBinding && count >= 4)
      m.binding[op[1]] = op[3];
    else if (op[2] == kDecorationDescriptorSet && count >= 4)
      m.set[op[1]] = op[3];
    else if (op[2] == kDecorationBufferBlock)
      m.bufferBlocks.insert(op[1]);
  } else if (opcode == kOpTypePointer && count >= 4) {
    m.pointee[op[1]] = op[3];
  } else if (opcode == kOpTypeImage && count >= 9) {
    m.imageTypes[op[1]] = std::vector<uint32_t>(op + 1, op + count);
  } else if (opcode == kOpTypeSampler && count >= 2) {
    m.samplers.insert(op[1]);
  } else if (opcode == kOpTypeSampledImage && count >= 3) {
    m.sampledImages.insert(op[1]);
  } else if (opcode == kOpVariable && count >= 4) {
    m.variables[op[2]] = Variable{op[1], op[3], offset};
  }
}

// The descriptor type of a variable in `storageClass` pointing at `type`.
std::optional<VkDescriptorType> descriptorType(const Module& m, uint32_t storageClass, uint32_t type) {
  if (storageClass == kStorageBuffer) return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  if (storageClass == kStorageUniform)
    return m.bufferBlocks.count(type) ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  if (storageClass != kStorageUniformConstant) return std::nullopt;
  if (m.samplers.count(type)) return VK_DESCRIPTOR_TYPE_SAMPLER;
  if (m.sampledImages.count(type)) return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  auto image = m.imageTypes.find(type);
  if (image == m.imageTypes.end()) return std::nullopt;
  // Operands after the result id: sampled type, Dim, Depth, Arrayed, MS, Sampled, Format.
  bool buffer = image->second[2] == kDimBuffer, storage = image->second[6] == kImageReadWrite;
  if (buffer) return storage ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
  return storage ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
}

SpirvLayout layoutOf(const Module& m) {
  SpirvLayout out;
  std::copy(m.localSize, m.localSize + 3, out.localSize);
  for (const auto& [id, variable] : m.variables) {
    auto binding = m.binding.find(id);
    if (binding == m.binding.end()) continue;  // not a resource (inputs, shared memory)
    std::string where = "the variable at word " + std::to_string(variable.wordOffset);
    auto set = m.set.find(id);
    if (set != m.set.end() && set->second != 0) {
      out.error = where + " is in descriptor set " + std::to_string(set->second) + ", not 0";
      return out;
    }
    auto pointee = m.pointee.find(variable.pointerType);
    auto type = pointee == m.pointee.end() ? std::nullopt : descriptorType(m, variable.storageClass, pointee->second);
    if (!type) {
      out.error = where + " is a resource of a kind this tool does not bind";
      return out;
    }
    out.bindings.push_back({binding->second, *type});
  }
  std::sort(out.bindings.begin(), out.bindings.end(),
            [](const SpirvBinding& a, const SpirvBinding& b) { return a.binding < b.binding; });
  return out;
}

SpirvLayout failed(std::string why) {
  SpirvLayout out;
  out.error = std::move(why);
  return out;
}

}  // namespace

SpirvLayout readSpirvLayout(const std::vector<uint32_t>& words) {
  if (words.size() < kHeaderWords || words[0] != kSpirvMagic)
    return failed("not a SPIR-V module (no magic number at word 0)");
  Module module;
  uint32_t lastOpcode = 0;
  for (size_t at = kHeaderWords; at < words.size();) {
    uint32_t count = words[at] >> 16u;
    if (count == 0 || at + count > words.size())
      return failed("the instruction at word " + std::to_string(at) + " runs past the module's end");
    gather(module, &words[at], count, at);
    lastOpcode = words[at] & 0xffffu;
    at += count;
  }
  // A kernel's module ends with its functions, so with OpFunctionEnd: one
  // cut between two instructions is whole words, and a driver given it may
  // crash (lavapipe did) rather than refuse it.
  constexpr uint32_t kOpFunctionEnd = 56;
  if (lastOpcode != kOpFunctionEnd)
    return failed("the module ends at word " + std::to_string(words.size()) + ", not at a function's end (cut short)");
  return layoutOf(module);
}

}  // namespace riglens::bench
