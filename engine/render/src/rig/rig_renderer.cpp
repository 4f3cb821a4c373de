#include "riglens/render/rig/rig_renderer.h"

#include <QtGui/private/qrhi_p.h>

#include <QtCore/QDebug>
#include <QtGui/QMatrix4x4>
#include <chrono>
#include <cstring>
#include <glm/gtc/matrix_inverse.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "device/gpu_layouts.h"
#include "device/shader_library.h"
#include "rig/gpu_environment.h"
#include "rig/gpu_materials.h"
#include "rig/gpu_parts.h"
#include "rig/gpu_skinning.h"
#include "rig/overlay_lines.h"
#include "riglens/core/rig/rig_tints.h"

namespace riglens::render {

namespace {

glm::mat4 toGlm(const QMatrix4x4& q) {
  glm::mat4 out;
  std::memcpy(glm::value_ptr(out), q.constData(), sizeof(float) * 16);
  return out;
}

int aligned(int size, int alignment) {
  return (size + alignment - 1) / alignment * alignment;
}

}  // namespace

struct RigRenderer::Impl {
  RhiDevice& device;
  QRhi* rhi;
  explicit Impl(RhiDevice& d) : device(d), rhi(d.rhi()) {}

  std::shared_ptr<const core::LoadedRun> uploadedRun;
  bool needsUpload = false;
  std::shared_ptr<const core::VertexTints> uploadedTints;  // what the parts' vertexTints buffers hold
  std::vector<GpuPart> parts;
  std::unique_ptr<GpuSkinning> skin;

  Buffer frameUbo, partUbo, constantBary, constantUv, constantTangent, lineVbuf;
  int partSlot = 0;
  int lineCapacity = 0;
  // Bound to frameUbo and partUbo: rebuilt with them. A model with
  // materials (a glTF file) draws its sections with theirs.
  std::unique_ptr<GpuMaterials> materials;
  // The PBR look's image-based light (made before the materials, which bind
  // its maps) and what draws it behind the model.
  std::unique_ptr<GpuEnvironment> environment;
  std::unique_ptr<QRhiShaderResourceBindings> lineSrb, backgroundSrb;
  std::unique_ptr<QRhiGraphicsPipeline> backgroundPipeline;
  // The pipelines that draw parts in one shading: both faces (`open`), and
  // for closed rigid parts back faces culled, or front faces under a
  // mirroring world (a negative determinant turns the winding around on screen).
  struct PartPipelines {
    std::unique_ptr<QRhiGraphicsPipeline> open, closed, closedMirrored;
    void reset() {
      open.reset();
      closed.reset();
      closedMirrored.reset();
    }
  };
  // By shading: the review look per pixel, the review look per vertex for
  // parts of flat faces (GpuPart::flatFaces), the PBR look.
  enum Shading { kReviewShading, kFlatReviewShading, kPbrShading, kShadingCount };
  PartPipelines partPipelines[kShadingCount];
  std::unique_ptr<QRhiGraphicsPipeline> wirePipeline, gridPipeline, overlayPipeline;
  // Sections of a model with materials: [look][blended][back faces culled][plain], plain
  // being the PBR look's pipeline for a material without textures or MToon (GpuMaterial::plain).
  std::unique_ptr<QRhiGraphicsPipeline> sectionPipelines[2][2][2][2];
  QVector<quint32> rpFormat;
  int pipelineSamples = 0;
  bool pipelinesReady = false;  // this frame's: made by ensurePipelines, for recordParts

  // Per frame.
  FrameState state;
  OverlayLines lines;

  bool fail(const char* what) {
    qWarning("riglens::render: %s", what);
    return false;
  }

  Buffer staticBuffer(QRhiBuffer::UsageFlags usage, const void* data, std::size_t bytes,
                      QRhiResourceUpdateBatch* batch) {
    return newStaticBuffer(rhi, usage, data, bytes, batch);
  }

  // The model goes to the GPU part by part, at most uploadBudget bytes a
  // frame (a part is never split): Qt 6.4 copies every upload into its batch
  // and then into a staging buffer, so one frame uploading a large model held
  // the mesh, both copies and the device buffers at once (on a CPU device
  // all host memory: 4 x 228 MB on the large sample). A frame that has not
  // uploaded everything draws none of the model and asks for another.
  std::size_t uploadBudget = std::size_t(64) << 20;
  std::size_t nextPart = 0;  // the first part whose data has not been queued
  bool uploading() const { return uploadedRun && nextPart < parts.size(); }

  // The model's buffers go, and with them the skinning pass that writes two
  // of them: a pass left behind dispatched into freed buffers every frame
  // (on lavapipe, freed host memory: a skinned glTF closed for a splat
  // scene corrupted the heap and the splats' own buffers drew nothing).
  void releaseModel() {
    skin.reset();
    uploadedTints.reset();
    parts.clear();
    nextPart = 0;
  }

  // A new model: its parts' slots, the per-part uniform slots, pipelines to make.
  bool beginUpload() {
    releaseModel();
    parts.resize(uploadedRun->meshes.size());
    // Per-part uniform slots, then one per section (its node's tint, highlight).
    partSlot = aligned(sizeof(gpu::PartBlock), rhi->ubufAlignment());
    const std::size_t slotCount = std::max<std::size_t>(1, parts.size() + uploadedRun->materials.sections.size());
    partUbo.reset(
        rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, partSlot * static_cast<int>(slotCount)));
    if (!partUbo->create()) return fail("cannot create the part uniform buffer");
    materials.reset();  // bound to the old buffer
    resetPipelines();
    return true;
  }

  // Queues the next parts' data, up to the budget; the skinning pass once the
  // (single) skinned mesh is in.
  bool uploadSome(QRhiResourceUpdateBatch* batch) {
    const core::LoadedRun& run = *uploadedRun;
    const bool skinned = run.kind == core::RunKind::SkinnedMesh && run.skin.has_value();
    std::size_t queued = 0;
    for (; nextPart < parts.size() && queued < uploadBudget; ++nextPart) {
      const core::PartMesh& mesh = run.meshes[nextPart];
      GpuPart& part = parts[nextPart];
      if (mesh.empty()) continue;
      if (!uploadPart(rhi, mesh, skinned, batch, part)) return fail("cannot create part buffers");
      queued += part.vertexBytes + part.indexBytes;
    }
    if (uploading() || !skinned || run.meshes.empty() || run.meshes[0].empty()) return true;
    const auto tints = core::boneWeightTints(*run.skin);
    if (tints.size() == run.meshes[0].colors.size()) {
      parts[0].boneTints = staticBuffer(QRhiBuffer::VertexBuffer, tints.data(), tints.size() * sizeof(float), batch);
      parts[0].vertexBytes += tints.size() * sizeof(float);
    }
    // Normal maps' tangents turn with the skin: the pass writes them into
    // the part's own buffer, which the sections then draw with.
    const std::size_t tangentBytes = run.meshes[0].vertexCount() * 4 * sizeof(float);
    if (run.materials.tangents.size() * sizeof(float) == tangentBytes) {
      parts[0].tangents = newStaticBuffer(rhi, QRhiBuffer::VertexBuffer | QRhiBuffer::StorageBuffer, nullptr,
                                          tangentBytes, batch, QRhiBuffer::Static);
      if (!parts[0].tangents) return fail("cannot create the skinned tangents' buffer");
      parts[0].vertexBytes += tangentBytes;
    }
    auto created = GpuSkinning::create(rhi, batch, run.meshes[0], *run.skin, run.morph,
                                       {parts[0].positions.get(), parts[0].normals.get(), parts[0].tangents.get()},
                                       run.materials.tangents);
    if (!created) return fail(created.error().message.c_str());
    skin = std::move(created).value();
    return true;
  }

  void buildWireframe(QRhiResourceUpdateBatch* batch) {
    const core::LoadedRun& run = *uploadedRun;
    if (run.kind == core::RunKind::SkinnedMesh) return;  // skinned: no wireframe copy (positions live on the GPU)
    for (std::size_t p = 0; p < parts.size(); ++p) {
      GpuPart& part = parts[p];
      const core::PartMesh& mesh = run.meshes[p];
      if (mesh.empty() || part.wirePositions) continue;
      uploadWireframe(rhi, mesh, batch, part);
    }
  }

  void resetPipelines() {
    wirePipeline.reset();
    for (PartPipelines& pipelines : partPipelines) pipelines.reset();
    for (int look = 0; look < 2; ++look) {
      for (auto& byCull : sectionPipelines[look])
        for (auto& byPlain : byCull)
          for (auto& pipeline : byPlain) pipeline.reset();
    }
  }

  Shading shadingOf(const GpuPart& part) const {
    if (lookIndex() == 1) return kPbrShading;
    return part.flatFaces ? kFlatReviewShading : kReviewShading;
  }

  // A closed part culls the faces that turn away from the camera: its back
  // faces, or its front faces when its world mirrors it.
  QRhiGraphicsPipeline* pipelineFor(const GpuPart& part, std::size_t index) const {
    const PartPipelines& pipelines = partPipelines[shadingOf(part)];
    if (!part.closed || !pipelines.closed || index >= state.partWorlds.size()) return pipelines.open.get();
    if (!mirrored(index)) return pipelines.closed.get();
    return pipelines.closedMirrored ? pipelines.closedMirrored.get() : pipelines.open.get();
  }

  // The environment behind the model: asked for, in the PBR look, once its light is made.
  bool drawsBackground() const {
    return state.environmentBackground && lookIndex() == 1 && environment && environment->ready();
  }

  // The PBR look's environment light, remade when the map changes.
  bool updateEnvironment(QRhiCommandBuffer* cb, QRhiResourceUpdateBatch*& batch) {
    if (lookIndex() != 1) return true;
    auto updated = environment->update(cb, batch, state.environment ? state.environment : GpuEnvironment::studio());
    return updated ? true : fail(updated.error().message.c_str());
  }

  // The PBR look draws the colour mode; the QA tints stay in review shading.
  int lookIndex() const {
    return state.look == core::Look::Pbr && state.tint == core::TintMode::Color && !state.vertexTints ? 1 : 0;
  }

  // Where each pass's parts begin (passes + 1 entries, the last = parts.size()).
  std::vector<std::size_t> passStarts{0, 0};
  std::size_t trianglesPerPass = std::size_t(1) << 18;
  void planPasses() {
    passStarts.assign({0, parts.size()});
    if (!device.isCpuDevice() || hasSections() || uploading()) return;
    const bool wire = state.tint == core::TintMode::Wireframe;
    const auto triangles = [&](const GpuPart& part) {
      return std::size_t(wire && part.wirePositions ? part.wireVertexCount / 3 : part.indexCount / 3);
    };
    std::size_t total = 0;
    for (const GpuPart& part : parts) total += triangles(part);
    const std::size_t passes = (total + trianglesPerPass - 1) / trianglesPerPass;
    if (passes <= 1) return;
    // Whole parts, cut where the running count passes each pass's share.
    passStarts.assign({0});
    std::size_t drawn = 0;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      drawn += triangles(parts[p]);
      if (drawn * passes >= total * passStarts.size() && p + 1 < parts.size()) passStarts.push_back(p + 1);
    }
    passStarts.push_back(parts.size());
  }

  // The run's sections, when it has materials (a single-mesh glTF model).
  bool hasSections() const {
    return uploadedRun && !uploadedRun->materials.empty() && !parts.empty() && parts[0].indexCount > 0;
  }
  int sectionSlot(const GpuSection& section) const { return static_cast<int>(parts.size()) + section.index; }
  bool sectionHidden(const GpuSection& section) const {
    return section.node >= 0 && std::size_t(section.node) < state.nodeHidden.size() &&
           state.nodeHidden[std::size_t(section.node)];
  }

  bool ensureCommon(QRhiResourceUpdateBatch* batch) {
    if (!frameUbo) {
      frameUbo.reset(rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, sizeof(gpu::FrameBlock)));
      if (!frameUbo->create()) return fail("cannot create the frame uniform buffer");
      const float one[3] = {1, 1, 1}, zero[4] = {0, 0, 0, 0};
      constantBary = staticBuffer(QRhiBuffer::VertexBuffer, one, sizeof(one), batch);
      constantUv = staticBuffer(QRhiBuffer::VertexBuffer, zero, 2 * sizeof(float), batch);
      // No tangent: part_pbr.frag falls back to the screen-space frame.
      constantTangent = staticBuffer(QRhiBuffer::VertexBuffer, zero, sizeof(zero), batch);
    }
    if (!partUbo) {
      partSlot = aligned(sizeof(gpu::PartBlock), rhi->ubufAlignment());
      partUbo.reset(rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::UniformBuffer, partSlot));
      if (!partUbo->create()) return fail("cannot create the part uniform buffer");
    }
    if (!environment) {
      environment = std::make_unique<GpuEnvironment>(rhi);
      if (!environment->create()) return fail("cannot create the environment's maps");
      const auto fragment = QRhiShaderResourceBinding::FragmentStage;
      backgroundSrb = newBindings(
          rhi, {QRhiShaderResourceBinding::uniformBuffer(
                    gpu::kFrameBinding, QRhiShaderResourceBinding::VertexStage | fragment, frameUbo.get()),
                QRhiShaderResourceBinding::sampledTexture(gpu::kPrefilteredBinding, fragment,
                                                          environment->prefiltered(), environment->mapSampler())});
      if (!backgroundSrb) return fail("cannot create the background's bindings");
    }
    if (!materials) {
      materials = std::make_unique<GpuMaterials>(rhi, frameUbo.get(), partUbo.get(), int(sizeof(gpu::PartBlock)),
                                                 environment.get());
      if (auto ok = materials->createDefault(batch); !ok) return fail(ok.error().message.c_str());
      if (hasSections())
        if (auto ok = materials->upload(batch, uploadedRun->materials, uploadedRun->meshes[0],
                                        uploadedRun->kind == core::RunKind::SkinnedMesh);
            !ok)
          return fail(ok.error().message.c_str());
      resetPipelines();  // made with the old default bindings
    }
    if (!lineSrb) {
      lineSrb.reset(rhi->newShaderResourceBindings());
      lineSrb->setBindings({QRhiShaderResourceBinding::uniformBuffer(
          gpu::kFrameBinding, QRhiShaderResourceBinding::VertexStage, frameUbo.get())});
      if (!lineSrb->create()) return fail("cannot create the line bindings");
    }
    return true;
  }

  bool mirrored(std::size_t index) const {
    return index < state.partWorlds.size() && glm::determinant(glm::mat3(state.partWorlds[index])) < 0;
  }

  // The parts' pipelines in the look's shadings, only those this frame's
  // parts draw with: in the review look, flat parts take the flat set and
  // the others the per-pixel one; a set's culled pipelines once a closed
  // part draws in it, the mirrored one while such a part is mirrored.
  template <class Make>
  bool makePartSets(bool pbr, const Make& make) {
    struct Needs {
      bool any = false, closed = false, mirrored = false;
    } needs[kShadingCount];
    for (std::size_t p = 0; p < parts.size(); ++p) {
      const GpuPart& part = parts[p];
      if (part.indexCount == 0) continue;  // a socket
      Needs& set = needs[pbr ? kPbrShading : part.flatFaces ? kFlatReviewShading : kReviewShading];
      set.any = true;
      set.closed = set.closed || part.closed;
      set.mirrored = set.mirrored || (part.closed && mirrored(p));
    }
    for (const Shading shading : {kReviewShading, kFlatReviewShading, kPbrShading}) {
      const Needs& set = needs[shading];
      PartPipelines& made = partPipelines[shading];
      // Voxel parts draw with the default material, which is plain.
      const PartVariant variant{.pbr = shading == kPbrShading,
                                .plain = materials->defaultMaterial().plain,
                                .flat = shading == kFlatReviewShading};
      auto culled = [variant](QRhiGraphicsPipeline::CullMode cull) {
        PartVariant v = variant;
        v.cull = cull;
        return v;
      };
      if (set.any && !make(made.open, variant)) return fail("cannot create the part pipelines");
      if (set.closed && !make(made.closed, culled(QRhiGraphicsPipeline::Back)))
        return fail("cannot create the part pipelines");
      if (set.mirrored && !make(made.closedMirrored, culled(QRhiGraphicsPipeline::Front)))
        return fail("cannot create the part pipelines");
    }
    return true;
  }

  bool ensurePipelines(QRhiRenderPassDescriptor* rp, int samples) {
    pipelinesReady = false;
    const QVector<quint32> format = rp->serializedFormat();
    if (format != rpFormat || samples != pipelineSamples) {
      resetPipelines();
      gridPipeline.reset();
      overlayPipeline.reset();
      backgroundPipeline.reset();
      rpFormat = format;
      pipelineSamples = samples;
    }
    // The current look's pipelines, made when first needed.
    const bool pbr = lookIndex() == 1;
    QRhiShaderResourceBindings* layout = materials->defaultMaterial().bindings.get();
    const auto make = [&](std::unique_ptr<QRhiGraphicsPipeline>& pipeline, PartVariant variant) {
      return pipeline || (pipeline = newPartPipeline(rhi, rp, samples, layout, variant)) != nullptr;
    };
    if (!makePartSets(pbr, make)) return false;
    // The wireframe tint's, once it is asked for (a pipeline costs 2-10 ms
    // on lavapipe: the first frame makes only those it draws with).
    if (state.tint == core::TintMode::Wireframe && !make(wirePipeline, {.wireframe = true}))
      return fail("cannot create the wireframe pipeline");
    if (hasSections())
      for (const GpuSection& section : materials->sections()) {
        const GpuMaterial& material = materials->materials()[std::size_t(section.material)];
        const bool blended = material.alphaMode == core::AlphaMode::Blend, cull = !material.doubleSided;
        if (!make(sectionPipeline(material), {.textured = true,
                                              .blended = blended,
                                              .pbr = pbr,
                                              .plain = pbr && material.plain,
                                              .cull = cull ? QRhiGraphicsPipeline::Back : QRhiGraphicsPipeline::None}))
          return fail("cannot create a material's pipeline");
      }
    if (!gridPipeline && !(gridPipeline = newLinePipeline(rhi, rp, samples, true, lineSrb.get())))
      return fail("cannot create the grid pipeline");
    if (!overlayPipeline && !(overlayPipeline = newLinePipeline(rhi, rp, samples, false, lineSrb.get())))
      return fail("cannot create the overlay pipeline");
    if (drawsBackground() && !backgroundPipeline &&
        !(backgroundPipeline = newEnvironmentBackgroundPipeline(rhi, rp, samples, backgroundSrb.get())))
      return fail("cannot create the background pipeline");
    pipelinesReady = true;
    return true;
  }

  // part.frag's mode for a tint given per vertex (its kVertexTint).
  static constexpr int kVertexTintMode = 6;
  // A skinned mesh in the joint tint: each vertex its bones' colours.
  bool byBoneTints() const {
    return state.tint == core::TintMode::Joint && !parts.empty() && parts[0].boneTints != nullptr;
  }
  QRhiBuffer* colorsOf(const GpuPart& part) const {
    if (state.vertexTints && part.vertexTints) return part.vertexTints.get();
    return byBoneTints() && part.boneTints ? part.boneTints.get() : part.colors.get();
  }

  // FrameState::vertexTints, once the model is all there and whenever the
  // pointer changes: each part whose colours it covers gets them (its
  // buffer made once, then uploaded again).
  bool uploadVertexTints(QRhiResourceUpdateBatch* batch) {
    if (state.vertexTints == uploadedTints || !uploadedRun || uploading()) return true;
    uploadedTints = state.vertexTints;
    if (!uploadedTints) return true;
    for (std::size_t p = 0; p < parts.size() && p < uploadedTints->size(); ++p) {
      const std::vector<float>& rgb = (*uploadedTints)[p];
      GpuPart& part = parts[p];
      if (rgb.empty() || rgb.size() != uploadedRun->meshes[p].colors.size()) continue;
      const std::size_t bytes = rgb.size() * sizeof(float);
      if (!part.vertexTints) {
        part.vertexTints = newStaticBuffer(rhi, QRhiBuffer::VertexBuffer, nullptr, bytes, batch, QRhiBuffer::Static);
        if (!part.vertexTints) return fail("cannot create a part's vertex tint buffer");
        part.vertexBytes += bytes;
      }
      batch->uploadStaticBuffer(part.vertexTints.get(), 0, int(bytes), rgb.data());
    }
    return true;
  }

  // The pipeline a section of `material` draws with in the current look.
  std::unique_ptr<QRhiGraphicsPipeline>& sectionPipeline(const GpuMaterial& material) {
    const int look = lookIndex();
    return sectionPipelines[look][material.alphaMode == core::AlphaMode::Blend][!material.doubleSided]
                           [look == 1 && material.plain];
  }

  // One section of the model (part 0) with its material and its own slot.
  template <class Bind>
  void drawSection(QRhiCommandBuffer* cb, const GpuSection& section, const Bind& bind) {
    const GpuMaterial& material = materials->materials()[std::size_t(section.material)];
    bind(sectionPipeline(material).get());
    const QRhiCommandBuffer::DynamicOffset offset(1, quint32(sectionSlot(section)) * quint32(partSlot));
    cb->setShaderResources(material.bindings.get(), 1, &offset);
    const GpuPart& part = parts[0];
    const QRhiCommandBuffer::VertexInput inputs[] = {{part.positions.get(), 0},
                                                     {part.normals.get(), 0},
                                                     {colorsOf(part), 0},
                                                     {constantBary.get(), 0},
                                                     {materials->uvs(), 0},
                                                     {materials->uvs1(), 0},
                                                     {part.tangents ? part.tangents.get() : materials->tangents(), 0}};
    cb->setVertexInput(0, gpu::kPartBindingCount, inputs, part.indices.get(), 0, QRhiCommandBuffer::IndexUInt32);
    cb->drawIndexed(section.indexCount, 1, section.firstIndex);
  }

  static_assert(core::kMaxPunctualLights == std::size_t(gpu::kMaxLights));
  // The PBR look's part of the frame block: tone map, exposure, lights.
  void writeLook(gpu::FrameBlock& frame) const {
    const int toneMap = state.toneMap == core::ToneMap::PbrNeutral ? 0 : state.toneMap == core::ToneMap::Aces ? 1 : 2;
    const int count = int(std::min(state.lights.size(), core::kMaxPunctualLights));
    frame.look = {state.look == core::Look::Pbr ? 1 : 0, toneMap, count, 0};
    frame.exposure = gpu::toGpu(glm::vec4(std::exp2(state.exposure), std::max(state.environmentIntensity, 0.0f), 0, 0));
    const float topLevel = environment && environment->ready() ? float(GpuEnvironment::kPrefilteredLevels - 1) : 0.0f;
    frame.environment = gpu::toGpu(glm::vec4(glm::radians(state.environmentRotation), topLevel, 0, 0));
    for (int i = 0; i < count; ++i) {
      const core::PunctualLight& light = state.lights[std::size_t(i)];
      const float type = light.type == core::PunctualLight::Type::Directional ? 0.0f
                         : light.type == core::PunctualLight::Type::Point     ? 1.0f
                                                                              : 2.0f;
      frame.lightPosition[i] = gpu::toGpu(glm::vec4(light.position, type));
      frame.lightDirection[i] = gpu::toGpu(glm::vec4(light.direction, light.range));
      frame.lightColor[i] = gpu::toGpu(glm::vec4(light.color, 0.0f));
      frame.lightCone[i] = gpu::toGpu(glm::vec4(std::cos(light.outerConeAngle), std::cos(light.innerConeAngle), 0, 0));
    }
  }

  void writeUniforms(QRhiResourceUpdateBatch* batch) {
    gpu::FrameBlock frame{};
    const glm::mat4 viewProj = toGlm(rhi->clipSpaceCorrMatrix()) * state.projection * state.view;
    frame.viewProj = gpu::toGpu(viewProj);
    frame.cameraPos = gpu::toGpu(glm::vec4(state.eye, 1));
    frame.keyDir = gpu::toGpu(glm::vec4(glm::normalize(glm::vec3(0.45f, 0.8f, 0.55f)), 0.75f));
    frame.fillDir = gpu::toGpu(glm::vec4(glm::normalize(glm::vec3(-0.7f, 0.2f, -0.3f)), 0.25f));
    frame.skyColor = gpu::toGpu(glm::vec4(0.62f, 0.66f, 0.72f, 0.55f));
    frame.groundColor = gpu::toGpu(glm::vec4(0.30f, 0.27f, 0.24f, 0.0f));
    frame.highlightColor = gpu::toGpu(core::kHighlightColor);
    frame.mode.x = byBoneTints() || state.vertexTints ? kVertexTintMode : static_cast<int>(state.tint);
    frame.mode.y = 1;  // targets are plain RGBA8: encode sRGB in the shader
    frame.mode.z = state.tint == core::TintMode::Wireframe ? 1 : 0;
    frame.wire = gpu::toGpu(glm::vec4(1.2f, 0.05f, 0.05f, 0.06f));
    writeLook(frame);
    batch->updateDynamicBuffer(frameUbo.get(), 0, sizeof(frame), &frame);

    const bool skinned = skin != nullptr;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      gpu::PartBlock block{};
      // A skinned mesh is posed by its bones: its one draw has no model matrix.
      const glm::mat4 model = (!skinned && p < state.partWorlds.size()) ? state.partWorlds[p] : glm::mat4(1.0f);
      block.model = gpu::toGpu(model);
      block.normalMatrix = gpu::toGpu(glm::mat4(glm::inverseTranspose(glm::mat3(model))));
      const glm::vec3 tint = p < state.partTints.size() ? state.partTints[p] : glm::vec3(0.7f);
      const bool highlighted = static_cast<int>(p) == state.highlightPart;
      block.tint = gpu::toGpu(glm::vec4(tint, highlighted ? 1.0f : 0.0f));
      batch->updateDynamicBuffer(partUbo.get(), static_cast<int>(p) * partSlot, sizeof(block), &block);
      // Part 0's sections: its block, with their node's tint and highlight.
      if (p != 0 || !hasSections()) continue;
      for (const GpuSection& section : materials->sections()) {
        const bool nodeTinted = section.node >= 0 && std::size_t(section.node) < state.nodeTints.size();
        const bool lit = highlighted || (section.node >= 0 && section.node == state.highlightNode);
        block.tint = gpu::toGpu(glm::vec4(nodeTinted ? state.nodeTints[std::size_t(section.node)] : tint, lit ? 1 : 0));
        batch->updateDynamicBuffer(partUbo.get(), sectionSlot(section) * partSlot, sizeof(block), &block);
      }
    }

    buildOverlayLines(state, lines);
    const int bytes = static_cast<int>(lines.vertices.size() * sizeof(gpu::LineVertex));
    if (bytes > lineCapacity) {
      lineVbuf.reset(rhi->newBuffer(QRhiBuffer::Dynamic, QRhiBuffer::VertexBuffer, bytes));
      lineCapacity = lineVbuf->create() ? bytes : 0;
    }
    if (bytes > 0 && lineVbuf) batch->updateDynamicBuffer(lineVbuf.get(), 0, bytes, lines.vertices.data());
  }
};

RigRenderer::RigRenderer(RhiDevice& device) : m_impl(std::make_unique<Impl>(device)) {}
RigRenderer::~RigRenderer() = default;

void RigRenderer::setModel(std::shared_ptr<const core::LoadedRun> run) {
  m_run = std::move(run);
  m_impl->needsUpload = true;
}

bool RigRenderer::prepare(QRhiCommandBuffer* cb, QRhiRenderPassDescriptor* renderPass, int sampleCount, QSize,
                          const FrameState& state) {
  Impl& d = *m_impl;
  d.state = state;
  using Clock = std::chrono::steady_clock;
  const auto ms = [](Clock::duration t) { return std::chrono::duration<double, std::milli>(t).count(); };
  const auto started = Clock::now();
  QRhiResourceUpdateBatch* batch = d.rhi->nextResourceUpdateBatch();
  if (d.needsUpload) {
    d.uploadedRun = m_run;
    d.needsUpload = false;
    m_prepareTimes = {};
    if (d.uploadedRun && !d.beginUpload()) {
      batch->release();
      return false;
    }
    if (!d.uploadedRun) d.releaseModel();
  }
  if (d.uploading() && !d.uploadSome(batch)) {
    batch->release();
    return false;
  }
  const auto uploaded = Clock::now();
  if (!d.ensureCommon(batch) || !d.updateEnvironment(cb, batch) || !d.ensurePipelines(renderPass, sampleCount)) {
    batch->release();
    return false;
  }
  // Summed over the frames one model's upload took (the first frames'
  // share of `riglens-cli render --timings`).
  m_prepareTimes.uploadMs += ms(uploaded - started);
  m_prepareTimes.pipelinesMs += ms(Clock::now() - uploaded);
  if (state.tint == core::TintMode::Wireframe && d.uploadedRun) d.buildWireframe(batch);
  if (!d.uploadVertexTints(batch)) {
    batch->release();
    return false;
  }
  d.writeUniforms(batch);

  if (d.skin) {
    d.skin->record(cb, batch, state.bones, state.morphWeights);
  } else {
    cb->resourceUpdate(batch);
  }
  d.planPasses();
  return true;
}

void RigRenderer::setUploadBudget(std::size_t bytes) {
  m_impl->uploadBudget = std::max<std::size_t>(bytes, 1);
}

bool RigRenderer::uploading() const {
  return m_impl->uploading();
}

std::size_t RigRenderer::partsUploaded() const {
  return m_impl->uploadedRun ? m_impl->nextPart : 0;
}

void RigRenderer::setTrianglesPerPass(std::size_t triangles) {
  m_impl->trianglesPerPass = std::max<std::size_t>(triangles, 1);
}

int RigRenderer::passesWanted() const {
  return int(m_impl->passStarts.size()) - 1;
}

void RigRenderer::record(QRhiCommandBuffer* cb, QRect rect, QSize targetSize) {
  recordParts(cb, rect, targetSize, 0, m_impl->parts.size(), true);
}

void RigRenderer::recordPass(QRhiCommandBuffer* cb, QRect rect, QSize targetSize, int pass) {
  const auto& starts = m_impl->passStarts;
  if (pass < 0 || std::size_t(pass) + 1 >= starts.size()) return;
  recordParts(cb, rect, targetSize, starts[std::size_t(pass)], starts[std::size_t(pass) + 1],
              std::size_t(pass) + 2 == starts.size());
}

// Parts [first, last); `finish`: then the grid, the blended sections and the
// overlays, which go after every opaque part.
void RigRenderer::recordParts(QRhiCommandBuffer* cb, QRect rect, QSize targetSize, std::size_t first, std::size_t last,
                              bool finish) {
  Impl& d = *m_impl;
  if (!d.pipelinesReady || rect.isEmpty() || d.uploading()) return;
  // QRhi viewports and scissors have a bottom-left origin; QRhi sets them on
  // the bound pipeline: bind first, then set them.
  const int bottom = targetSize.height() - (rect.y() + rect.height());
  const QRhiViewport viewport(float(rect.x()), float(bottom), float(rect.width()), float(rect.height()));
  const QRhiScissor scissor(rect.x(), bottom, rect.width(), rect.height());
  const auto bind = [&](QRhiGraphicsPipeline* ps) {
    cb->setGraphicsPipeline(ps);
    cb->setViewport(viewport);
    cb->setScissor(scissor);
  };
  if (first == 0 && d.drawsBackground() && d.backgroundPipeline) {
    bind(d.backgroundPipeline.get());
    cb->setShaderResources(d.backgroundSrb.get());
    cb->draw(3);
  }
  const bool wire = d.state.tint == core::TintMode::Wireframe;
  QRhiShaderResourceBindings* plain = d.materials->defaultMaterial().bindings.get();
  // Blended sections wait until everything opaque (and the grid) is drawn,
  // then go back to front by their centres (glTF 2.0 3.9.4: sorted per primitive).
  std::vector<std::pair<float, const GpuSection*>> blended;
  for (std::size_t p = first; p < std::min(last, d.parts.size()); ++p) {
    const GpuPart& part = d.parts[p];
    if (part.indexCount == 0) continue;  // a socket
    if (p < d.state.partHidden.size() && d.state.partHidden[p]) continue;
    const QRhiCommandBuffer::DynamicOffset offset(1, quint32(p) * quint32(d.partSlot));
    if (wire && part.wirePositions) {
      bind(d.wirePipeline.get());
      cb->setShaderResources(plain, 1, &offset);
      const QRhiCommandBuffer::VertexInput inputs[] = {{part.wirePositions.get(), 0}, {part.wireNormals.get(), 0},
                                                       {part.wireColors.get(), 0},    {part.wireBary.get(), 0},
                                                       {d.constantUv.get(), 0},       {d.constantUv.get(), 0},
                                                       {d.constantTangent.get(), 0}};
      cb->setVertexInput(0, gpu::kPartBindingCount, inputs);
      cb->draw(part.wireVertexCount);
    } else if (p == 0 && d.hasSections()) {
      const glm::mat4 model = d.skin || d.state.partWorlds.empty() ? glm::mat4(1.0f) : d.state.partWorlds[0];
      for (const GpuSection& section : d.materials->sections()) {
        if (d.sectionHidden(section)) continue;
        const GpuMaterial& material = d.materials->materials()[std::size_t(section.material)];
        if (material.alphaMode == core::AlphaMode::Blend) {
          blended.emplace_back(glm::distance(glm::vec3(model * glm::vec4(section.centre, 1.0f)), d.state.eye),
                               &section);
          continue;
        }
        d.drawSection(cb, section, bind);
      }
    } else {
      bind(d.pipelineFor(part, p));
      cb->setShaderResources(plain, 1, &offset);
      const QRhiCommandBuffer::VertexInput inputs[] = {
          {part.positions.get(), 0}, {part.normals.get(), 0}, {d.colorsOf(part), 0},       {d.constantBary.get(), 0},
          {d.constantUv.get(), 0},   {d.constantUv.get(), 0}, {d.constantTangent.get(), 0}};
      cb->setVertexInput(0, gpu::kPartBindingCount, inputs, part.indices.get(), 0, QRhiCommandBuffer::IndexUInt32);
      cb->drawIndexed(part.indexCount);
    }
  }
  if (!finish) return;
  const QRhiCommandBuffer::VertexInput lineInput(d.lineVbuf.get(), 0);
  const bool anyLines = d.lineVbuf && !d.lines.vertices.empty();
  if (anyLines && d.lines.gridVertices > 0) {
    bind(d.gridPipeline.get());
    cb->setShaderResources(d.lineSrb.get());
    cb->setVertexInput(0, 1, &lineInput);
    cb->draw(quint32(d.lines.gridVertices));
  }
  std::stable_sort(blended.begin(), blended.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [distance, section] : blended) d.drawSection(cb, *section, bind);
  if (anyLines && d.lines.markerVertices > 0) {
    bind(d.overlayPipeline.get());
    cb->setShaderResources(d.lineSrb.get());
    cb->setVertexInput(0, 1, &lineInput);
    cb->draw(quint32(d.lines.markerVertices), 1, quint32(d.lines.gridVertices), 0);
  }
}

MemoryReport RigRenderer::memoryReport() const {
  const Impl& d = *m_impl;
  MemoryReport report;
  const core::LoadedRun* run = d.uploadedRun.get();
  for (std::size_t p = 0; p < d.parts.size(); ++p) {
    PartMemory m;
    if (run && p < run->rig.parts().size() && run->kind != core::RunKind::SkinnedMesh)
      m.name = run->rig.parts()[p].name;
    else if (run)
      m.name = run->source.filename().string();
    m.vertexBytes = d.parts[p].vertexBytes + d.parts[p].wireBytes;
    m.indexBytes = d.parts[p].indexBytes;
    m.uniformBytes = static_cast<std::size_t>(d.partSlot);
    report.vertexBytes += m.vertexBytes;
    report.indexBytes += m.indexBytes;
    report.parts.push_back(std::move(m));
  }
  report.uniformBytes =
      (d.partUbo ? static_cast<std::size_t>(d.partUbo->size()) : 0) + (d.frameUbo ? sizeof(gpu::FrameBlock) : 0);
  report.storageBytes = d.skin ? d.skin->bytes() : 0;
  if (d.materials) {
    report.textureBytes = d.materials->textureBytes() + (d.environment ? d.environment->bytes() : 0);
    report.vertexBytes += d.materials->uvBytes();
    if (!report.parts.empty()) report.parts[0].vertexBytes += d.materials->uvBytes();
  }
  report.overlayBytes = static_cast<std::size_t>(d.lineCapacity) + (d.constantBary ? 12 : 0);
  report.cpuBytes = run ? run->cpuBytes() : 0;
  return report;
}

void RigRenderer::releaseResources() {
  auto device = &m_impl->device;
  m_impl = std::make_unique<Impl>(*device);
  m_impl->needsUpload = m_run != nullptr;
}

}  // namespace riglens::render
