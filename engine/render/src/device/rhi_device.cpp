#include "riglens/render/device/rhi_device.h"

#include <QtGui/private/qrhi_p.h>
#include <QtGui/private/qrhigles2_p.h>
#include <QtGui/private/qrhivulkan_p.h>

#include <QtGui/QOffscreenSurface>
#include <QtGui/QVulkanInstance>
#include <algorithm>
#include <list>

#include "device/compute_buffers.h"
#include "device/device_properties.h"
#include "riglens/render/device/pipeline_cache.h"

namespace riglens::render {

using core::ErrorCode;
using core::makeError;

// Destruction order matters: the QRhi must go before the QVulkanInstance or
// the surface it was created with (notes/qt64-qrhi.md: ~QRhi segfaults
// otherwise), so those are declared first and destroyed last.
struct RhiDevice::Owned {
  std::unique_ptr<QVulkanInstance> vulkan;
  std::unique_ptr<QOffscreenSurface> surface;
  std::unique_ptr<QRhi> rhi;
  QByteArray loadedPipelines;  // what the pipeline cache file held (pipeline_cache.h)
  QByteArray keptPipelines;    // the cache's data before releaseUploadCopies() last trimmed it
};

const char* backendName(Backend backend) {
  switch (backend) {
    case Backend::Vulkan: return "vulkan";
    case Backend::OpenGL: return "opengl";
  }
  return "unknown";
}

struct RhiDevice::Readbacks {
  struct Entry {
    QRhiBufferReadbackResult result;
    bool done = false;
  };
  std::list<std::unique_ptr<Entry>> entries;
  bool pending() const {
    return std::any_of(entries.begin(), entries.end(), [](const auto& e) { return !e->done; });
  }
};

RhiDevice::RhiDevice(std::unique_ptr<Owned> owned, QRhi* rhi, QVulkanInstance* vulkan)
    : m_readbacks(std::make_unique<Readbacks>()),
      m_owned(std::move(owned)),
      m_rhi(rhi),
      m_vulkan(vulkan),
      m_timer(std::make_unique<GpuTimer>(rhi)) {}

RhiDevice::~RhiDevice() {
  // A borrowed QRhi (Qt Quick's) outlives this device: let it fill what it
  // still owes before the results go.
  m_timer.reset();
  if (m_readbacks->pending()) m_rhi->finish();
  // Our own device keeps its pipelines for the next run, when it made any
  // the cache did not already hold.
  if (m_owned) {
    QByteArray data = m_rhi->pipelineCacheData();
    if (data.size() < m_owned->keptPipelines.size()) data = m_owned->keptPipelines;
    if (!data.isEmpty() && data != m_owned->loadedPipelines) writePipelineCache(pipelineCacheFile("cli"), data);
  }
}

void RhiDevice::releaseUploadCopies() {
  if (!m_owned) return;  // Qt Quick's QRhi: its window decides
  if (const QByteArray data = m_rhi->pipelineCacheData(); data.size() > m_owned->keptPipelines.size())
    m_owned->keptPipelines = data;
  m_rhi->releaseCachedResources();
}

QRhiBufferReadbackResult* RhiDevice::keepReadback(std::function<void(const QByteArray&)> done) {
  auto& entries = m_readbacks->entries;
  entries.remove_if([](const auto& e) { return e->done; });
  auto entry = std::make_unique<Readbacks::Entry>();
  Readbacks::Entry* raw = entry.get();
  raw->result.completed = [raw, done = std::move(done)] {
    done(raw->result.data);
    raw->done = true;
  };
  entries.push_back(std::move(entry));
  return &raw->result;
}

core::Expected<std::unique_ptr<RhiDevice>> RhiDevice::createOffscreen(Backend backend) {
  auto owned = std::make_unique<Owned>();
  if (backend == Backend::Vulkan) {
    owned->vulkan = std::make_unique<QVulkanInstance>();
    prepareVulkanInstance(*owned->vulkan);
    if (!owned->vulkan->create()) {
      return makeError(ErrorCode::Gpu, "Vulkan: cannot create an instance (error " +
                                           std::to_string(owned->vulkan->errorCode()) +
                                           "); is a Vulkan driver installed (mesa-vulkan-drivers) and is "
                                           "QT_QPA_PLATFORM a platform with Vulkan (vkkhrdisplay or xcb)?");
    }
    QRhiVulkanInitParams params;
    params.inst = owned->vulkan.get();
    owned->rhi.reset(QRhi::create(QRhi::Vulkan, &params, QRhi::EnablePipelineCacheDataSave));
  } else {
    owned->surface.reset(QRhiGles2InitParams::newFallbackSurface());
    QRhiGles2InitParams params;
    params.fallbackSurface = owned->surface.get();
    owned->rhi.reset(QRhi::create(QRhi::OpenGLES2, &params, QRhi::EnablePipelineCacheDataSave));
  }
  if (!owned->rhi) {
    return makeError(ErrorCode::Gpu, std::string(backendName(backend)) +
                                         ": QRhi could not be created on this machine (no usable device; "
                                         "OpenGL needs a display, e.g. under xvfb-run)");
  }
  QRhi* rhi = owned->rhi.get();
  // The last run's pipelines; Qt ignores data another device or driver wrote.
  owned->loadedPipelines = readPipelineCache(pipelineCacheFile("cli"));
  if (!owned->loadedPipelines.isEmpty()) rhi->setPipelineCacheData(owned->loadedPipelines);
  QVulkanInstance* vulkan = owned->vulkan.get();
  return std::unique_ptr<RhiDevice>(new RhiDevice(std::move(owned), rhi, vulkan));
}

std::unique_ptr<RhiDevice> RhiDevice::borrow(QRhi* rhi, QVulkanInstance* vulkan) {
  return std::unique_ptr<RhiDevice>(new RhiDevice(nullptr, rhi, vulkan));
}

Backend RhiDevice::backend() const {
  return m_rhi->backend() == QRhi::Vulkan ? Backend::Vulkan : Backend::OpenGL;
}

bool RhiDevice::supportsCompute() const {
  return m_rhi->isFeatureSupported(QRhi::Compute);
}

bool RhiDevice::isCpuDevice() const {
  const QRhiDriverInfo info = m_rhi->driverInfo();
  if (info.deviceType == QRhiDriverInfo::CpuDevice) return true;
  // QRhi 6.4's OpenGL backend reports no device type: Mesa's and Google's
  // software rasterisers are known by the GL_RENDERER in its device name
  // ("Mesa/X.org llvmpipe (LLVM 15.0.6, 256 bits) 4.5 ..."), so Qt Quick's
  // default backend on a machine without a GPU takes the CPU routes too.
  if (m_rhi->backend() != QRhi::OpenGLES2) return false;
  const QByteArray name = info.deviceName.toLower();
  return name.contains("llvmpipe") || name.contains("softpipe") || name.contains("swiftshader") ||
         name.contains("software rasterizer");
}

int RhiDevice::subgroupLanes() const {
  return render::subgroupLanes(m_rhi, m_vulkan);
}

int RhiDevice::multiprocessors() const {
  return render::multiprocessorCount(m_rhi, m_vulkan);
}

std::string RhiDevice::deviceName() const {
  return m_rhi->driverInfo().deviceName.toStdString();
}

core::Expected<void> RhiDevice::runOffscreen(const std::function<void(QRhiCommandBuffer*)>& record) {
  return runOffscreenComputeFrame(m_rhi, "offscreen", record);
}

}  // namespace riglens::render
