#include "riglens/render/splats/splat_renderer.h"

#include <QtGui/private/qrhi_p.h>

#include <QtCore/QDebug>
#include <QtCore/QElapsedTimer>
#include <QtGui/QMatrix4x4>
#include <array>
#include <cmath>
#include <cstring>
#include <glm/glm.hpp>
#include <optional>

#include "device/compute_buffers.h"
#include "device/gpu_layouts.h"
#include "device/shader_library.h"
#include "riglens/core/splats/splat_rasteriser.h"
#include "riglens/render/splats/gpu_sort.h"
#include "splats/splat_composite.h"
#include "splats/splat_overlay_pipeline.h"
#include "splats/splat_tile_raster.h"

namespace riglens::render {

namespace {

// The view the splats are drawn through: their coordinates to the eye's.
glm::mat4 cloudView(const FrameState& state) {
  return state.view * state.splatModel;
}

// Whether a sphere lies wholly outside one plane of the frustum of
// `viewProj` (OpenGL clip conventions; planes after Gribb and Hartmann).
bool sphereOutsideFrustum(const glm::mat4& viewProj, glm::vec3 centre, float radius) {
  const glm::mat4 m = glm::transpose(viewProj);  // rows of viewProj as columns
  const glm::vec4 planes[6] = {m[3] + m[0], m[3] - m[0], m[3] + m[1], m[3] - m[1], m[3] + m[2], m[3] - m[2]};
  for (const glm::vec4& plane : planes) {
    const float length = glm::length(glm::vec3(plane));
    if (length > 0 && (glm::dot(glm::vec3(plane), centre) + plane.w) / length < -radius) return true;
  }
  return false;
}

// The 16-bit logarithmic depth of the tile keys spans the projection's
// near..far (OpenGL-style perspective, as core::OrbitCamera makes): (near,
// 65535 / log(far / near)).
gpu::vec4 logDepthRange(const glm::mat4& projection) {
  const float a = projection[2][2], b = projection[3][2];
  float nearZ = b / (a - 1.0f), farZ = b / (a + 1.0f);
  if (!std::isfinite(nearZ) || !std::isfinite(farZ) || nearZ <= 0 || farZ <= nearZ * 1.0001f) {
    nearZ = 1e-3f;  // not a perspective projection: a wide fixed range
    farZ = 1e4f;
  }
  return {nearZ, 65535.0f / std::log(farZ / nearZ), 0, 0};
}

}  // namespace

const char* splatRasterName(SplatRaster raster) {
  switch (raster) {
    case SplatRaster::Compute: return "compute";
    case SplatRaster::Quads: return "quads";
    case SplatRaster::Auto: return "auto";
    case SplatRaster::Cpu: return "cpu";
  }
  return "unknown";
}

std::optional<SplatRaster> splatRasterNamed(std::string_view name) {
  for (SplatRaster r : {SplatRaster::Compute, SplatRaster::Quads, SplatRaster::Auto, SplatRaster::Cpu})
    if (name == splatRasterName(r)) return r;
  return std::nullopt;
}

SplatRaster defaultSplatRaster(const RhiDevice& device) {
  // QA: compute, quads, auto or cpu everywhere
  if (auto forced = splatRasterNamed(qgetenv("RIGLENS_SPLAT_RASTER").toStdString())) return *forced;
  return device.isCpuDevice() ? SplatRaster::Cpu : SplatRaster::Compute;
}

struct SplatRenderer::Impl {
  RhiDevice& device;
  QRhi* rhi;
  explicit Impl(RhiDevice& d)
      : device(d),
        rhi(d.rhi()),
        mode(defaultSplatRaster(d)),
        lastMode(mode == SplatRaster::Compute ? SplatRaster::Compute : SplatRaster::Quads) {}
  std::shared_ptr<const core::GaussianCloud> cloud;
  bool cloudPending = false, sinkPending = false;
  bool gpuPending = false;  // the GPU sink and passes are (re)built before the next GPU-drawn frame
  // The gaussians on the CPU (a cloud's, or what the owner lifted there):
  // SplatRaster::Cpu draws them without the GPU's passes.
  std::shared_ptr<const core::SplatSink> cpuSink;
  std::unique_ptr<SplatComposite> cpuComposite;
  core::SplatImage cpuImage;
  core::SplatRasterScratch cpuScratch;  // the rasteriser's arrays, kept between frames
  core::SplatRasterStats cpuStats;
  double cpuMs = 0;
  std::array<std::unique_ptr<QRhiBuffer>, 4> owned;  // the sink of a .ply cloud
  std::unique_ptr<QRhiBuffer> sh;                    // its f_dc + f_rest per splat (degree > 0), else 16 unused bytes
  std::uint32_t shDegree = 0, shStride = 0;
  SplatSinkBuffers sink, nextSink;
  std::uint32_t count = 0;
  std::unique_ptr<QRhiBuffer> ubo, projected;
  std::unique_ptr<GpuRadixSort> sort;
  SplatRaster mode;
  std::unique_ptr<SplatTileRaster> tiles;   // the compute rasteriser, made on its first frame
  std::optional<SplatTileParts> tileParts;  // setTileParts's
  std::unique_ptr<QRhiBuffer> noTiles;      // bound to the tile-depth slot on the quad path
  std::unique_ptr<QRhiShaderResourceBindings> projectSrb, projectTileSrb, drawSrb;
  std::unique_ptr<QRhiComputePipeline> project;
  std::unique_ptr<QRhiGraphicsPipeline> draw;
  QVector<quint32> rpFormat;
  int samples = 0;
  int frameSamples = 1;  // the last prepare()'s target's
  bool dirty = true;
  glm::mat4 lastView{0.0f}, lastProj{0.0f};
  QSize lastSize;
  SplatRaster lastMode;
  bool warnedExhausted = false;
  std::size_t sortedFrames = 0, culledFrames = 0;
  SplatPasses passes;
  std::optional<glm::vec4> sphere;  // owner-supplied bounds: xyz centre, w radius
  bool outside = false;             // this frame's sphere lies outside the frustum

  std::string failure;

  bool fail(const char* what) {
    qWarning("riglens::render::SplatRenderer: %s", what);
    failure = what;
    return false;
  }

  // A .ply cloud: the renderer owns the sink and uploads it once.
  bool adoptCloud(QRhiResourceUpdateBatch* batch) {
    const std::uint32_t n = std::uint32_t(cloud ? cloud->count : 0);
    owned = {};
    sink = {};
    sh.reset();
    shDegree = shStride = 0;
    if (n == 0) return true;
    if (cloud->shDegree > 0) {  // per splat: f_dc, then f_rest as stored
      const std::size_t rest = cloud->shRest.size() / n;
      std::vector<float> coefficients;
      coefficients.reserve(n * (3 + rest));
      for (std::uint32_t i = 0; i < n; ++i) {
        coefficients.insert(coefficients.end(), cloud->shDc.begin() + i * 3, cloud->shDc.begin() + i * 3 + 3);
        coefficients.insert(coefficients.end(), cloud->shRest.begin() + std::ptrdiff_t(i * rest),
                            cloud->shRest.begin() + std::ptrdiff_t((i + 1) * rest));
      }
      sh = newStorageBuffer(rhi, coefficients.size() * 4);
      if (!sh) return fail("cannot allocate the spherical harmonics buffer");
      batch->uploadStaticBuffer(sh.get(), 0, int(coefficients.size() * 4), coefficients.data());
      shDegree = std::uint32_t(cloud->shDegree);
      shStride = std::uint32_t(3 + rest);
    }
    owned[0] = newStorageBuffer(rhi, n * 16);
    owned[1] = newStorageBuffer(rhi, n * 16);
    owned[2] = newStorageBuffer(rhi, n * 16);
    owned[3] = newStorageBuffer(rhi, n * 4);
    if (!owned[0] || !owned[1] || !owned[2] || !owned[3]) return fail("cannot allocate the splat buffers");
    batch->uploadStaticBuffer(owned[0].get(), 0, int(n * 16), cpuSink->center.data());
    batch->uploadStaticBuffer(owned[1].get(), 0, int(n * 16), cpuSink->covarianceA.data());
    batch->uploadStaticBuffer(owned[2].get(), 0, int(n * 16), cpuSink->covarianceB.data());
    batch->uploadStaticBuffer(owned[3].get(), 0, int(n * 4), cpuSink->color.data());
    sink = {owned[0].get(), owned[1].get(), owned[2].get(), owned[3].get(), n};
    return true;
  }

  // The projection's bindings, writing the tile depths to `tileDepth`.
  std::unique_ptr<QRhiShaderResourceBindings> projectBindings(QRhiBuffer* tileDepth) {
    const auto cs = QRhiShaderResourceBinding::ComputeStage;
    using B = QRhiShaderResourceBinding;
    std::unique_ptr<QRhiShaderResourceBindings> srb(rhi->newShaderResourceBindings());
    srb->setBindings(
        {B::uniformBuffer(gpu::kSplatViewBinding, cs, ubo.get()), B::bufferLoad(gpu::kProjectCenters, cs, sink.center),
         B::bufferLoad(gpu::kProjectCovA, cs, sink.covarianceA), B::bufferLoad(gpu::kProjectCovB, cs, sink.covarianceB),
         B::bufferLoad(gpu::kProjectColors, cs, sink.color),
         B::bufferStore(gpu::kProjectProjected, cs, projected.get()),
         B::bufferStore(gpu::kProjectKeys, cs, sort->keys()), B::bufferStore(gpu::kProjectValues, cs, sort->values()),
         B::bufferLoad(gpu::kProjectSh, cs, sh.get()), B::bufferStore(gpu::kProjectTileDepth, cs, tileDepth)});
    return srb->create() ? std::move(srb) : nullptr;
  }

  // Whether frames count their tile keys: Compute and Auto, where the
  // device reads results back every frame (not in Qt Quick's frames: there
  // Auto draws quads and Compute keeps a fixed room).
  bool counts() const {
    return mode != SplatRaster::Quads && (mode == SplatRaster::Compute || device.readsBackEveryFrame());
  }

  // Whether the next frame draws the compute tiles: Compute does while the
  // view's keys fit the tiles' limit; Auto does once a frame counted more
  // than kAutoTileKeysPerSplat keys per splat (it draws quads until then).
  bool wantsTiles() const {
    if (!counts()) return false;
    if (!tiles) return mode == SplatRaster::Compute;
    if (tiles->exhausted()) return false;
    return mode == SplatRaster::Compute ||
           std::uint64_t(tiles->keysNeeded()) > std::uint64_t(kAutoTileKeysPerSplat) * count;
  }

  // The compute rasteriser for this output, made on first use.
  bool ensureTiles(QSize size, QRhiRenderPassDescriptor* rp, int sampleCount) {
    if (!tiles) {
      tiles = std::make_unique<SplatTileRaster>(device);
      if (!tiles->reserve(count, ubo.get(), projected.get(), sort->sortedValues()))
        return fail(tiles->failure().c_str());
      if (tileParts) tiles->setParts(*tileParts);
      projectTileSrb = projectBindings(tiles->tileDepth());
      if (!projectTileSrb) return fail("cannot create the splat tile bindings");
    }
    if (!tiles->resize(size) || !tiles->ensurePipeline(rp, sampleCount)) return fail(tiles->failure().c_str());
    return true;
  }

  // The CPU route: SplatRaster::Cpu with the gaussians on the CPU.
  bool drawsOnCpu() const { return mode == SplatRaster::Cpu && cpuSink && cpuSink->capacity() > 0; }

  // The clip space the backend draws in (Vulkan's y runs down, its depth 0..1).
  glm::mat4 clipCorrection() const {
    const QMatrix4x4 corr = rhi->clipSpaceCorrMatrix();
    glm::mat4 correction;
    std::memcpy(&correction[0][0], corr.constData(), 64);
    return correction;
  }

  // The frame's view as the GPU's SplatView block carries it.
  gpu::SplatView viewBlock(const FrameState& state, QSize size) const {
    const glm::mat4 correction = clipCorrection();
    gpu::SplatView block{};
    block.view = gpu::toGpu(cloudView(state));
    block.proj = gpu::toGpu(correction * state.projection);
    block.viewport = {float(size.width()), float(size.height()),
                      state.projection[0][0] * float(size.width()) * 0.5f,  // focal lengths in pixels
                      state.projection[1][1] * float(size.height()) * 0.5f};
    block.count = {count, correction[1][1] < 0 ? 1u : 0u, shDegree, shStride};
    block.depthKey = logDepthRange(state.projection);
    return block;
  }

  // The same view for the CPU rasteriser.
  core::SplatCamera cpuCamera(const FrameState& state, QSize size) const {
    const gpu::SplatView block = viewBlock(state, size);
    core::SplatCamera camera;
    camera.view = cloudView(state);
    std::memcpy(&camera.clip[0][0], block.proj.m, 64);
    camera.size = {block.viewport.x, block.viewport.y};
    camera.focal = {block.viewport.z, block.viewport.w};
    camera.flipY = block.count.y != 0;
    camera.nearZ = block.depthKey.x;
    camera.logScale = block.depthKey.y;
    return camera;
  }

  // Whether the owner's sphere lies outside this frame's view: then nothing
  // of it can show (no projection, no sort, no draw) and `batch` is all the
  // frame records.
  bool culled(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch, const FrameState& state) {
    outside = sphere && sphereOutsideFrustum(state.projection * cloudView(state), glm::vec3(*sphere), sphere->w);
    if (!outside) return false;
    ++culledFrames;
    cb->resourceUpdate(batch);
    return true;
  }

  // Whether the last frame's result still holds for this one (else it becomes the last).
  bool unchanged(const FrameState& state, QSize size, SplatRaster used) {
    if (!dirty && cloudView(state) == lastView && state.projection == lastProj && size == lastSize && used == lastMode)
      return true;
    dirty = false;
    lastView = cloudView(state);
    lastProj = state.projection;
    lastSize = size;
    lastMode = used;
    return false;
  }

  // A frame of the CPU route: the image drawn by core::rasteriseSplats when
  // the view or the gaussians changed, uploaded, drawn by record().
  bool prepareCpu(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch* batch, QRhiRenderPassDescriptor* rp, int sampleCount,
                  QSize size, const FrameState& state) {
    if (!cpuComposite) cpuComposite = std::make_unique<SplatComposite>(rhi);
    if (!cpuComposite->resize(size) || !cpuComposite->ensurePipeline(rp, sampleCount)) {
      batch->release();
      return fail(cpuComposite->failure().c_str());
    }
    if (culled(cb, batch, state)) return true;
    if (unchanged(state, size, SplatRaster::Cpu) || !passes.project) {
      cb->resourceUpdate(batch);
      return true;
    }
    ++sortedFrames;
    const core::SplatInputs inputs = core::splatInputs(*cpuSink, cloud.get());
    QElapsedTimer timer;
    timer.start();
    cpuStats = core::rasteriseSplats(inputs, cpuCamera(state, size), cpuImage, 0, core::kSplatBandEntries, &cpuScratch);
    cpuMs = double(timer.nsecsElapsed()) / 1e6;
    cpuComposite->upload(batch, cpuImage.pixels, cpuStats.covered);
    cpuComposite->setView(batch);
    cb->resourceUpdate(batch);
    markPass(rhi, cb, "splat upload");  // the GPU's share: the CPU drew the image
    return true;
  }

  // The GPU's buffers for the gaussians (rebuilt before their next GPU frame).
  void releaseGpu() {
    owned = {};
    sh.reset();
    shDegree = shStride = 0;
    sink = {};
    count = 0;
    draw.reset();
    sort.reset();
    tiles.reset();
    projectTileSrb.reset();
  }

  // The projection output, the sort and the bindings over `sink`.
  bool build() {
    count = sink.capacity;
    draw.reset();
    sort.reset();
    tiles.reset();
    projectTileSrb.reset();
    warnedExhausted = false;
    if (count == 0) return true;
    projected = newStorageBuffer(rhi, std::size_t(count) * 32);
    if (!sh) sh = newStorageBuffer(rhi, 16);  // bound but unread at degree 0
    noTiles = newStorageBuffer(rhi, 16);
    if (!noTiles) return fail("cannot allocate the splat projection buffers");
    ubo.reset(rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, sizeof(gpu::SplatView)));
    if (!projected || !ubo->create()) return fail("cannot allocate the splat projection buffers");
    auto sorter = GpuRadixSort::create(device, count, 16);  // the projection's 16-bit depth keys
    if (!sorter) return fail(sorter.error().message.c_str());
    sort = std::move(sorter).value();
    sort->setPassName("depth sort");
    projectSrb = projectBindings(noTiles.get());
    auto shader = loadShader("splat_project.comp");
    if (!shader) return fail(shader.error().message.c_str());
    if (projectSrb) project = newComputePipeline(rhi, *shader, projectSrb.get());
    if (!project) return fail("cannot create the projection pipeline");
    const auto vs = QRhiShaderResourceBinding::VertexStage;
    drawSrb.reset(rhi->newShaderResourceBindings());
    drawSrb->setBindings({QRhiShaderResourceBinding::uniformBuffer(gpu::kSplatViewBinding, vs, ubo.get()),
                          QRhiShaderResourceBinding::bufferLoad(gpu::kDrawProjected, vs, projected.get()),
                          QRhiShaderResourceBinding::bufferLoad(gpu::kDrawOrder, vs, sort->sortedValues())});
    if (!drawSrb->create()) return fail("cannot create the splat bindings");
    return true;
  }

  bool ensurePipeline(QRhiRenderPassDescriptor* rp, int sampleCount) {
    if (draw && rp->serializedFormat() == rpFormat && sampleCount == samples) return true;
    // Back to front; splats never write depth, their order comes from the sort.
    draw = newSplatOverlayPipeline(rhi, "splat.vert", "splat.frag", drawSrb.get(), rp, sampleCount);
    if (!draw) return fail("cannot create the splat pipeline");
    rpFormat = rp->serializedFormat();
    samples = sampleCount;
    return true;
  }

  // A new cloud or sink since the last frame: the GPU side built from it
  // (false: it failed, released, and says why).
  bool buildPendingGpu(QRhiResourceUpdateBatch* batch) {
    if (!gpuPending) return true;
    gpuPending = false;
    dirty = true;
    bool ok = true;
    if (cloud)
      ok = adoptCloud(batch);
    else
      sink = nextSink;  // a character's sink carries its colour packed
    if (ok && build()) return true;
    releaseGpu();
    return false;
  }

  // The tiles (grown when the last frame needed more keys) and the quad
  // pipeline this frame draws with (false: they failed and say why).
  bool ensurePasses(bool tiled, bool compute, QSize size, QRhiRenderPassDescriptor* rp, int sampleCount) {
    if (compute && tiles && tiles->keysNeeded() > tiles->capacity()) {
      dirty = true;  // the last frame dropped keys (or drew quads): draw it again with more room
      if (!tiles->growIfNeeded()) return fail(tiles->failure().c_str());
    }
    return (!tiled || ensureTiles(size, rp, sampleCount)) && (compute || ensurePipeline(rp, sampleCount));
  }
};

SplatRenderer::SplatRenderer(RhiDevice& device) : m_impl(std::make_unique<Impl>(device)) {}
SplatRenderer::~SplatRenderer() = default;

void SplatRenderer::setCloud(std::shared_ptr<const core::GaussianCloud> cloud) {
  m_impl->cloud = std::move(cloud);
  m_impl->cloudPending = true;
  m_impl->sinkPending = false;
}

void SplatRenderer::setSink(const SplatSinkBuffers& sink) {
  m_impl->cloud.reset();
  m_impl->cpuSink.reset();
  m_impl->cloudPending = false;
  m_impl->nextSink = sink;
  m_impl->sinkPending = true;
}

bool SplatRenderer::prepare(QRhiCommandBuffer* cb, QRhiRenderPassDescriptor* rp, int sampleCount, QSize size,
                            const FrameState& state) {
  Impl& d = *m_impl;
  d.frameSamples = sampleCount;
  QRhiResourceUpdateBatch* batch = d.rhi->nextResourceUpdateBatch();
  if (d.cloudPending || d.sinkPending) {
    d.failure.clear();
    if (d.cloudPending) d.cpuSink = d.cloud ? std::make_shared<core::SplatSink>(core::sinkOfCloud(*d.cloud)) : nullptr;
    d.cloudPending = d.sinkPending = false;
    d.releaseGpu();
    d.gpuPending = true;
    d.dirty = true;
  }
  if (d.drawsOnCpu()) return d.prepareCpu(cb, batch, rp, sampleCount, size, state);
  if (!d.buildPendingGpu(batch)) {
    batch->release();
    return false;
  }
  if (d.count == 0) {
    cb->resourceUpdate(batch);
    return true;
  }
  // The compute tiles (SplatRaster, wantsTiles). A frame that draws quads in
  // Compute or Auto mode still counts its tile keys, so the tiles take over
  // when the view calls for them (Auto) or fits them again (a view that
  // needed more keys than the tiles can ever hold).
  const bool tiled = d.counts();
  const bool compute = d.wantsTiles();
  if (tiled && d.tiles && d.tiles->exhausted() && !d.warnedExhausted) {
    qWarning(
        "riglens::render::SplatRenderer: %u tile keys exceed the compute rasteriser's %u: drawing quads "
        "while the view needs that many",
        d.tiles->keysNeeded(), SplatTileRaster::kMaxKeys);
    d.warnedExhausted = true;
  }
  if (!d.ensurePasses(tiled, compute, size, rp, sampleCount)) {
    batch->release();
    return false;
  }
  if (d.culled(cb, batch, state)) return true;
  const SplatRaster used = compute ? SplatRaster::Compute : SplatRaster::Quads;
  if (d.unchanged(state, size, used)) {
    cb->resourceUpdate(batch);  // the last projection and order still hold
    return true;
  }
  ++d.sortedFrames;
  gpu::SplatView block = d.viewBlock(state, size);
  if (tiled) {
    block.tiles = d.tiles->tiles();
    block.parts = d.tiles->parts();
    if (compute) block.tiles.z = gpu::kTilesDrawn;  // the projection's keys front to back
    d.tiles->resetFrame(batch);
  }
  batch->updateDynamicBuffer(d.ubo.get(), 0, sizeof(block), &block);
  if (!d.passes.project) {
    cb->resourceUpdate(batch);
    return true;
  }
  dispatchComputePass(cb, batch, d.project.get(), tiled ? d.projectTileSrb.get() : d.projectSrb.get(),
                      gpu::groupsFor(d.count, gpu::kProjectGroupSize));
  markPass(d.rhi, cb, "project");
  // The depth order first: the tiles emit their keys in it (and count them
  // over it when the quads draw).
  if (d.passes.sort) d.sort->encode(cb, d.count);
  if (compute) {
    d.tiles->encode(cb, d.passes.sort, d.passes.sort && d.passes.raster);
    return true;
  }
  if (tiled) d.tiles->encodeCount(cb);  // quads this frame: the tiles only count
  return true;
}

void SplatRenderer::record(QRhiCommandBuffer* cb, QRect rect, QSize target) {
  Impl& d = *m_impl;
  const bool cpu = d.drawsOnCpu();
  const bool compute = d.lastMode == SplatRaster::Compute;
  if (!d.passes.raster || d.outside) return;
  if (cpu ? !d.cpuComposite || d.lastMode != SplatRaster::Cpu : d.count == 0 || (compute ? !d.tiles : !d.draw)) return;
  const int bottom = target.height() - (rect.y() + rect.height());
  const QRhiViewport viewport(float(rect.x()), float(bottom), float(rect.width()), float(rect.height()));
  const QRhiScissor scissor(rect.x(), bottom, rect.width(), rect.height());
  if (cpu) {
    d.cpuComposite->record(cb, viewport, scissor);
    return;
  }
  if (compute) {
    d.tiles->record(cb, viewport, scissor);
    return;
  }
  cb->setGraphicsPipeline(d.draw.get());
  cb->setViewport(viewport);
  cb->setScissor(scissor);
  cb->setShaderResources(d.drawSrb.get());
  cb->draw(6, d.count);
}

bool SplatRenderer::writesTarget() const {
  const Impl& d = *m_impl;
  if (!d.passes.raster || d.outside) return false;  // record() draws nothing: the pass's clear is the frame
  // The CPU's image covers only the rect its splats are in, which a pass
  // composites alone, while the write covers every pixel: on lavapipe (the
  // CPU route's device) the sample character took 10.8-11.1 ms a frame with
  // a 1x pass and 12.8-13.2 written; with a 4x pass 16.5-17.4, written
  // 11.4-12.1. So the CPU route writes only where the pass is multisampled.
  if (d.drawsOnCpu()) return d.cpuComposite && d.lastMode == SplatRaster::Cpu && d.frameSamples > 1;
  return d.count > 0 && d.lastMode == SplatRaster::Compute && d.tiles;  // not the quads: they blend in a pass
}

bool SplatRenderer::writeTarget(QRhiCommandBuffer* cb, QRhiTexture* target, const glm::vec4& background) {
  Impl& d = *m_impl;
  if (!writesTarget()) return false;
  if (d.drawsOnCpu())
    return d.cpuComposite->writeTarget(cb, target, background) || d.fail(d.cpuComposite->failure().c_str());
  return d.tiles->writeTarget(cb, target, background) || d.fail(d.tiles->failure().c_str());
}

BufferList SplatRenderer::buffers() const {
  const Impl& d = *m_impl;
  BufferList list;
  if (d.cpuComposite) list.push_back(bufferBytes("splat image (drawn on the CPU)", d.cpuComposite->image()));
  if (d.count == 0) return list;
  if (d.owned[0])
    list = {bufferBytes("splat centres", d.owned[0].get()), bufferBytes("splat covariance A", d.owned[1].get()),
            bufferBytes("splat covariance B", d.owned[2].get()), bufferBytes("splat colours", d.owned[3].get())};
  if (d.shDegree > 0) list.push_back(bufferBytes("splat spherical harmonics", d.sh.get()));
  list.push_back(bufferBytes("splat view", d.ubo.get()));
  list.push_back(bufferBytes("splat projection", d.projected.get()));
  if (d.sort)
    for (auto& b : d.sort->buffers()) list.push_back(std::move(b));
  if (d.tiles)
    for (auto& b : d.tiles->buffers()) list.push_back(std::move(b));
  return list;
}

std::string SplatRenderer::failure() const {
  return m_impl->failure;
}

std::size_t SplatRenderer::gpuBytes() const {
  return totalBytes(buffers());
}
void SplatRenderer::setCpuSink(std::shared_ptr<const core::SplatSink> sink) {
  m_impl->cpuSink = std::move(sink);
  m_impl->dirty = true;
}
double SplatRenderer::cpuRasterMs() const {
  return m_impl->drawsOnCpu() ? m_impl->cpuMs : 0.0;
}
void SplatRenderer::markGaussiansChanged() {
  m_impl->dirty = true;
}
std::size_t SplatRenderer::sortedFrames() const {
  return m_impl->sortedFrames;
}
void SplatRenderer::setPasses(SplatPasses passes) {
  m_impl->passes = passes;
}
void SplatRenderer::setRaster(SplatRaster raster) {
  m_impl->mode = raster;
}
void SplatRenderer::setTileParts(SplatTileParts parts) {
  m_impl->tileParts = parts;
  if (m_impl->tiles) m_impl->tiles->setParts(parts);
  m_impl->dirty = true;
}
SplatRaster SplatRenderer::raster() const {
  return m_impl->mode;
}
SplatRaster SplatRenderer::rasterUsed() const {
  return m_impl->lastMode;
}
std::size_t SplatRenderer::count() const {
  return m_impl->drawsOnCpu() ? m_impl->cpuSink->capacity() : m_impl->count;
}
std::uint32_t SplatRenderer::tileKeys() const {
  if (m_impl->drawsOnCpu()) return std::uint32_t(m_impl->cpuStats.tileEntries);
  return m_impl->tiles ? m_impl->tiles->keysNeeded() : 0;
}
std::uint32_t SplatRenderer::longestTileKeys() const {
  return m_impl->drawsOnCpu() ? std::uint32_t(m_impl->cpuStats.longestTile) : 0u;
}
std::uint32_t SplatRenderer::tilesHoldingKeys() const {
  if (m_impl->drawsOnCpu()) return std::uint32_t(m_impl->cpuStats.heldTiles);
  return m_impl->tiles ? m_impl->tiles->tilesHeld() : 0;
}
bool SplatRenderer::wantsAnotherFrame() const {
  const Impl& d = *m_impl;
  if (d.drawsOnCpu() || !d.tiles || !d.counts() || !d.device.readsBackEveryFrame()) return false;
  const bool nextCompute = d.wantsTiles();
  // The key count is on its way back, the tiles must grow, or Auto changes its mind.
  return d.tiles->keysPending() || (nextCompute && d.tiles->keysNeeded() > d.tiles->capacity()) ||
         nextCompute != (d.lastMode == SplatRaster::Compute);
}
std::size_t SplatRenderer::culledFrames() const {
  return m_impl->culledFrames;
}

void SplatRenderer::setBoundingSphere(glm::vec3 centre, float radius) {
  if (std::isfinite(radius) && radius > 0 && std::isfinite(centre.x + centre.y + centre.z))
    m_impl->sphere = glm::vec4(centre, radius);
  else
    m_impl->sphere.reset();
}

}  // namespace riglens::render
