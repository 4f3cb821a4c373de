#include "riglens/render/character/gpu_decoded_lift.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include "character/sink_readback.h"
#include "device/compute_buffers.h"
#include "device/gpu_layouts.h"
#include "device/pending_uploads.h"
#include "device/shader_library.h"

namespace riglens::render {

using core::ErrorCode;
using core::makeError;

namespace {

gpu::DecodedLiftParams paramsFor(const core::BranchLiftSpec& b, std::size_t rigVertices, glm::vec3 root, bool hidden,
                                 const core::OpacityMask* mask) {
  const bool useTransform = b.rigged;             // a rigged branch lifts the calibrated rig output
  const bool skinned = useTransform && !b.shell;  // reads the rig's posed buffer (a shell has its own vertices)
  gpu::DecodedLiftParams p{};
  const auto res = gpu::uint(b.mesh->uvRes);
  p.dims = {res, res, res * res, res};
  p.counts = {gpu::uint(skinned ? rigVertices : b.mesh->vertexCount), gpu::uint(b.mesh->faceCount),
              useTransform ? 1u : 0u, useTransform && !b.transform.corr.empty() ? 1u : 0u};
  p.scaleA = {b.scale.scaleLogBias, b.scale.scaleLogMax, b.scale.triKappa, b.scale.sliverQMin};
  p.scaleB = {b.scale.bounded ? 1.0f : 0.0f, b.scale.logSigmaMax, b.scale.scaleOffset, 0.0f};
  const auto& L = b.transform.L;
  p.rowL0 = {L[0], L[1], L[2], 0.0f};
  p.rowL1 = {L[3], L[4], L[5], 0.0f};
  p.rowL2 = {L[6], L[7], L[8], 0.0f};
  p.offsetO = {b.transform.o.x, b.transform.o.y, b.transform.o.z, 0.0f};
  p.slotRange = {b.placement.slotOffset, b.placement.slotCount, hidden ? 1u : 0u, 0u};
  const auto& q = b.placement.worldRotation;
  p.worldRot = {q[0], q[1], q[2], q[3]};
  const glm::vec3 offset = b.placement.worldOffset + root;
  p.worldOffset = {offset.x, offset.y, offset.z, b.placement.worldScale};
  if (mask) p.mask = {float(mask->width), float(mask->height), mask->threshold, 1.0f};
  return p;
}

}  // namespace

struct GpuDecodedLift::Impl {
  QRhi* rhi = nullptr;
  std::shared_ptr<const core::Bundle> bundle;
  std::uint32_t capacity = 0;
  std::size_t rigVertices = 0;
  std::unique_ptr<QRhiBuffer> vertices;  // the rig output when no posed source
  QRhiBuffer* vertexSource = nullptr;
  std::unique_ptr<QRhiBuffer> centers, covA, covB, colors;
  std::unique_ptr<QRhiComputePipeline> pass1, pass2;
  // Pass 2's pipeline layout, over a mask buffer of its own that lives as long as
  // the pipeline (a pipeline must not outlive the bindings it was made with).
  std::unique_ptr<QRhiBuffer> layoutMask;
  std::unique_ptr<QRhiShaderResourceBindings> layout2;

  struct Branch {
    core::BranchLiftSpec spec;
    std::unique_ptr<QRhiBuffer> params, neutral, corr, faces, idxim, barim, triim, geom, color, texels;
    std::unique_ptr<QRhiShaderResourceBindings> srb1, srb2;
    bool hasGeom = false, hasColor = false, hidden = false;
    std::optional<core::OpacityMask> mask;
    std::unique_ptr<QRhiBuffer> maskBuffer;  // 16 unused bytes while there is no mask
    bool run1 = false, run2 = false;         // staged for the next encode
  };
  std::vector<Branch> branches;
  PendingUploads uploads;
  std::size_t pass1Runs = 0, pass2Runs = 0;
  std::uint64_t geometryId = 0;  // the full pass whose geom_uv the buffers hold
  glm::vec3 root{0.0f};

  QRhiResourceUpdateBatch* batch() { return uploads.batch(rhi); }

  template <class T>
  std::unique_ptr<QRhiBuffer> staticBuffer(const std::vector<T>& data) {
    auto b = newStorageBuffer(rhi, data.size() * sizeof(T));
    if (b && !data.empty()) batch()->uploadStaticBuffer(b.get(), 0, int(data.size() * sizeof(T)), data.data());
    return b;
  }

  core::Expected<void> buildBranch(Branch& b) {
    const core::BranchMesh& m = *b.spec.mesh;
    const std::size_t hw = std::size_t(m.uvRes) * std::size_t(m.uvRes);
    std::vector<std::int32_t> triim(m.triim);  // validity folded in: triim' = valid ? triim : -1 (A6)
    for (std::size_t p = 0; p < hw; ++p)
      if (!m.valid[p]) triim[p] = -1;
    const bool skinned = b.spec.rigged && !b.spec.shell;  // else the branch's own vertex buffer
    b.params.reset(rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, int(sizeof(gpu::DecodedLiftParams))));
    if (!b.params->create()) return makeError(ErrorCode::Gpu, "cannot allocate the decoded lift's uniform");
    stageParams(b);
    if (!skinned) b.neutral = staticBuffer(b.spec.shell ? b.spec.shell->rest : m.neutral);
    b.corr = staticBuffer(b.spec.transform.corr);
    b.faces = staticBuffer(m.faces);
    b.idxim = staticBuffer(m.idxim);
    b.barim = staticBuffer(m.barim);
    b.triim = staticBuffer(triim);
    b.geom = newStorageBuffer(rhi, 11 * hw * 4);
    b.color = newStorageBuffer(rhi, 3 * hw * 4);
    b.texels = newStorageBuffer(rhi, gpu::kDecodedTexelFloats * hw * 4);
    b.maskBuffer = newStorageBuffer(rhi, std::max<std::size_t>(hw, 1024) * 4);  // an opacity mask's values
    if ((!skinned && !b.neutral) || !b.corr || !b.faces || !b.idxim || !b.barim || !b.triim || !b.geom || !b.color ||
        !b.texels || !b.maskBuffer)
      return makeError(ErrorCode::Gpu, "cannot allocate the decoded lift buffers of branch " + b.spec.name);
    const auto stage = QRhiShaderResourceBinding::ComputeStage;
    using B = QRhiShaderResourceBinding;
    b.srb1.reset(rhi->newShaderResourceBindings());
    b.srb1->setBindings(
        {B::uniformBuffer(gpu::kDecodedParamsBinding, stage, b.params.get()),
         B::bufferLoad(gpu::kPass1Vertices, stage, skinned ? vertexSource : b.neutral.get()),
         B::bufferLoad(gpu::kPass1Corr, stage, b.corr.get()), B::bufferLoad(gpu::kPass1Faces, stage, b.faces.get()),
         B::bufferLoad(gpu::kPass1Idxim, stage, b.idxim.get()), B::bufferLoad(gpu::kPass1Barim, stage, b.barim.get()),
         B::bufferLoad(gpu::kPass1Triim, stage, b.triim.get()), B::bufferLoad(gpu::kPass1Geom, stage, b.geom.get()),
         B::bufferStore(gpu::kPass1Texels, stage, b.texels.get())});
    b.srb2 = pass2Bindings(b, b.maskBuffer.get());
    if (!b.srb2 || !b.srb1->create())
      return makeError(ErrorCode::Gpu, "cannot create the decoded lift bindings of branch " + b.spec.name);
    return {};
  }

  // A branch's uniform from its spec and the lift's current root, visibility and mask.
  void stageParams(const Branch& b) {
    const gpu::DecodedLiftParams params = paramsFor(b.spec, rigVertices, root, b.hidden, b.mask ? &*b.mask : nullptr);
    batch()->updateDynamicBuffer(b.params.get(), 0, int(sizeof(params)), &params);
  }
  // ... and pass 2 re-run with it on the next encode (when there is something to lift).
  void restage(Branch& b) {
    stageParams(b);
    b.run2 = b.hasGeom && b.hasColor;
  }

  // Pass 2's bindings over `mask`.
  std::unique_ptr<QRhiShaderResourceBindings> pass2Bindings(const Branch& b, QRhiBuffer* mask) {
    const auto stage = QRhiShaderResourceBinding::ComputeStage;
    using B = QRhiShaderResourceBinding;
    std::unique_ptr<QRhiShaderResourceBindings> srb(rhi->newShaderResourceBindings());
    srb->setBindings(
        {B::uniformBuffer(gpu::kDecodedParamsBinding, stage, b.params.get()),
         B::bufferLoad(gpu::kPass2Texels, stage, b.texels.get()), B::bufferLoad(gpu::kPass2Color, stage, b.color.get()),
         B::bufferLoadStore(gpu::kPass2Centers, stage, centers.get()),
         B::bufferLoadStore(gpu::kPass2CovA, stage, covA.get()), B::bufferLoadStore(gpu::kPass2CovB, stage, covB.get()),
         B::bufferLoadStore(gpu::kPass2Colors, stage, colors.get()), B::bufferLoad(gpu::kPass2Mask, stage, mask)});
    return srb->create() ? std::move(srb) : nullptr;
  }
};

GpuDecodedLift::GpuDecodedLift(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
GpuDecodedLift::~GpuDecodedLift() = default;

core::Expected<std::unique_ptr<GpuDecodedLift>> GpuDecodedLift::create(RhiDevice& device,
                                                                       std::shared_ptr<const core::Bundle> bundle,
                                                                       std::vector<core::BranchLiftSpec> branches,
                                                                       std::uint32_t capacity, std::size_t vertexCount,
                                                                       QRhiBuffer* posedSource) {
  if (!device.supportsCompute()) return makeError(ErrorCode::Unsupported, "the GPU backend has no compute shaders");
  auto shader1 = loadShader("decoded_lift_pass1.comp");
  if (!shader1) return shader1.error();
  auto shader2 = loadShader("decoded_lift_pass2.comp");
  if (!shader2) return shader2.error();
  auto d = std::make_unique<Impl>();
  d->rhi = device.rhi();
  d->bundle = std::move(bundle);
  d->capacity = capacity;
  d->rigVertices = vertexCount;
  if (posedSource && std::size_t(posedSource->size()) < vertexCount * 12)
    return makeError(ErrorCode::Invalid,
                     "the decoded lift's vertex source holds fewer than " + std::to_string(vertexCount) + " vertices");
  if (!posedSource) d->vertices = newStorageBuffer(d->rhi, vertexCount * 12);
  d->vertexSource = posedSource ? posedSource : d->vertices.get();
  // The sink starts empty: centre (0,0,0,1), nothing else.
  const core::SplatSink empty(capacity);
  d->centers = d->staticBuffer(empty.center);
  d->covA = d->staticBuffer(empty.covarianceA);
  d->covB = d->staticBuffer(empty.covarianceB);
  d->colors = d->staticBuffer(empty.color);
  if (!d->vertexSource || !d->centers || !d->covA || !d->covB || !d->colors)
    return makeError(ErrorCode::Gpu, "cannot allocate the decoded lift's sink");
  for (auto& spec : branches) {
    if (spec.placement.slotOffset + spec.placement.slotCount > capacity)
      return makeError(ErrorCode::Invalid, "branch " + spec.name + "'s slots run past the sink");
    if (spec.rigged && !spec.shell && spec.mesh->vertexCount != vertexCount)
      return makeError(ErrorCode::Invalid, "branch " + spec.name + " is rigged but its mesh has " +
                                               std::to_string(spec.mesh->vertexCount) + " vertices, the rig " +
                                               std::to_string(vertexCount));
    d->branches.push_back({});
    d->branches.back().spec = std::move(spec);
    if (auto ok = d->buildBranch(d->branches.back()); !ok) return ok.error();
  }
  if (d->branches.empty()) return makeError(ErrorCode::Invalid, "the decoded lift has no branch");
  if (!(d->pass1 = newComputePipeline(d->rhi, *shader1, d->branches[0].srb1.get())) ||
      !(d->layoutMask = newStorageBuffer(d->rhi, 16)) ||
      !(d->layout2 = d->pass2Bindings(d->branches[0], d->layoutMask.get())) ||
      !(d->pass2 = newComputePipeline(d->rhi, *shader2, d->layout2.get())))
    return makeError(ErrorCode::Gpu, "cannot create the decoded lift pipelines");
  return std::unique_ptr<GpuDecodedLift>(new GpuDecodedLift(std::move(d)));
}

core::Expected<void> GpuDecodedLift::setOutputs(const core::DecodedOutputs& out, bool verticesChanged) {
  Impl& d = *m_impl;
  if (auto fits = core::checkDecodedOutputs(
          out, d.branches.size(), [&](std::size_t i) -> const auto& { return d.branches[i].spec; });
      !fits)
    return fits;
  QRhiResourceUpdateBatch* batch = d.batch();
  const bool newGeometry = out.geometryId != d.geometryId;
  d.geometryId = out.geometryId;
  for (std::size_t i = 0; i < d.branches.size(); ++i) {
    Impl::Branch& b = d.branches[i];
    if (out.geom[i] && (newGeometry || !b.hasGeom)) {
      batch->uploadStaticBuffer(b.geom.get(), 0, int(out.geom[i]->size() * 4), out.geom[i]->data());
      b.hasGeom = true;
      b.run1 = true;
    }
    if (out.color[i]) {
      batch->uploadStaticBuffer(b.color.get(), 0, int(out.color[i]->size() * 4), out.color[i]->data());
      b.hasColor = true;
    }
    if (verticesChanged && b.spec.rigged) b.run1 = true;
    b.run1 = b.run1 && b.hasGeom;
    b.run2 = (b.run2 || b.run1 || out.color[i]) && b.hasGeom && b.hasColor;
  }
  return {};
}

core::Expected<void> GpuDecodedLift::setBranchVertices(std::size_t branch, std::span<const float> vertices) {
  Impl& d = *m_impl;
  if (branch >= d.branches.size() || !d.branches[branch].spec.shell)
    return makeError(ErrorCode::Usage, "branch " + std::to_string(branch) + " has no vertices of its own");
  Impl::Branch& b = d.branches[branch];
  if (vertices.size() != b.spec.mesh->vertexCount * 3)
    return makeError(ErrorCode::Invalid, b.spec.name + ": " + std::to_string(vertices.size() / 3) +
                                             " vertices for a mesh of " + std::to_string(b.spec.mesh->vertexCount));
  d.batch()->uploadStaticBuffer(b.neutral.get(), 0, int(vertices.size() * 4), vertices.data());
  b.run1 = b.hasGeom;
  b.run2 = b.run2 || (b.run1 && b.hasColor);
  return {};
}

void GpuDecodedLift::setRootOffset(glm::vec3 offset) {
  Impl& d = *m_impl;
  if (offset == d.root) return;
  d.root = offset;
  for (auto& b : d.branches) {
    d.restage(b);
  }
}

void GpuDecodedLift::setHiddenBranches(const std::vector<std::string>& names) {
  Impl& d = *m_impl;
  for (auto& b : d.branches) {
    const bool hidden = std::find(names.begin(), names.end(), b.spec.name) != names.end();
    if (hidden == b.hidden) continue;
    b.hidden = hidden;
    d.restage(b);
  }
}

core::Expected<void> GpuDecodedLift::setOpacityMask(std::size_t branch, const core::OpacityMask* mask) {
  Impl& d = *m_impl;
  if (branch >= d.branches.size()) return makeError(ErrorCode::Usage, "no branch " + std::to_string(branch));
  Impl::Branch& b = d.branches[branch];
  if (mask && (mask->width <= 0 || mask->height <= 0 ||
               mask->values.size() != std::size_t(mask->width) * std::size_t(mask->height)))
    return makeError(ErrorCode::Invalid, "an opacity mask needs width x height values");
  // The mask buffer is sized once (bindings made after the pipeline crashed
  // lavapipe when swapped in): a mask holds at most max(uv_res^2, 1024) values.
  if (mask && std::size_t(b.maskBuffer->size()) < mask->values.size() * 4)
    return makeError(ErrorCode::Invalid, "an opacity mask of " + std::to_string(mask->width) + " x " +
                                             std::to_string(mask->height) + " is larger than branch " + b.spec.name +
                                             "'s " + std::to_string(b.maskBuffer->size() / 4) +
                                             " values; resample it to uv_res x uv_res");
  b.mask.reset();
  if (mask) b.mask = *mask;
  if (mask) d.batch()->uploadStaticBuffer(b.maskBuffer.get(), 0, int(mask->values.size() * 4), mask->values.data());
  d.restage(b);
  return {};
}

core::Expected<void> GpuDecodedLift::setVertices(std::span<const float> rigOutput) {
  Impl& d = *m_impl;
  if (!d.vertices)
    return makeError(ErrorCode::Invalid,
                     "this lift reads its vertices from another GPU pass; it takes none from the CPU");
  if (rigOutput.size() != d.rigVertices * 3)
    return makeError(ErrorCode::Invalid, "the lift expects " + std::to_string(d.rigVertices * 3) +
                                             " vertex floats, got " + std::to_string(rigOutput.size()));
  d.batch()->uploadStaticBuffer(d.vertices.get(), 0, int(rigOutput.size() * 4), rigOutput.data());
  return {};
}

void GpuDecodedLift::flushUploads(QRhiCommandBuffer* cb) {
  m_impl->uploads.flush(cb);
}

void GpuDecodedLift::encode(QRhiCommandBuffer* cb) {
  Impl& d = *m_impl;
  QRhiResourceUpdateBatch* batch = d.uploads.take();
  // Pass 1 of every branch that needs it, then pass 2: separate compute
  // passes so QRhi orders the texel writes before their reads.
  for (auto& b : d.branches) {
    if (!b.run1) continue;
    const int groups = gpu::groupsFor(std::uint32_t(b.spec.mesh->uvRes * b.spec.mesh->uvRes), gpu::kDecodedGroupSize);
    dispatchComputePass(cb, batch, d.pass1.get(), b.srb1.get(), groups);
    batch = nullptr;
    b.run1 = false;
    ++d.pass1Runs;
  }
  for (auto& b : d.branches) {
    if (!b.run2) continue;
    const int groups = gpu::groupsFor(b.spec.placement.slotCount, gpu::kDecodedGroupSize);
    dispatchComputePass(cb, batch, d.pass2.get(), b.srb2.get(), groups);
    batch = nullptr;
    b.run2 = false;
    ++d.pass2Runs;
  }
  if (batch) cb->resourceUpdate(batch);
  markPass(d.rhi, cb, "decoded lift");
}

core::Expected<void> GpuDecodedLift::runOffscreenFrame() {
  return runOffscreenComputeFrame(m_impl->rhi, "decoded lift", [&](QRhiCommandBuffer* cb) { encode(cb); });
}

core::Expected<core::SplatSink> GpuDecodedLift::readBack() {
  return readBackSink(m_impl->rhi, sink(), "decoded lift");
}

core::Expected<std::vector<float>> GpuDecodedLift::readTexels(std::size_t branch) {
  Impl& d = *m_impl;
  if (branch >= d.branches.size()) return makeError(ErrorCode::Usage, "no branch " + std::to_string(branch));
  QRhiBuffer* texels = d.branches[branch].texels.get();
  const std::size_t hw =
      std::size_t(d.branches[branch].spec.mesh->uvRes) * std::size_t(d.branches[branch].spec.mesh->uvRes);
  QRhiBufferReadbackResult r;
  auto ran = runOffscreenComputeFrame(d.rhi, "texel read-back", [&](QRhiCommandBuffer* cb) {
    QRhiResourceUpdateBatch* readback = d.rhi->nextResourceUpdateBatch();
    readback->readBackBuffer(texels, 0, int(hw * gpu::kDecodedTexelFloats * 4), &r);
    cb->resourceUpdate(readback);
  });
  if (!ran) return ran.error();
  std::vector<float> out(hw * gpu::kDecodedTexelFloats);
  std::memcpy(out.data(), r.data.constData(), out.size() * 4);
  return out;
}

std::uint32_t GpuDecodedLift::capacity() const {
  return m_impl->capacity;
}
SplatSinkBuffers GpuDecodedLift::sink() const {
  const Impl& d = *m_impl;
  return {d.centers.get(), d.covA.get(), d.covB.get(), d.colors.get(), d.capacity};
}

BufferList GpuDecodedLift::buffers() const {
  const Impl& d = *m_impl;
  BufferList list;
  if (d.vertices) list.push_back(bufferBytes("decoded lift vertices", d.vertices.get()));
  for (const auto& b : d.branches) {
    const std::string n = b.spec.name + " ";
    for (auto [name, buffer] : {std::pair{"lift uniform", b.params.get()},
                                {"neutral vertices", b.neutral.get()},
                                {"calibration corr", b.corr.get()},
                                {"faces", b.faces.get()},
                                {"idxim", b.idxim.get()},
                                {"barim", b.barim.get()},
                                {"triim", b.triim.get()},
                                {"geom_uv", b.geom.get()},
                                {"color_uv", b.color.get()},
                                {"lift texels", b.texels.get()}})
      if (buffer) list.push_back(bufferBytes(n + name, buffer));
  }
  list.push_back(bufferBytes("sink centres", d.centers.get()));
  list.push_back(bufferBytes("sink covariance A", d.covA.get()));
  list.push_back(bufferBytes("sink covariance B", d.covB.get()));
  list.push_back(bufferBytes("sink colours", d.colors.get()));
  return list;
}

std::size_t GpuDecodedLift::gpuBytes() const {
  return totalBytes(buffers());
}
std::size_t GpuDecodedLift::pass1Runs() const {
  return m_impl->pass1Runs;
}
std::size_t GpuDecodedLift::pass2Runs() const {
  return m_impl->pass2Runs;
}

}  // namespace riglens::render
