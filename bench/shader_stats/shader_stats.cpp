// bench_shader_stats: what the Vulkan driver made of each compute shader -
// registers, shared memory, spills, as the driver itself reports them through
// VK_KHR_pipeline_executable_properties - so what limits a pass's occupancy
// is read, not guessed (issue 33). RigLens's shaders live in .qsb files;
// `qsb -x spirv,100 -o X.spv X.comp.qsb` gives the SPIR-V QRhi hands the
// driver (tools/pack-bench-render.sh packs them all under spirv/).
//
//   bench_shader_stats FILE.spv...
//
// Prints the device (name, driver, SM count and warps per SM where
// VK_NV_shader_sm_builtins says them) and, per file, its workgroup size and
// every statistic of every executable of its pipeline. A driver without the
// extension (lavapipe) still builds each pipeline and says that it reports
// nothing.
//
//   bench_shader_stats --layout FILE.spv...
//
// Prints, without a device, the layout read from each file (workgroup size,
// then binding:kind in binding order), which CTest compares with what Qt's
// qsb reflects for the same shader.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "vulkan_context.h"

namespace {

using riglens::bench::VulkanContext;

bool readWords(const char* path, std::vector<uint32_t>& words) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) return false;
  auto size = static_cast<size_t>(file.tellg());
  if (size % 4 != 0) return false;
  words.resize(size / 4);
  file.seekg(0);
  return static_cast<bool>(file.read(reinterpret_cast<char*>(words.data()), static_cast<std::streamsize>(size)));
}

void printStatistic(const VkPipelineExecutableStatisticKHR& s) {
  std::printf("    %s: ", s.name);
  switch (s.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: std::printf("%s\n", s.value.b32 ? "true" : "false"); break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
      std::printf("%lld\n", static_cast<long long>(s.value.i64));
      break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
      std::printf("%llu\n", static_cast<unsigned long long>(s.value.u64));
      break;
    default: std::printf("%g\n", s.value.f64); break;
  }
}

void printStatistics(const VulkanContext& vk, VkPipeline pipeline) {
  auto info = riglens::bench::vkStruct<VkPipelineInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR);
  info.pipeline = pipeline;
  uint32_t count = 0;
  vk.getExecutableProperties(vk.device, &info, &count, nullptr);
  std::vector<VkPipelineExecutablePropertiesKHR> executables(
      count, riglens::bench::vkStruct<VkPipelineExecutablePropertiesKHR>(
                 VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR));
  vk.getExecutableProperties(vk.device, &info, &count, executables.data());
  for (uint32_t e = 0; e < count; ++e) {
    std::printf("  executable %u: %s (subgroup size %u)\n", e, executables[e].name, executables[e].subgroupSize);
    auto which = riglens::bench::vkStruct<VkPipelineExecutableInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR);
    which.pipeline = pipeline;
    which.executableIndex = e;
    uint32_t n = 0;
    vk.getExecutableStatistics(vk.device, &which, &n, nullptr);
    std::vector<VkPipelineExecutableStatisticKHR> statistics(n,
                                                             riglens::bench::vkStruct<VkPipelineExecutableStatisticKHR>(
                                                                 VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR));
    vk.getExecutableStatistics(vk.device, &which, &n, statistics.data());
    for (const auto& s : statistics) printStatistic(s);
  }
}

const char* kindName(VkDescriptorType type) {
  switch (type) {
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: return "storage-buffer";
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return "uniform-buffer";
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: return "storage-image";
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE: return "sampled-image";
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: return "combined-image-sampler";
    case VK_DESCRIPTOR_TYPE_SAMPLER: return "sampler";
    default: return "texel-buffer";
  }
}

// The file's words and layout; false (said on stderr) when either cannot be read.
bool readShader(const char* path, std::vector<uint32_t>& words, riglens::bench::SpirvLayout& layout) {
  if (!readWords(path, words)) {
    std::fprintf(stderr, "%s: cannot be read as SPIR-V words\n", path);
    return false;
  }
  layout = riglens::bench::readSpirvLayout(words);
  if (!layout.error.empty()) {
    std::fprintf(stderr, "%s: %s\n", path, layout.error.c_str());
    return false;
  }
  return true;
}

bool printLayout(const char* path) {
  std::vector<uint32_t> words;
  riglens::bench::SpirvLayout layout;
  if (!readShader(path, words, layout)) return false;
  std::printf("%ux%ux%u", layout.localSize[0], layout.localSize[1], layout.localSize[2]);
  for (const auto& b : layout.bindings) std::printf(" %u:%s", b.binding, kindName(b.type));
  std::printf("\n");
  return true;
}

// Builds one file's pipeline and prints its statistics; false on any failure (said).
bool reportShader(const VulkanContext& vk, const char* path) {
  std::vector<uint32_t> words;
  riglens::bench::SpirvLayout layout;
  if (!readShader(path, words, layout)) return false;
  std::printf("%s: workgroup %ux%ux%u, %zu bindings\n", path, layout.localSize[0], layout.localSize[1],
              layout.localSize[2], layout.bindings.size());
  auto built = vk.build(words, layout);
  bool ok = built.pipeline != VK_NULL_HANDLE;
  if (!ok)
    std::fprintf(stderr, "%s: the driver did not build a pipeline of it\n", path);
  else if (vk.getExecutableProperties)
    printStatistics(vk, built.pipeline);
  vk.destroy(built);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s [--layout] FILE.spv...\n", argv[0]);
    return 2;
  }
  if (std::string(argv[1]) == "--layout") {
    bool ok = true;
    for (int i = 2; i < argc; ++i) ok = printLayout(argv[i]) && ok;
    return ok ? 0 : 1;
  }
  VulkanContext vk;
  std::string error = vk.create();
  if (!error.empty()) {
    std::fprintf(stderr, "bench_shader_stats: %s\n", error.c_str());
    return 1;
  }
  std::printf("%s\n", vk.description.c_str());
  if (!vk.getExecutableProperties)
    std::printf("(this driver has no VK_KHR_pipeline_executable_properties: pipelines built, nothing reported)\n");
  bool ok = true;
  for (int i = 1; i < argc; ++i) ok = reportShader(vk, argv[i]) && ok;
  return ok ? 0 : 1;
}
