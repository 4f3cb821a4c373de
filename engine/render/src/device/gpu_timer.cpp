#include "riglens/render/device/gpu_timer.h"

// Before any Qt header: Qt's Vulkan headers define VK_NO_PROTOTYPES, and the
// timer calls the loader (linked, Vulkan::Vulkan) for the physical device's
// properties and the device's entry points.
// clang-format off
#include <vulkan/vulkan.h>
#include <QtGui/private/qrhi_p.h>
#include <QtGui/private/qrhivulkan_p.h>
// clang-format on

#include <array>
#include <map>
#include <mutex>
#include <numeric>

namespace riglens::render {

namespace {
constexpr std::uint32_t kMaxStamps = 64;
constexpr int kSlots = 3;  // QRhi keeps at most this many frames in flight

// Devices live on different threads (the app's render thread, a CLI's main thread).
std::mutex& registryMutex() {
  static std::mutex m;
  return m;
}
std::map<QRhi*, GpuTimer*>& registry() {
  static std::map<QRhi*, GpuTimer*> r;
  return r;
}
// The timer whose frame this thread is recording: a dispatch helper holds a
// command buffer only, and a device records on one thread at a time (the
// app's render thread, a CLI's main thread).
thread_local GpuTimer* t_recordingTimer = nullptr;
}  // namespace

double FrameTimes::totalMs() const {
  return std::accumulate(passes.begin(), passes.end(), 0.0, [](double s, const PassTime& p) { return s + p.ms; });
}

double FrameTimes::ms(std::string_view pass) const {
  double sum = 0;
  for (const PassTime& p : passes)
    if (p.pass == pass) sum += p.ms;
  return sum;
}

struct GpuTimer::Impl {
  QRhi* rhi = nullptr;
  VkDevice device = VK_NULL_HANDLE;
  PFN_vkCmdWriteTimestamp writeTimestamp = nullptr;
  PFN_vkCmdResetQueryPool resetPool = nullptr;
  PFN_vkGetQueryPoolResults getResults = nullptr;
  PFN_vkCreateQueryPool createPool = nullptr;
  PFN_vkDestroyQueryPool destroyPool = nullptr;
  double nsPerTick = 1;
  std::uint64_t validMask = ~0ull;
  std::string why;
  bool ok = false;
  struct Slot {
    VkQueryPool pool = VK_NULL_HANDLE;
    std::vector<std::string> names;  // names[0] is the frame's start
    std::uint64_t frame = 0;
    bool pending = false;   // stamped, not yet read
    bool finished = false;  // the GPU has run the frame (QRhi waited for it)
  };
  std::array<Slot, std::size_t(kSlots)> frameSlots;
  Slot* recording = nullptr;  // the slot of the frame being recorded
  std::uint64_t frames = 0;
  FrameTimes newest;
  GpuWork work;

  bool init() {
    if (qEnvironmentVariable("RIGLENS_GPU_TIMES") == QLatin1String("off")) {
      why = "GPU pass times are off (RIGLENS_GPU_TIMES=off)";
      return false;
    }
    if (rhi->backend() != QRhi::Vulkan) {
      why = "GPU pass times need the Vulkan backend (QRhi 6.4 has no timer queries)";
      return false;
    }
    const auto* handles = static_cast<const QRhiVulkanNativeHandles*>(rhi->nativeHandles());
    if (!handles || !handles->dev || !handles->physDev) {
      why = "the Vulkan device handles are not available";
      return false;
    }
    device = handles->dev;
    VkPhysicalDeviceProperties props{};
    vkGetPhysicalDeviceProperties(handles->physDev, &props);
    std::uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(handles->physDev, &families, nullptr);
    std::vector<VkQueueFamilyProperties> family(families);
    vkGetPhysicalDeviceQueueFamilyProperties(handles->physDev, &families, family.data());
    const auto index = std::size_t(std::max(handles->gfxQueueFamilyIdx, 0));
    const std::uint32_t bits = index < family.size() ? family[index].timestampValidBits : 0;
    if (bits == 0 || props.limits.timestampPeriod <= 0) {
      why = "this Vulkan device's queue has no timestamps";
      return false;
    }
    nsPerTick = double(props.limits.timestampPeriod);
    validMask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
    const auto proc = [this](const char* name) { return vkGetDeviceProcAddr(device, name); };
    writeTimestamp = reinterpret_cast<PFN_vkCmdWriteTimestamp>(proc("vkCmdWriteTimestamp"));
    resetPool = reinterpret_cast<PFN_vkCmdResetQueryPool>(proc("vkCmdResetQueryPool"));
    getResults = reinterpret_cast<PFN_vkGetQueryPoolResults>(proc("vkGetQueryPoolResults"));
    createPool = reinterpret_cast<PFN_vkCreateQueryPool>(proc("vkCreateQueryPool"));
    destroyPool = reinterpret_cast<PFN_vkDestroyQueryPool>(proc("vkDestroyQueryPool"));
    if (!writeTimestamp || !resetPool || !getResults || !createPool || !destroyPool) {
      why = "the Vulkan driver lacks the timestamp query functions";
      return false;
    }
    VkQueryPoolCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = kMaxStamps;
    for (Slot& slot : frameSlots) {
      if (createPool(device, &info, nullptr, &slot.pool) != VK_SUCCESS) {
        why = "cannot create a Vulkan timestamp query pool";
        return false;
      }
    }
    return true;
  }

  // Records one timestamp on the primary command buffer (outside any pass).
  void stamp(QRhiCommandBuffer* cb, std::uint32_t query, bool reset) {
    cb->beginExternal();
    const auto* native = static_cast<const QRhiVulkanCommandBufferNativeHandles*>(cb->nativeHandles());
    if (native && native->commandBuffer) {
      if (reset) resetPool(native->commandBuffer, recording->pool, 0, kMaxStamps);
      writeTimestamp(native->commandBuffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, recording->pool, query);
    }
    cb->endExternal();
  }

  void poll() {
    for (Slot& slot : frameSlots) {
      // Only a frame the GPU has certainly finished: until its reset has run,
      // a pool still holds an older frame's stamps, which would be read as
      // this frame's (a frame seemingly ending at the pass recorded so far).
      if (!slot.pending || !slot.finished || slot.names.size() < 2) continue;
      std::vector<std::uint64_t> ticks(slot.names.size());
      const VkResult r = getResults(device, slot.pool, 0, std::uint32_t(ticks.size()), ticks.size() * 8, ticks.data(),
                                    8, VK_QUERY_RESULT_64_BIT);
      if (r == VK_NOT_READY) continue;
      slot.pending = false;
      if (r != VK_SUCCESS || slot.frame < newest.frame) continue;
      FrameTimes times;
      times.available = true;
      times.frame = slot.frame;
      for (std::size_t i = 1; i < ticks.size(); ++i) {
        const std::uint64_t delta = ((ticks[i] & validMask) - (ticks[i - 1] & validMask)) & validMask;
        times.passes.push_back({slot.names[i], double(delta) * nsPerTick * 1e-6});
      }
      newest = std::move(times);
    }
  }
};

GpuTimer::GpuTimer(QRhi* rhi) : m_impl(std::make_unique<Impl>()) {
  m_impl->rhi = rhi;
  m_impl->ok = m_impl->init();
  if (!m_impl->ok) m_impl->newest.why = m_impl->why;
  const std::lock_guard lock(registryMutex());
  registry()[rhi] = this;
}

GpuTimer::~GpuTimer() {
  if (t_recordingTimer == this) t_recordingTimer = nullptr;
  {
    const std::lock_guard lock(registryMutex());
    if (auto it = registry().find(m_impl->rhi); it != registry().end() && it->second == this) registry().erase(it);
  }
  Impl& d = *m_impl;
  for (auto& slot : d.frameSlots)
    if (slot.pool) d.destroyPool(d.device, slot.pool, nullptr);  // a pool exists only where destroyPool was found
}

GpuTimer* GpuTimer::of(QRhi* rhi) {
  const std::lock_guard lock(registryMutex());
  const auto it = registry().find(rhi);
  return it == registry().end() ? nullptr : it->second;
}

bool GpuTimer::available() const {
  return m_impl->ok;
}

void GpuTimer::beginFrame(QRhiCommandBuffer* cb) {
  Impl& d = *m_impl;
  ++d.work.submissions;
  t_recordingTimer = this;
  if (!available()) return;
  Impl::Slot& slot = d.frameSlots[std::size_t(d.rhi->currentFrameSlot() % kSlots)];
  slot.finished = true;  // QRhi has waited for this slot's previous frame
  d.poll();
  slot.names = {"start"};
  slot.frame = ++d.frames;
  slot.pending = true;
  slot.finished = false;
  d.recording = &slot;
  d.stamp(cb, 0, true);
}

void GpuTimer::mark(QRhiCommandBuffer* cb, std::string_view pass) {
  Impl& d = *m_impl;
  if (!d.recording || d.recording->names.size() >= kMaxStamps) return;
  d.recording->names.emplace_back(pass);
  d.stamp(cb, std::uint32_t(d.recording->names.size() - 1), false);
}

void GpuTimer::endFrame(FrameEnd end) {
  Impl& d = *m_impl;
  if (d.recording && end == FrameEnd::Waited) d.recording->finished = true;
  d.recording = nullptr;
  if (t_recordingTimer == this) t_recordingTimer = nullptr;
}

void GpuTimer::countDispatch() {
  if (t_recordingTimer) ++t_recordingTimer->m_impl->work.dispatches;
}

GpuWork GpuTimer::work() const {
  return m_impl->work;
}

FrameTimes GpuTimer::latest() {
  m_impl->poll();
  return m_impl->newest;
}

}  // namespace riglens::render
